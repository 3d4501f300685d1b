import Testing
import UpgradeCore
import VersionKit

/// Rule 4: each pending step, with its writes, failures and abandonment.
@Suite("Rule 4: running steps")
struct StepRunTests {
    @Test("inProgress is stored before a step runs, and each completion is stored before the next step")
    func writesAroundEachStep() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [journal.step("1.5", id: "a", store: store), journal.step("2.0", id: "b", store: store)])

        _ = try await upgrader.run(currentVersion: "2.0")

        let seenByA = try #require(journal.entries[0].stored)
        #expect(seenByA.inProgress == StepInProgress(id: "a", version: "1.5", attempt: 1))
        #expect(seenByA.lastLaunched == "2.0")
        let seenByB = try #require(journal.entries[1].stored)
        #expect(seenByB.inProgress == StepInProgress(id: "b", version: "2.0", attempt: 1))
        #expect(seenByB.completed == [StepRecord(id: "a", version: "1.5")])

        // Exactly, with merged writes: in progress a; a done with b in progress; b done with the end of
        // the launch (rule 5), which drops the entries the new mark covers. Two steps, three writes.
        let saves = store.saves
        #expect(saves.map(\.inProgress?.id) == ["a", "b", nil])
        #expect(saves.map { $0.completed.map(\.id) } == [[], ["a"], []])
        #expect(saves.map(\.upgradedThrough) == ["1.0", "1.0", "2.0"])
        #expect(store.savesWithRecord == [false, false, true])
    }

    @Test("a failure stops the launch: later steps do not run and the mark does not move")
    func stopOnFailure() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [
                journal.step("1.1", id: "a"), journal.step("1.2", id: "b", script: [.fail, .ok]),
                journal.step("1.3", id: "c"),
            ])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(report.outcome == .failed)
        #expect(journal.ids == ["a", "b"])
        #expect(report.upgradedThrough == "1.0")
        let state = try #require(store.state)
        #expect(state.upgradedThrough == "1.0")
        #expect(state.lastLaunched == "2.0")
        #expect(state.completed.map(\.id) == ["a"])
        #expect(state.attempts == [StepAttempts(id: "b", version: "1.2", failed: 1)])
        #expect(state.inProgress == nil)

        journal.reset()
        let retry = try await upgrader.run(currentVersion: "2.0")
        #expect(retry.outcome == .upgraded)
        #expect(journal.entries.map { "\($0.id)#\($0.attempt)" } == ["b#2", "c#1"])
        #expect(store.state?.upgradedThrough == "2.0")
        #expect(store.state?.attempts == [])
    }

    static let falseReturningSteps: [UpgradeStep] = [
        UpgradeStep("1.1") { false },
        UpgradeStep("1.1") { (_: UpgradeContext) in false },
        UpgradeStep("1.1") { () async throws -> Bool in false },
        try! UpgradeStep(named: "appUpgradeTo_1_1") { false },
    ]

    @Test("a Bool-returning action that returns false is a failure", arguments: falseReturningSteps)
    func falseIsFailure(step: UpgradeStep) async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [step])

        let report = try await upgrader.run(currentVersion: "1.1")

        #expect(report.outcome == .failed)
        let failed = try #require(report.failedStep)
        guard case .failed(let error) = failed.result else {
            Issue.record("expected a failure, got \(failed.result)")
            return
        }
        #expect(error as? UpgradeStepReturnedFalse == UpgradeStepReturnedFalse(stepID: "appUpgradeTo_1_1"))
        #expect(store.state?.attempts.first?.failed == 1)
    }

    @Test("a Bool-returning action that returns true is a success")
    func trueIsSuccess() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [UpgradeStep("1.1") { true }, UpgradeStep("1.2") { (_: UpgradeContext) in true }])
        #expect(try await upgrader.run(currentVersion: "1.2").outcome == .upgraded)
    }

    @Test("giveUpAfter: a step that keeps failing is abandoned at the n-th failure and the launch goes on")
    func giveUpAfterFailures() async throws {
        let journal = Journal()
        let events = EventLog()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 2), events: events,
            steps: [journal.step("1.1", id: "a", script: [.fail]), journal.step("1.2", id: "b")])

        let first = try await upgrader.run(currentVersion: "1.2")
        #expect(first.outcome == .failed)
        #expect(first.abandonedStepIDs.isEmpty)
        #expect(journal.ids == ["a"])

        let second = try await upgrader.run(currentVersion: "1.2")
        #expect(second.outcome == .upgraded)
        #expect(second.ranStepIDs == ["a", "b"])
        #expect(second.abandonedStepIDs == ["a"])
        #expect(second.steps[0].attempt == 2)
        #expect(journal.ids == ["a", "a", "b"])
        // The abandonment was written before b ran.
        let abandonedWrite = store.saves.first { !$0.abandoned.isEmpty }
        #expect(abandonedWrite?.abandoned == [StepRecord(id: "a", version: "1.1")])
        #expect(abandonedWrite?.attempts == [])
        #expect(store.state?.upgradedThrough == "1.2")
        #expect(events.lines.contains("failed a #2"))
        #expect(events.lines.contains("abandoned a after 2"))

        // Abandoned means done: a later launch does not run it.
        _ = try await upgrader.run(currentVersion: "1.3")
        #expect(journal.ids == ["a", "a", "b"])
    }

    @Test("giveUpAfter 1 abandons at the first failure")
    func giveUpAfterOne() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 1),
            steps: [journal.step("1.1", id: "a", script: [.fail]), journal.step("1.2", id: "b")])

        let report = try await upgrader.run(currentVersion: "1.2")
        #expect(report.outcome == .upgraded)
        #expect(report.abandonedStepIDs == ["a"])
        #expect(journal.ids == ["a", "b"])
    }

    @Test("giveUpAfter: a crash loop ends with the step abandoned without running")
    func giveUpAfterCrashLoop() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 3),
            steps: [journal.step("1.1", id: "a", store: store, script: [.crash]), journal.step("1.2", id: "b")])

        for _ in 1...3 {
            await #expect(throws: StoreFault.self) { try await upgrader.run(currentVersion: "1.2") }
            store.revive()
        }
        #expect(journal.entries.map(\.attempt) == [1, 2, 3])
        #expect(journal.entries.map(\.interrupted) == [false, true, true])
        #expect(store.state?.inProgress == StepInProgress(id: "a", version: "1.1", attempt: 3))

        let report = try await upgrader.run(currentVersion: "1.2")
        #expect(report.outcome == .upgraded)
        #expect(journal.ids == ["a", "a", "a", "b"])
        let abandoned = try #require(report.steps.first)
        #expect(abandoned.id == "a")
        #expect(!abandoned.ran)
        #expect(abandoned.abandoned)
        #expect(abandoned.attempt == 3)
        #expect(abandoned.previousAttemptInterrupted)
        #expect(report.ranStepIDs == ["b"])
    }

    @Test("a step whose stored attempts already reach giveUpAfter is abandoned without running")
    func abandonedBeforeRunning() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "1.2",
                attempts: [StepAttempts(id: "a", version: "1.1", failed: 5)]))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 4),
            steps: [journal.step("1.1", id: "a"), journal.step("1.2", id: "b")])

        let report = try await upgrader.run(currentVersion: "1.2")

        #expect(journal.ids == ["b"])
        #expect(report.abandonedStepIDs == ["a"])
        #expect(store.saves.first?.abandoned == [StepRecord(id: "a", version: "1.1")])
        #expect(store.saves.first?.attempts == [])
    }

    @Test("without giveUpAfter a failing step is retried at every launch, forever")
    func neverGiveUp() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [journal.step("1.1", id: "a", script: [.fail])])
        for _ in 1...5 { #expect(try await upgrader.run(currentVersion: "1.1").outcome == .failed) }
        #expect(journal.entries.map(\.attempt) == [1, 2, 3, 4, 5])
        #expect(store.state?.attempts.first?.failed == 5)
    }
}
