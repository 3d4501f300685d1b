import Testing
import UpgradeCore
import VersionKit

/// The read-only plan, `pendingSteps` and `doneSteps`.
@Suite("Plan")
struct PlanTests {
    /// Upgraded through 1.0 with a step of each kind above it; the last process died in f.
    static let state = UpgradeState(
        upgradedThrough: "1.0", lastLaunched: "2.3",
        completed: [StepRecord(id: "c", version: "2.0")],
        abandoned: [StepRecord(id: "d", version: "2.1")],
        attempts: [StepAttempts(id: "e", version: "2.2", failed: 2)],
        inProgress: StepInProgress(id: "f", version: "2.3", attempt: 1))

    func steps(_ journal: Journal) -> [UpgradeStep] {
        [
            journal.step("0.9", id: "a"), journal.step("1.5", id: "b"), journal.step("2.0", id: "c"),
            journal.step("2.1", id: "d"), journal.step("2.2", id: "e"), journal.step("2.3", id: "f"),
            journal.step("3.0", id: "g"),
        ]
    }

    @Test("each disposition, without running or writing anything")
    func dispositions() throws {
        let journal = Journal()
        let store = RecordingStore(Self.state)
        let upgrader = makeUpgrader(store: store, policy: UpgradePolicy(giveUpAfter: 2), steps: steps(journal))

        let plan = try upgrader.plan(currentVersion: "2.5")

        #expect(plan.entries.map(\.step.id) == ["a", "b", "c", "d", "e", "f", "g"])
        #expect(
            plan.entries.map(\.disposition) == [
                .atOrBelowMark, .willRun(attempt: 1, previousAttemptInterrupted: false), .completed, .abandoned,
                .willAbandon(failedAttempts: 2), .willRun(attempt: 2, previousAttemptInterrupted: true),
                .aboveCurrentVersion,
            ])
        #expect(plan.stepsToRun == ["b", "f"])
        #expect(plan.expectedOutcome == .upgraded)
        #expect(plan.upgradedThrough == "1.0")
        #expect(plan.currentVersion == "2.5")
        #expect(!plan.isFreshInstall)
        #expect(plan.description.contains("f (2.3): will run, attempt 2 (the previous attempt was interrupted)"))
        #expect(journal.ids.isEmpty)
        #expect(store.saves.isEmpty)
        #expect(store.lockCount == 0)
        #expect(store.state == Self.state)
    }

    @Test("pendingSteps and doneSteps")
    func pendingAndDone() throws {
        let journal = Journal()
        let upgrader = makeUpgrader(
            store: RecordingStore(Self.state), policy: UpgradePolicy(giveUpAfter: 2), steps: steps(journal))

        #expect(try upgrader.pendingSteps(currentVersion: "2.5").map(\.id) == ["b", "e", "f"])
        #expect(try upgrader.pendingSteps(currentVersion: "0.9").map(\.id) == [])
        #expect(try upgrader.doneSteps().map(\.id) == ["a", "c", "d"])
        #expect(try upgrader.storedState() == Self.state)

        let fresh = makeUpgrader(store: RecordingStore(), steps: steps(journal))
        #expect(try fresh.doneSteps().isEmpty)
        #expect(try fresh.pendingSteps(currentVersion: "2.5").isEmpty)
        #expect(try fresh.storedState() == nil)
    }

    @Test("a fresh install under skip runs nothing; under runAll it runs everything up to C")
    func freshInstall() throws {
        let journal = Journal()
        let skip = try makeUpgrader(store: RecordingStore(), steps: steps(journal)).plan(currentVersion: "2.0")
        #expect(skip.isFreshInstall)
        #expect(skip.expectedOutcome == .freshInstall)
        #expect(skip.upgradedThrough == "2.0")
        #expect(skip.stepsToRun.isEmpty)
        #expect(skip.entries.map(\.disposition).filter { $0 == .skippedByFreshInstall }.count == 3)
        #expect(skip.entries.map(\.disposition).filter { $0 == .aboveCurrentVersion }.count == 4)

        let runAll = try makeUpgrader(
            store: RecordingStore(), policy: UpgradePolicy(freshInstall: .runAll), steps: steps(journal)
        ).plan(currentVersion: "2.0")
        #expect(runAll.stepsToRun == ["a", "b", "c"])
        #expect(runAll.expectedOutcome == .upgraded)

        let adopt = try makeUpgrader(
            store: RecordingStore(), policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0")), steps: steps(journal)
        ).plan(currentVersion: "2.0")
        #expect(adopt.stepsToRun == ["b", "c"])
        #expect(adopt.upgradedThrough == "1.0")
    }

    @Test("a downgrade runs nothing", arguments: [UpgradePolicy.Downgrade.keep, .rewind])
    func downgrade(policy: UpgradePolicy.Downgrade) throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "3.0"))
        let plan = try makeUpgrader(store: store, policy: UpgradePolicy(downgrade: policy), steps: steps(journal))
            .plan(currentVersion: "2.0")

        #expect(plan.expectedOutcome == .downgraded)
        #expect(plan.stepsToRun.isEmpty)
        #expect(plan.entries.map(\.disposition).filter { $0 == .skippedByDowngrade }.count == 3)
        #expect(store.saves.isEmpty)
    }

    @Test("nothing pending: upToDate")
    func upToDate() throws {
        let journal = Journal()
        let plan = try makeUpgrader(store: RecordingStore(settledState(at: "3.0")), steps: steps(journal))
            .plan(currentVersion: "3.0")
        #expect(plan.expectedOutcome == .upToDate)
        #expect(plan.entries.allSatisfy { $0.disposition == .atOrBelowMark })
    }

    @Test("the plan agrees with the launch that follows")
    func planMatchesLaunch() async throws {
        let journal = Journal()
        let store = RecordingStore(Self.state)
        let upgrader = makeUpgrader(store: store, policy: UpgradePolicy(giveUpAfter: 2), steps: steps(journal))
        let plan = try upgrader.plan(currentVersion: "2.5")

        let report = try await upgrader.run(currentVersion: "2.5")

        #expect(report.outcome == plan.expectedOutcome)
        #expect(report.ranStepIDs == plan.stepsToRun)
        #expect(journal.ids == plan.stepsToRun)
        #expect(report.abandonedStepIDs == ["e"])
    }
}
