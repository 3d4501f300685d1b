import Testing
import UpgradeCore
import VersionKit

/// Rule 0: a stored `inProgress` record means the last process died inside that attempt.
@Suite("Rule 0: interrupted attempts")
struct InterruptedAttemptTests {
    @Test("a stored inProgress becomes the step's attempt count and the step is told it was interrupted")
    func storedInProgressIsDetected() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "2.0",
                attempts: [StepAttempts(id: "b", version: "1.6", failed: 1)],
                inProgress: StepInProgress(id: "b", version: "1.6", attempt: 2)))
        let upgrader = makeUpgrader(
            store: store,
            steps: [journal.step("1.5", id: "a", store: store), journal.step("1.6", id: "b", store: store)])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(report.outcome == .upgraded)
        let runs = journal.entries.map { "\($0.id) #\($0.attempt)\($0.interrupted ? " interrupted" : "")" }
        #expect(runs == ["a #1", "b #3 interrupted"])
        // Before b ran again, the store held attempts[b] = 2 (rule 0), then b's new attempt in progress.
        let beforeB = try #require(journal.entries.last?.stored)
        #expect(beforeB.inProgress == StepInProgress(id: "b", version: "1.6", attempt: 3))
        #expect(beforeB.failedAttempts(of: "b") == 2)
        #expect(report.steps.map(\.previousAttemptInterrupted) == [false, true])
    }

    @Test("a crash leaves inProgress stored; the next launch retries with the next attempt number")
    func crashThenRetry() async throws {
        let journal = Journal()
        let store = RecordingStore()
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(freshInstall: .runAll),
            steps: [
                journal.step("1.0", id: "a", store: store),
                journal.step("1.1", id: "b", store: store, script: [.crash, .ok]),
                journal.step("1.2", id: "c", store: store),
            ])

        await #expect(throws: StoreFault.self) { try await upgrader.run(currentVersion: "1.2") }
        #expect(store.state?.inProgress == StepInProgress(id: "b", version: "1.1", attempt: 1))
        #expect(store.state?.completed.map(\.id) == ["a"])
        #expect(journal.ids == ["a", "b"])

        store.revive()
        journal.reset()
        let plan = try upgrader.plan(currentVersion: "1.2")
        #expect(plan.entries.map(\.disposition)[1] == .willRun(attempt: 2, previousAttemptInterrupted: true))

        let report = try await upgrader.run(currentVersion: "1.2")
        #expect(report.outcome == .upgraded)
        #expect(journal.entries.map(\.id) == ["b", "c"])
        #expect(journal.entries.map(\.attempt) == [2, 1])
        #expect(journal.entries.map(\.interrupted) == [true, false])
        #expect(store.state?.inProgress == nil)
        #expect(store.state?.attempts == [])
    }

    @Test("an interrupted step that does not run in the next launch keeps its attempt count")
    func interruptedStepNotPending() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "3.0",
                inProgress: StepInProgress(id: "c", version: "3.0", attempt: 1)))
        let upgrader = makeUpgrader(store: store, steps: [journal.step("3.0", id: "c", store: store)])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(report.outcome == .upToDate)
        #expect(journal.ids.isEmpty)
        let state = try #require(store.state)
        #expect(state.inProgress == nil)
        #expect(state.attempts == [StepAttempts(id: "c", version: "3.0", failed: 1, lastAttemptInterrupted: true)])
        #expect(state.upgradedThrough == "2.0")

        // When it runs at last, a launch later, it is still told that its previous attempt died (rule 0).
        let later = try await upgrader.run(currentVersion: "3.0")
        #expect(later.outcome == .upgraded)
        #expect(later.steps.map(\.attempt) == [2])
        #expect(later.steps.map(\.previousAttemptInterrupted) == [true])
    }

    @Test("a failure after an interrupted attempt clears the flag: the attempt after it was not interrupted")
    func failureClearsInterruption() async throws {
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "2.0",
                inProgress: StepInProgress(id: "c", version: "2.0", attempt: 1)))
        let journal = Journal()
        let upgrader = makeUpgrader(
            store: store, steps: [journal.step("2.0", id: "c", store: store, script: [.ok, .fail, .ok])])
        _ = try await upgrader.run(currentVersion: "2.0")
        #expect(store.state?.attempts == [StepAttempts(id: "c", version: "2.0", failed: 2)])
        _ = try await upgrader.run(currentVersion: "2.0")
        #expect(journal.entries.map(\.attempt) == [2, 3])
        #expect(journal.entries.map(\.interrupted) == [true, false])
    }

    @Test("an interrupted attempt after a failed one counts both")
    func failureThenCrashThenRetry() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store, steps: [journal.step("2.0", id: "a", store: store, script: [.fail, .crash, .ok])])

        #expect(try await upgrader.run(currentVersion: "2.0").outcome == .failed)
        await #expect(throws: StoreFault.self) { try await upgrader.run(currentVersion: "2.0") }
        store.revive()
        #expect(try await upgrader.run(currentVersion: "2.0").outcome == .upgraded)

        #expect(journal.entries.map(\.attempt) == [1, 2, 3])
        #expect(journal.entries.map(\.interrupted) == [false, false, true])
    }
}
