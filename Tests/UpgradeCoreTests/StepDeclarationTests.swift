import Testing
import UpgradeCore
import VersionKit

private struct Boom: Error {}

private func work() throws {}

/// Declaring steps: ids, step names, action shapes, builder and imperative registration.
@Suite("Step declarations")
struct StepDeclarationTests {
    @Test("the default id is the step-name form of the version as written")
    func defaultID() {
        #expect(UpgradeStep("8.8.8") {}.id == "appUpgradeTo_8_8_8")
        #expect(UpgradeStep("8.8") {}.id == "appUpgradeTo_8_8")
        #expect(UpgradeStep("8.8.0") {}.id == "appUpgradeTo_8_8_0")
        #expect(UpgradeStep("9.0", id: "move-settings", summary: "moves settings") {}.id == "move-settings")
        #expect(UpgradeStep("9.0", id: "move-settings", summary: "moves settings") {}.summary == "moves settings")
    }

    @Test(
        "a step declared by a whole, well-formed step name",
        arguments: [
            ("appUpgradeTo_8_8_8", "8.8.8"), ("appUpgradeTo_1_2", "1.2"), ("APPUPGRADETO_1_2", "1.2"),
            ("appupgradeto_0_10_0", "0.10.0"),
        ] as [(String, Version)])
    func validStepName(name: String, version: Version) throws {
        let step = try UpgradeStep(named: name) {}
        #expect(step.id == name)
        #expect(step.version == version)
    }

    @Test(
        "a malformed step name is an error naming it",
        arguments: [
            "appUpgradeTo_1_2_3_4", "xappUpgradeTo_1_2", "appUpgradeTo_1", "appUpgradeTo_1_x", "appUpgradeTo_1_2 ",
            "appUpgradeTo__1_2", "appUpgradeTo_1_99999999999", "", "upgradeTo_1_2",
        ])
    func invalidStepName(name: String) {
        let error = #expect(throws: UpgradeError.self) { try UpgradeStep(named: name) {} }
        #expect(error?.code == .invalidStepName)
        #expect(error?.message.contains("StepDeclarationTests.swift") == true)
        #expect(error?.description.contains("\"\(name)\"") == true)
    }

    /// Each action shape the API accepts, with whether its attempt must succeed.
    static let shapes: [(label: String, step: UpgradeStep, succeeds: Bool)] = [
        ("empty", UpgradeStep("1.0") {}, true),
        ("one throwing call", UpgradeStep("1.0") { try work() }, true),
        ("throw", UpgradeStep("1.0") { throw Boom() }, false),
        (
            "several statements",
            UpgradeStep("1.0") {
                try work()
                try work()
            }, true
        ),
        (
            "several statements with context",
            UpgradeStep("1.0") { context in
                let attempt = context.attempt
                if attempt > 1 { try work() }
            }, true
        ),
        (
            "async with context",
            UpgradeStep("1.0") { (context: UpgradeContext) async throws in
                await Task.yield()
                if context.attempt > 5 { throw Boom() }
            }, true
        ),
        ("true", UpgradeStep("1.0") { true }, true),
        ("false", UpgradeStep("1.0") { false }, false),
        ("false with context", UpgradeStep("1.0") { _ in false }, false),
        (
            "several statements returning false",
            UpgradeStep("1.0") {
                try work()
                return false
            }, false
        ),
        (
            "several statements with context returning a Bool",
            UpgradeStep("1.0") { context in
                try work()
                return context.attempt > 1
            }, false
        ),
        ("named", try! UpgradeStep(named: "appUpgradeTo_1_0") {}, true),
        ("named with context", try! UpgradeStep(named: "appUpgradeTo_1_0") { (_: UpgradeContext) in }, true),
        ("named false", try! UpgradeStep(named: "appUpgradeTo_1_0") { false }, false),
        (
            "named, several statements",
            try! UpgradeStep(named: "appUpgradeTo_1_0") {
                try work()
                try work()
            }, true
        ),
    ]

    @Test("sync, async, throwing and Bool-returning actions", arguments: shapes)
    func actionShapes(shape: (label: String, step: UpgradeStep, succeeds: Bool)) async throws {
        let store = RecordingStore(settledState(at: "0.9"))
        let upgrader = makeUpgrader(store: store, steps: [shape.step])

        let report = try await upgrader.run(currentVersion: "1.0")

        #expect(report.outcome == (shape.succeeds ? .upgraded : .failed), "\(shape.label)")
    }

    @Test("the result builder and imperative registration give the same run order")
    func builderAndRegisterAgree() async throws {
        let versions: [(Version, String)] = [
            ("2.0", "b1"), ("1.0", "a"), ("2.0.0", "b2"), ("3.0", "c"), ("1.5", "a2"), ("2.0", "b3"),
        ]
        let includeExtra = true
        let built = Upgrader(store: RecordingStore()) {
            UpgradeStep(versions[0].0, id: versions[0].1) {}
            for (version, id) in versions[1...3] {
                UpgradeStep(version, id: id) {}
            }
            if includeExtra {
                UpgradeStep(versions[4].0, id: versions[4].1) {}
            } else {
                [UpgradeStep]()
            }
            [UpgradeStep(versions[5].0, id: versions[5].1) {}]
        }
        var registered = Upgrader(store: RecordingStore())
        for (version, id) in versions {
            registered.register(UpgradeStep(version, id: id) {})
        }

        let expected = ["a", "a2", "b1", "b2", "b3", "c"]
        #expect(built.steps.map(\.id) == expected)
        #expect(registered.steps.map(\.id) == expected)

        let journal = Journal()
        let store = RecordingStore(settledState(at: "0.1"))
        var mixed = makeUpgrader(store: store, steps: [journal.step("2.0", id: "b1")])
        for (version, id) in versions.dropFirst() { mixed.register(journal.step(version, id: id)) }
        _ = try await mixed.run(currentVersion: "3.0")
        #expect(journal.ids == expected)
    }

    @Test("two steps with one id are an error naming both declarations, raised before anything runs")
    func duplicateIDs() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let firstLine = #line + 1
        let first = journal.step("1.1", id: "same")
        let secondLine = #line + 1
        let second = UpgradeStep("1.3", id: "same") {}
        let upgrader = Upgrader(store: store) {
            first
            journal.step("1.2", id: "other")
            second
        }

        let error = await #expect(throws: UpgradeError.self) { try await upgrader.run(currentVersion: "2.0") }
        #expect(error?.code == .duplicateStepID)
        let message = error?.message ?? ""
        #expect(message.contains("\"same\""))
        #expect(message.contains("1.1"))
        #expect(message.contains("1.3"))
        #expect(message.contains("UpgradeCoreTests/StepDeclarationTests.swift:\(firstLine)"))
        #expect(message.contains("UpgradeCoreTests/StepDeclarationTests.swift:\(secondLine)"))
        #expect(journal.ids.isEmpty)
        #expect(store.loadCount == 0)
        #expect(store.saves.isEmpty)
        #expect(throws: UpgradeError.self) { try upgrader.validate() }
        #expect(throws: UpgradeError.self) { try upgrader.plan(currentVersion: "2.0") }
        await #expect(throws: UpgradeError.self) { try await upgrader.markStepDone("other") }
        #expect(store.saves.isEmpty)
    }

    @Test("a duplicate id added with register is reported too")
    func duplicateIDRegistered() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        var upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1", id: "same") {}])
        let line = #line + 1
        upgrader.register(UpgradeStep("1.0", id: "same") {})

        let error = await #expect(throws: UpgradeError.self) { try await upgrader.run(currentVersion: "2.0") }
        #expect(error?.code == .duplicateStepID)
        #expect(error?.message.contains("StepDeclarationTests.swift:\(line)") == true)
        #expect(store.saves.isEmpty)
    }

    @Test("giveUpAfter below 1 is an invalid policy, reported before anything runs", arguments: [0, -1, Int.min])
    func invalidGiveUpAfter(limit: Int) async throws {
        let journal = Journal()
        let store = RecordingStore()
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(freshInstall: .runAll, giveUpAfter: limit),
            steps: [journal.step("1.0", id: "a")])

        let error = await #expect(throws: UpgradeError.self) { try await upgrader.run(currentVersion: "1.0") }
        #expect(error?.code == .invalidPolicy)
        #expect(error?.message.contains("\(limit)") == true)
        #expect(journal.ids.isEmpty)
        #expect(store.saves.isEmpty)
        #expect(store.loadCount == 0)
    }

    @Test("giveUpAfter 1 and nil are valid", arguments: [1, 2, nil] as [Int?])
    func validGiveUpAfter(limit: Int?) throws {
        let upgrader = makeUpgrader(store: RecordingStore(), policy: UpgradePolicy(giveUpAfter: limit), steps: [])
        try upgrader.validate()
    }
}
