import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// The floor (the launch algorithm article, "Steps", and ``UpgradeStep/asFloor()``): one action that
/// stands in for every retired step at or below its version.
@Suite("Floor")
struct FloorTests {
    /// A build that retired every step up to 3.0 behind a floor, with two steps above it.
    static func upgrader(
        _ store: RecordingStore, journal: Journal, policy: UpgradePolicy = UpgradePolicy(), floorScript: [Act] = [.ok]
    ) -> Upgrader {
        makeUpgrader(
            store: store, policy: policy,
            steps: [
                journal.step("3.1", id: "late", store: store),
                journal.step("3.0", store: store, script: floorScript).asFloor(),
                journal.step("3.0.5", id: "between", store: store),
            ])
    }

    @Test("the floor's default id is upgradeFloor_ and its version; a given id is kept")
    func ids() {
        #expect(UpgradeStep("3.0") {}.asFloor().id == "upgradeFloor_3_0")
        #expect(UpgradeStep("3.0.1") {}.asFloor().id == "upgradeFloor_3_0_1")
        #expect(UpgradeStep("03.00") {}.asFloor().id == "upgradeFloor_3_0")
        #expect(UpgradeStep("3.0", id: "reset-library") {}.asFloor().id == "reset-library")
        #expect(UpgradeStep("3.0") {}.asFloor().isFloor)
        #expect(!UpgradeStep("3.0") {}.isFloor)
    }

    @Test(
        "the floor is pending exactly as a step of its version: devices from below run it first, devices at or above do not",
        arguments: [
            ("1.0", "3.1", ["upgradeFloor_3_0", "between", "late"]),
            ("2.9.9", "3.0", ["upgradeFloor_3_0"]),
            ("3.0", "3.1", ["between", "late"]),
            ("3.0.5", "3.1", ["late"]),
            ("1.0", "2.0", []),
        ] as [(Version, Version, [String])])
    func pendingAsAStepOfItsVersion(mark: Version, current: Version, ran: [String]) async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: mark))
        let report = try await Self.upgrader(store, journal: journal).run(currentVersion: current)
        #expect(journal.ids == ran)
        #expect(report.ranStepIDs == ran)
        #expect(store.state?.upgradedThrough == max(mark, current))
    }

    @Test("a fresh install runs the floor under runAll and upgradeFrom below it, and not under skip")
    func freshInstall() async throws {
        for (policy, ran) in [
            (UpgradePolicy(freshInstall: .runAll), ["upgradeFloor_3_0", "between", "late"]),
            (UpgradePolicy(freshInstall: .upgradeFrom("2.0")), ["upgradeFloor_3_0", "between", "late"]),
            (UpgradePolicy(freshInstall: .upgradeFrom("3.0")), ["between", "late"]),
            (UpgradePolicy(freshInstall: .skip), []),
        ] {
            let journal = Journal()
            let store = RecordingStore()
            _ = try await Self.upgrader(store, journal: journal, policy: policy).run(currentVersion: "3.1")
            #expect(journal.ids == ran, "\(policy)")
        }
    }

    @Test("the floor is a step in everything else: attempts, inProgress, giveUpAfter, the plan, the report")
    func aStepInEverythingElse() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "2.0"))
        let upgrader = Self.upgrader(
            store, journal: journal, policy: UpgradePolicy(giveUpAfter: 2), floorScript: [.fail, .fail, .ok])
        // The plan names it first, to run.
        let plan = upgrader.plan(loaded: store.state, currentVersion: "3.1")
        #expect(plan.stepsToRun == ["upgradeFloor_3_0", "between", "late"])
        // Attempt 1 fails and stops the launch, like any step; the steps above wait.
        let first = try await upgrader.run(currentVersion: "3.1")
        #expect(first.outcome == .failed)
        #expect(first.failedStep?.id == "upgradeFloor_3_0")
        #expect(store.state?.attempts.map(\.id) == ["upgradeFloor_3_0"])
        #expect(journal.entries.first?.stored?.inProgress?.id == "upgradeFloor_3_0")
        // Attempt 2 fails too: giveUpAfter abandons it, and the others go on.
        let second = try await upgrader.run(currentVersion: "3.1")
        #expect(second.outcome == .upgraded)
        #expect(second.abandonedStepIDs == ["upgradeFloor_3_0"])
        #expect(journal.ids == ["upgradeFloor_3_0", "upgradeFloor_3_0", "between", "late"])
        #expect(store.history().last?.steps.first?.id == "upgradeFloor_3_0")
    }

    @Test("a step at or below the floor is a configuration error, reported before anything runs, naming both")
    func stepAtOrBelowTheFloor() async throws {
        for retired in ["2.0", "3.0"] as [Version] {
            let store = RecordingStore(settledState(at: "1.0"))
            let ran = Locked<[String: Int]>([:])
            let upgrader = makeUpgrader(
                store: store,
                steps: [
                    UpgradeStep("3.0") { _ = ran.increment("floor") }.asFloor(),
                    UpgradeStep(retired, id: "old") { _ = ran.increment("old") },
                ])
            let error = await #expect(throws: UpgradeError.self) { try await upgrader.run(currentVersion: "3.1") }
            #expect(error?.code == .invalidFloor)
            #expect(error?.message.contains("old (\(retired))") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("upgradeFloor_3_0") == true)
            #expect(ran.value.isEmpty)
            #expect(store.saves.isEmpty)
            #expect(throws: UpgradeError.self) { try upgrader.plan(currentVersion: "3.1") }
        }
    }

    @Test("two floors are a configuration error")
    func twoFloors() async throws {
        let upgrader = makeUpgrader(
            store: RecordingStore(),
            steps: [UpgradeStep("3.0") {}.asFloor(), UpgradeStep("4.0") {}.asFloor()])
        let error = #expect(throws: UpgradeError.self) { try upgrader.validate() }
        #expect(error?.code == .invalidFloor)
        #expect(error?.message.contains("two floors") == true)
    }

    @Test("a floor that finished never runs again; the mark passing it drops its entry")
    func finishedFloor() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "2.0"))
        let upgrader = Self.upgrader(store, journal: journal)
        _ = try await upgrader.run(currentVersion: "3.0")
        _ = try await upgrader.run(currentVersion: "3.1")
        _ = try await upgrader.run(currentVersion: "3.1")
        #expect(journal.ids == ["upgradeFloor_3_0", "between", "late"])
    }
}
