import Testing
import UpgradeCore
import VersionKit

/// What a test action reports, as the naive pattern's `+ (BOOL)appUpgradeTo_X_Y_Z` methods do.
@Sendable private func check(_ result: Bool) -> Bool { result }

@Sendable private func checkLater(_ result: Bool) async -> Bool {
    await Task.yield()
    return result
}

@Sendable private func checkOrThrow(_ result: Bool) throws -> Bool { result }

private struct Boom: Error {}

@Sendable private func fail() throws -> Bool { throw Boom() }

@Sendable private func work() throws {}

@Sendable private func workLater() async throws { await Task.yield() }

/// A migrator that an app may or may not have, to make optional chains.
private struct Migrator: Sendable {
    let result: Bool
    func run() -> Bool { result }
}

/// One way to declare a step, and the outcome its launch must have.
struct DeclarationForm: Sendable, CustomTestStringConvertible {
    let label: String
    let step: UpgradeStep
    /// `true`: the launch ends `upgraded`; `false`: the launch ends `failed`.
    let succeeds: Bool

    init(_ label: String, _ step: UpgradeStep, succeeds: Bool) {
        self.label = label
        self.step = step
        self.succeeds = succeeds
    }

    var testDescription: String { label }
}

/// Every form of step declaration, each written out as an app writes it (the closure's shape is what
/// overload resolution sees), run through `Upgrader.run`: a `false` (or `nil`) is a failed attempt,
/// `true` and a `Void` action are a success. No form may drop a `Bool`.
@Suite("Step declaration forms: no form drops a false")
struct StepDeclarationFormsTests {
    /// Declared by version: `UpgradeStep("1.0") { ... }` and `UpgradeStep("1.0", id:) { ... }`.
    static let byVersion: [DeclarationForm] = [
        // No context, one line.
        .init("version, one line, Bool call false", UpgradeStep("1.0") { check(false) }, succeeds: false),
        .init("version, one line, Bool call true", UpgradeStep("1.0") { check(true) }, succeeds: true),
        .init("version, one line, literal false", UpgradeStep("1.0") { false }, succeeds: false),
        .init("version, one line, throwing Bool call", UpgradeStep("1.0") { try checkOrThrow(false) }, succeeds: false),
        .init("version, one line, async Bool call", UpgradeStep("1.0") { await checkLater(false) }, succeeds: false),
        .init("version, one line, async Bool call true", UpgradeStep("1.0") { await checkLater(true) }, succeeds: true),
        .init("version, one line, try? Bool call that throws", UpgradeStep("1.0") { try? fail() }, succeeds: false),
        .init(
            "version, one line, optional chain to nil", UpgradeStep("1.0") { Migrator?.none?.run() }, succeeds: false),
        .init(
            "version, one line, optional chain to true",
            UpgradeStep("1.0") { Migrator?.some(Migrator(result: true))?.run() }, succeeds: true),
        .init("version, one line, Void", UpgradeStep("1.0") { try work() }, succeeds: true),
        .init("version, one line, async Void", UpgradeStep("1.0") { try await workLater() }, succeeds: true),
        .init("version, empty", UpgradeStep("1.0") {}, succeeds: true),
        // No context, several lines.
        .init(
            "version, several lines returning false",
            UpgradeStep("1.0") {
                try work()
                return check(false)
            }, succeeds: false),
        .init(
            "version, several lines, async, returning false",
            UpgradeStep("1.0") {
                try await workLater()
                return await checkLater(false)
            }, succeeds: false),
        .init(
            "version, several lines, Void",
            UpgradeStep("1.0") {
                try work()
                try await workLater()
            }, succeeds: true),
        // With the context, one line.
        .init(
            "version, context, one line, Bool call false", UpgradeStep("1.0") { context in check(false) },
            succeeds: false),
        .init("version, _ in, one line, Bool call false", UpgradeStep("1.0") { _ in check(false) }, succeeds: false),
        .init("version, _ in, literal false", UpgradeStep("1.0") { _ in false }, succeeds: false),
        .init(
            "version, context, one line, reads the context",
            UpgradeStep("1.0") { context in context.attempt > 1 }, succeeds: false),
        .init(
            "version, context, one line, async Bool call",
            UpgradeStep("1.0") { context in await checkLater(false) }, succeeds: false),
        .init(
            "version, typed context, async throws, Bool call",
            UpgradeStep("1.0") { (context: UpgradeContext) async throws in try checkOrThrow(false) }, succeeds: false),
        .init(
            "version, context, one line, optional chain to nil",
            UpgradeStep("1.0") { context in Migrator?.none?.run() }, succeeds: false),
        .init("version, context, one line, Void", UpgradeStep("1.0") { context in try work() }, succeeds: true),
        .init("version, _ in, empty", UpgradeStep("1.0") { _ in }, succeeds: true),
        // With the context, several lines.
        .init(
            "version, context, several lines returning false",
            UpgradeStep("1.0") { context in
                try work()
                return context.attempt > 1
            }, succeeds: false),
        .init(
            "version, context, several lines, async, returning false",
            UpgradeStep("1.0") { context in
                try await workLater()
                return await checkLater(context.attempt > 1)
            }, succeeds: false),
        .init(
            "version, context, several lines, Void",
            UpgradeStep("1.0") { context in
                try work()
                if context.attempt > 1 { try await workLater() }
            }, succeeds: true),
        // With an id and a summary.
        .init(
            "version and id, one line, Bool call false",
            UpgradeStep("1.0", id: "check", summary: "checks") { check(false) }, succeeds: false),
        .init(
            "version and id, context, one line, Bool call false",
            UpgradeStep("1.0", id: "check") { context in check(false) }, succeeds: false),
        .init("version and id, Void", UpgradeStep("1.0", id: "work") { try work() }, succeeds: true),
    ]

    /// Declared by the naive pattern's method name: `try UpgradeStep(named: "appUpgradeTo_1_0") { ... }`.
    static let byName: [DeclarationForm] = [
        // No context, one line.
        .init(
            "name, one line, Bool call false", try! UpgradeStep(named: "appUpgradeTo_1_0") { check(false) },
            succeeds: false),
        .init(
            "name, one line, Bool call true", try! UpgradeStep(named: "appUpgradeTo_1_0") { check(true) },
            succeeds: true),
        .init("name, one line, literal false", try! UpgradeStep(named: "appUpgradeTo_1_0") { false }, succeeds: false),
        .init(
            "name, one line, async Bool call",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { await checkLater(false) }, succeeds: false),
        .init(
            "name, one line, try? Bool call that throws",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { try? fail() }, succeeds: false),
        .init("name, one line, Void", try! UpgradeStep(named: "appUpgradeTo_1_0") { try work() }, succeeds: true),
        .init("name, empty", try! UpgradeStep(named: "appUpgradeTo_1_0") {}, succeeds: true),
        // No context, several lines.
        .init(
            "name, several lines returning false",
            try! UpgradeStep(named: "appUpgradeTo_1_0") {
                try work()
                return check(false)
            }, succeeds: false),
        .init(
            "name, several lines, Void",
            try! UpgradeStep(named: "appUpgradeTo_1_0") {
                try work()
                try await workLater()
            }, succeeds: true),
        // With the context, one line: the form the issue found recorded as done.
        .init(
            "name, context, one line, Bool call false",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { context in check(false) }, succeeds: false),
        .init(
            "name, context, one line, Bool call true",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { context in check(true) }, succeeds: true),
        .init("name, _ in, literal false", try! UpgradeStep(named: "appUpgradeTo_1_0") { _ in false }, succeeds: false),
        .init(
            "name, context, one line, async Bool call",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { context in await checkLater(false) }, succeeds: false),
        .init(
            "name, typed context, async throws, Bool call",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { (context: UpgradeContext) async throws in
                try checkOrThrow(false)
            }, succeeds: false),
        .init(
            "name, context, one line, optional chain to nil",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { context in Migrator?.none?.run() }, succeeds: false),
        .init(
            "name, context, one line, Void",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { context in try work() }, succeeds: true),
        .init("name, _ in, empty", try! UpgradeStep(named: "appUpgradeTo_1_0") { _ in }, succeeds: true),
        // With the context, several lines.
        .init(
            "name, context, several lines returning false",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { context in
                try work()
                return context.attempt > 1
            }, succeeds: false),
        .init(
            "name, context, several lines, async, returning false",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { context in
                try await workLater()
                return await checkLater(false)
            }, succeeds: false),
        .init(
            "name, context, several lines, Void",
            try! UpgradeStep(named: "appUpgradeTo_1_0") { context in
                try work()
                if context.attempt > 1 { try await workLater() }
            }, succeeds: true),
    ]

    @Test("a step declared by version reports false as a failed attempt", arguments: byVersion)
    func versionForms(form: DeclarationForm) async throws {
        try await expectOutcome(of: form)
    }

    @Test("a step declared by name reports false as a failed attempt", arguments: byName)
    func nameForms(form: DeclarationForm) async throws {
        try await expectOutcome(of: form)
    }

    @Test("inside the result builder, one-line Bool closures report false too")
    func builderForms() async throws {
        let store = RecordingStore(settledState(at: "0.9"))
        let upgrader = try Upgrader(store: store, policy: UpgradePolicy(giveUpAfter: 1)) {
            UpgradeStep("1.0", id: "a") { check(false) }
            UpgradeStep("1.0", id: "b") { context in check(false) }
            try UpgradeStep(named: "appUpgradeTo_1_0") { check(false) }
            try UpgradeStep(named: "appUpgradeTo_1_0_0") { context in check(false) }
            UpgradeStep("1.0", id: "c") { context in await checkLater(true) }
        }

        let report = try await upgrader.run(currentVersion: "1.0")

        // Each false is a failed attempt, abandoned at once under giveUpAfter 1; the true one finishes.
        #expect(report.abandonedStepIDs == ["a", "b", "appUpgradeTo_1_0", "appUpgradeTo_1_0_0"])
        #expect(report.ranStepIDs == ["a", "b", "appUpgradeTo_1_0", "appUpgradeTo_1_0_0", "c"])
    }

    @Test("a false is recorded as UpgradeStepReturnedFalse naming the step")
    func falseIsNamed() async throws {
        let store = RecordingStore(settledState(at: "1.3"))
        let step = try UpgradeStep(named: "appUpgradeTo_1_4") { context in check(false) }
        let upgrader = makeUpgrader(store: store, steps: [step])

        let report = try await upgrader.run(currentVersion: "1.4")

        #expect(report.outcome == .failed)
        guard case .failed(let error) = try #require(report.failedStep).result else {
            Issue.record("appUpgradeTo_1_4 should have failed")
            return
        }
        #expect(error as? UpgradeStepReturnedFalse == UpgradeStepReturnedFalse(stepID: "appUpgradeTo_1_4"))
        #expect("\(error)" == "step appUpgradeTo_1_4 returned false")
    }

    @Test(
        "a false from a step made a floor names the floor's id",
        arguments: [
            UpgradeStep("1.4") { () async -> Bool in false }.asFloor(),
            UpgradeStep("1.4") { (_: UpgradeContext) async -> Bool in false }.asFloor(),
        ])
    func falseFromFloorIsNamed(floor: UpgradeStep) async throws {
        let upgrader = makeUpgrader(store: RecordingStore(settledState(at: "1.3")), steps: [floor])

        let report = try await upgrader.run(currentVersion: "1.4")

        let failed = try #require(report.failedStep)
        #expect(failed.id == "upgradeFloor_1_4")
        guard case .failed(let error) = failed.result else {
            Issue.record("the floor should have failed")
            return
        }
        #expect(error as? UpgradeStepReturnedFalse == UpgradeStepReturnedFalse(stepID: "upgradeFloor_1_4"))
    }

    @Test("Bool and Bool? results", arguments: [(true, true), (false, false)] as [(Bool, Bool)])
    func results(value: Bool, succeeds: Bool) {
        #expect(value.upgradeStepSucceeded == succeeds)
        #expect(Optional(value).upgradeStepSucceeded == succeeds)
        #expect(Bool?.none.upgradeStepSucceeded == false)
    }

    private func expectOutcome(of form: DeclarationForm) async throws {
        let store = RecordingStore(settledState(at: "0.9"))
        let upgrader = makeUpgrader(store: store, steps: [form.step])

        let report = try await upgrader.run(currentVersion: "1.0")

        #expect(report.outcome == (form.succeeds ? .upgraded : .failed), "\(form.label)")
        #expect(report.ranStepIDs == [form.step.id], "\(form.label)")
        if !form.succeeds {
            let failed = try #require(report.failedStep, "\(form.label)")
            guard case .failed(let error) = failed.result else {
                Issue.record("\(form.label): the step should have failed")
                return
            }
            #expect(error is UpgradeStepReturnedFalse, "\(form.label)")
        }
    }
}
