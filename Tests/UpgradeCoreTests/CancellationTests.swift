import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// Cancels the task that runs the calling code.
func cancelCurrentTask() {
    withUnsafeCurrentTask { $0?.cancel() }
}

/// Cancellation of the surrounding task stops the run before the next step and counts as no attempt.
@Suite("Cancellation")
struct CancellationTests {
    @Test("cancelled between steps: the finished step is recorded, the next does not run")
    func betweenSteps() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [
                UpgradeStep("1.1", id: "a") { cancelCurrentTask() },
                journal.step("1.2", id: "b"),
            ])

        let report = try await Task { try await upgrader.run(currentVersion: "1.2") }.value

        #expect(report.outcome == .cancelled)
        #expect(report.ranStepIDs == ["a"])
        #expect(journal.ids.isEmpty)
        let state = try #require(store.state)
        #expect(state.completed.map(\.id) == ["a"])
        #expect(state.upgradedThrough == "1.0")
        #expect(state.attempts.isEmpty)
        #expect(state.inProgress == nil)
        #expect(store.history().last?.outcome == .cancelled)

        // The next launch picks up where this one stopped.
        let next = try await upgrader.run(currentVersion: "1.2")
        #expect(next.outcome == .upgraded)
        #expect(journal.entries.map { "\($0.id)#\($0.attempt)" } == ["b#1"])
    }

    @Test("cancelled before the launch: no step runs")
    func beforeTheFirstStep() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [journal.step("1.1", id: "a")])

        let report = try await Task {
            cancelCurrentTask()
            return try await upgrader.run(currentVersion: "1.2")
        }.value

        #expect(report.outcome == .cancelled)
        #expect(journal.ids.isEmpty)
        #expect(store.state?.upgradedThrough == "1.0")
        #expect(store.state?.attempts == [])
        #expect(store.saves.allSatisfy { $0.inProgress == nil })
    }

    /// States in which step a (1.1) is pending; the second has already launched at 1.2 and failed once.
    static let pendingStates: [UpgradeState] = [
        settledState(at: "1.0"),
        UpgradeState(
            upgradedThrough: "1.0", lastLaunched: "1.2", attempts: [StepAttempts(id: "a", version: "1.1", failed: 1)]),
    ]

    @Test("cancelled inside a step that throws CancellationError: no attempt is counted", arguments: pendingStates)
    func insideAStep(initial: UpgradeState) async throws {
        let journal = Journal()
        let calls = Locked<[String: Int]>([:])
        let store = RecordingStore(initial)
        let upgrader = makeUpgrader(
            store: store,
            steps: [
                UpgradeStep("1.1", id: "a") { (context: UpgradeContext) in
                    if calls.increment("a") == 1 {
                        cancelCurrentTask()
                        try Task.checkCancellation()
                    }
                    journal.record(
                        Journal.Entry(
                            id: "a", attempt: context.attempt, interrupted: context.previousAttemptInterrupted,
                            stored: nil, act: .ok))
                },
                journal.step("1.2", id: "b"),
            ])

        let report = try await Task { try await upgrader.run(currentVersion: "1.2") }.value

        #expect(report.outcome == .cancelled)
        #expect(journal.ids.isEmpty)
        let state = try #require(store.state)
        #expect(state.inProgress == nil)
        #expect(state.failedAttempts(of: "a") == initial.failedAttempts(of: "a"))
        #expect(state.upgradedThrough == "1.0")

        #expect(state.lastAttemptInterrupted(of: "a"))

        // The next launch makes the same attempt again, told that the one before was interrupted
        // (<doc:LaunchAlgorithm>, "Interruptions").
        let next = try await upgrader.run(currentVersion: "1.2")
        #expect(next.outcome == .upgraded)
        let expectedAttempt = initial.failedAttempts(of: "a") + 1
        #expect(
            journal.entries.map { "\($0.id)#\($0.attempt)\($0.interrupted ? "!" : "")" } == [
                "a#\(expectedAttempt)!", "b#1",
            ])
    }

    @Test("a CancellationError thrown while the task is not cancelled is an ordinary failure")
    func cancellationErrorWithoutCancellation() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1", id: "a") { throw CancellationError() }])

        let report = try await upgrader.run(currentVersion: "1.1")

        #expect(report.outcome == .failed)
        #expect(store.state?.failedAttempts(of: "a") == 1)
    }
}
