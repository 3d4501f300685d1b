import Testing
import UpgradeCore
import VersionKit

/// `Upgrader.runWithProgress(currentVersion:)`: the progress of a launch, as a launch screen shows it.
@Suite("Progress")
struct ProgressTests {
    /// A progress value in short: `handled/total current`, and the outcome at the end.
    static func line(_ progress: UpgradeProgress) -> String {
        var text = "\(progress.handled)/\(progress.total)"
        if let step = progress.currentStep {
            text += " \(step.id)"
            if let summary = step.summary { text += " (\(summary))" }
            if step.attempt > 1 { text += " #\(step.attempt)" }
        }
        if let report = progress.report { text += " \(report.outcome)" }
        return text
    }

    static func collect(_ sequence: UpgradeProgressSequence) async throws -> [UpgradeProgress] {
        var values: [UpgradeProgress] = []
        for try await progress in sequence { values.append(progress) }
        return values
    }

    @Test("a launch yields its pending count, each step as it starts and ends, and the report last")
    func stepByStep() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [
                UpgradeStep("1.0", id: "done") {},
                UpgradeStep("1.1", id: "a", summary: "Move the settings") {},
                UpgradeStep("1.2", id: "b") {},
                UpgradeStep("1.2", id: "c", summary: "Rebuild the index") {},
                UpgradeStep("2.0", id: "later") {},
            ])

        let values = try await Self.collect(upgrader.runWithProgress(currentVersion: "1.2"))

        #expect(
            values.map(Self.line) == [
                "0/3", "0/3 a (Move the settings)", "1/3", "1/3 b", "2/3", "2/3 c (Rebuild the index)", "3/3",
                "3/3 upgraded",
            ])
        let third: Double = 1.0 / 3
        let fractions: [Double] = [0, 0, third, third, 2 * third, 2 * third, 1, 1]
        #expect(values.map(\.fractionCompleted) == fractions)
        #expect(values.dropLast().allSatisfy { !$0.isFinished })
        let last = try #require(values.last)
        #expect(last.isFinished)
        #expect(last.report?.ranStepIDs == ["a", "b", "c"])
        #expect(store.state?.upgradedThrough == "1.2")
        #expect(values[5].description == "2 of 3 steps; running c (Rebuild the index)")
        #expect(last.description.hasPrefix("3 of 3 steps; upgraded 1.0 -> 1.2"))
    }

    @Test("a launch with nothing to do yields one value: nothing pending, and its report")
    func nothingToDo() async throws {
        let store = RecordingStore(settledState(at: "1.2"))
        let upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1") {}])
        let values = try await Self.collect(upgrader.runWithProgress(currentVersion: "1.2"))
        #expect(values.map(Self.line) == ["0/0 upToDate"])
        #expect(values.first?.fractionCompleted == 1)
        #expect(store.lockCount == 0)
    }

    @Test("a failing step ends the launch with the steps after it not handled")
    func failure() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store, steps: [journal.step("1.1", id: "a", script: [.fail]), journal.step("1.2", id: "b")])
        let values = try await Self.collect(upgrader.runWithProgress(currentVersion: "1.2"))
        #expect(values.map(Self.line) == ["0/2", "0/2 a", "0/2 failed"])
        #expect(values.last?.fractionCompleted == 1)
    }

    @Test("a step abandoned under giveUpAfter counts as handled, before it runs or after it fails")
    func abandoned() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "1.0",
                attempts: [
                    StepAttempts(id: "a", version: "1.1", failed: 2), StepAttempts(id: "b", version: "1.2", failed: 1),
                ]))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 2),
            steps: [
                journal.step("1.1", id: "a"), journal.step("1.2", id: "b", script: [.fail]),
                journal.step("1.3", id: "c"),
            ])
        let values = try await Self.collect(upgrader.runWithProgress(currentVersion: "1.3"))
        #expect(values.map(Self.line) == ["0/3", "1/3", "1/3 b #2", "2/3", "2/3 c", "3/3", "3/3 upgraded"])
        #expect(journal.ids == ["b", "c"])
    }

    @Test("a retried step is shown with its attempt")
    func retry() async throws {
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "1.0",
                attempts: [StepAttempts(id: "a", version: "1.1", failed: 1, lastAttemptInterrupted: true)]))
        let upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1", id: "a") {}])
        let values = try await Self.collect(upgrader.runWithProgress(currentVersion: "1.1"))
        #expect(values.map(Self.line) == ["0/1", "0/1 a #2", "1/1", "1/1 upgraded"])
        #expect(values[1].description == "0 of 1 steps; running a, attempt 2")
    }

    @Test("a fresh install under runAll counts every step up to the running version")
    func freshInstall() async throws {
        let store = RecordingStore()
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(freshInstall: .runAll),
            steps: [UpgradeStep("1.0", id: "a") {}, UpgradeStep("1.1", id: "b") {}, UpgradeStep("1.2", id: "c") {}])
        let values = try await Self.collect(upgrader.runWithProgress(currentVersion: "1.1"))
        #expect(values.first.map(Self.line) == "0/2")
        #expect(values.last.map(Self.line) == "2/2 upgraded")
    }

    @Test("the upgrader's own observer still receives every event")
    func observerKept() async throws {
        let events = EventLog()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, events: events, steps: [UpgradeStep("1.1", id: "a") {}])
        _ = try await Self.collect(upgrader.runWithProgress(currentVersion: "1.1"))
        #expect(
            events.lines == [
                "launchWillStart 1.1 mark 1.0", "willStart a #1", "finished a #1", "launchFinished upgraded",
            ])
    }

    @Test("the iteration throws what the launch throws")
    func storeFailure() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        store.failWrite(number: 1)
        let upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1", id: "a") {}])
        var values: [String] = []
        await #expect(throws: StoreFault.self) {
            for try await progress in upgrader.runWithProgress(currentVersion: "1.1") {
                values.append(Self.line(progress))
            }
        }
        #expect(values == ["0/1"])
    }

    @Test("a configuration mistake is thrown before anything runs")
    func configurationMistake() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, policy: UpgradePolicy(giveUpAfter: 0), steps: [])
        await #expect(throws: UpgradeError.self) {
            for try await _ in upgrader.runWithProgress(currentVersion: "1.1") {}
        }
    }

    @Test("leaving the loop cancels the launch before its next step")
    func leavingCancels() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [
                UpgradeStep("1.1", id: "a") {
                    journal.record(.init(id: "a", attempt: 1, interrupted: false, stored: nil, act: .ok))
                    // Runs until the launch is cancelled.
                    while !Task.isCancelled { await Task.yield() }
                },
                journal.step("1.2", id: "b"),
            ])

        for try await progress in upgrader.runWithProgress(currentVersion: "1.2") where progress.currentStep != nil {
            break
        }
        // Maintenance waits for the launch to end, as it holds the same gate.
        try await upgrader.clearFailedAttempts(of: "b")

        #expect(journal.ids == ["a"])
        #expect(store.state?.completed == [StepRecord(id: "a", version: "1.1")])
        #expect(try upgrader.history().last?.outcome == .cancelled)
    }

    @Test("each iteration runs one launch")
    func eachIterationRuns() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1", id: "a") {}])
        let sequence = upgrader.runWithProgress(currentVersion: "1.1")
        #expect(store.loadCount == 0)
        #expect(try await Self.collect(sequence).last.map(Self.line) == "1/1 upgraded")
        #expect(try await Self.collect(sequence).map(Self.line) == ["0/0 upToDate"])
    }
}
