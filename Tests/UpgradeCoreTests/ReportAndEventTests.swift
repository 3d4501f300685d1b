import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// Reports, events delivered to the observer, and the launch history.
@Suite("Reports, events and history")
struct ReportAndEventTests {
    @Test("an upgrader made without a clock times its steps and launches on the continuous clock")
    func continuousClockByDefault() async throws {
        let journal = Journal()
        var registered = Upgrader(store: RecordingStore(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0")))
        registered.register(journal.step("1.1", id: "a"))
        let built = Upgrader(store: RecordingStore(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))) {
            journal.step("1.1", id: "b")
        }
        for upgrader in [registered, built] {
            // A stopwatch on the continuous clock: no duration is negative, and a launch is no shorter
            // than the steps it ran.
            let report = try await upgrader.run(currentVersion: "1.1")
            #expect(report.outcome == .upgraded)
            let step = try #require(report.steps.first)
            #expect(step.duration >= .zero)
            #expect(report.duration >= step.duration)
        }
        #expect(journal.ids == ["a", "b"])
    }

    @Test("a report lists what ran, with attempts, durations from the clock and the error of a failure")
    func reportContents() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "1.5",
                attempts: [StepAttempts(id: "x", version: "1.2", failed: 3)]))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 3), clock: SteppingClock(step: .milliseconds(5)),
            steps: [
                journal.step("1.1", id: "a"), journal.step("1.2", id: "x"),
                journal.step("1.3", id: "b", script: [.fail]),
                journal.step("1.4", id: "c"),
            ])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(report.outcome == .failed)
        #expect(report.currentVersion == "2.0")
        #expect(report.previousVersion == "1.5")
        #expect(report.upgradedThroughBefore == "1.0")
        #expect(report.upgradedThrough == "1.0")
        #expect(report.startedAt == fixedDate)
        #expect(report.steps.map(\.id) == ["a", "x", "b"])
        #expect(report.ranStepIDs == ["a", "b"])
        #expect(report.abandonedStepIDs == ["x"])
        #expect(report.steps.map(\.attempt) == [1, 3, 1])
        #expect(report.steps.map(\.result.kind) == [.completed, .notRun, .failed])
        // Each action's duration is one step of the stepping clock; an abandoned step took none.
        #expect(report.steps.map(\.duration) == [.milliseconds(5), .zero, .milliseconds(5)])
        #expect(report.duration > .milliseconds(10))
        let failed = try #require(report.failedStep)
        #expect(failed.id == "b")
        guard case .failed(let error) = failed.result else {
            Issue.record("b should have failed")
            return
        }
        #expect(error as? StepFailure == StepFailure(stepID: "b", attempt: 1))
        #expect(report.description.contains("failed 1.5 -> 2.0: ran a, b; abandoned x; b failed on attempt 1"))

        // The same launch in the stored history.
        let record = try #require(store.history().last)
        #expect(record.time == fixedDate.timeIntervalSince1970)
        #expect(record.date == fixedDate)
        #expect(record.from == "1.5")
        #expect(record.to == "2.0")
        #expect(record.outcome == .failed)
        #expect(
            record.steps == [
                LaunchRecord.RecordedStep(id: "a", attempt: 1, result: .completed, abandoned: false, milliseconds: 5),
                LaunchRecord.RecordedStep(id: "x", attempt: 3, result: .notRun, abandoned: true, milliseconds: 0),
                LaunchRecord.RecordedStep(id: "b", attempt: 1, result: .failed, abandoned: false, milliseconds: 5),
            ])
    }

    @Test("events arrive in order: launch, each step, the end")
    func eventSequence() async throws {
        let journal = Journal()
        let events = EventLog()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "1.5",
                attempts: [StepAttempts(id: "x", version: "1.2", failed: 2)],
                inProgress: StepInProgress(id: "y", version: "1.2.5", attempt: 1)))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 2), events: events,
            steps: [
                journal.step("1.1", id: "a"), journal.step("1.2", id: "x"), journal.step("1.2.5", id: "y"),
                journal.step("1.3", id: "b", script: [.fail, .fail, .ok]), journal.step("1.4", id: "c"),
            ])

        _ = try await upgrader.run(currentVersion: "2.0")
        #expect(
            events.lines == [
                "launchWillStart 2.0 mark 1.0",
                "willStart a #1", "finished a #1",
                "abandoned x after 2",
                "willStart y #2 interrupted", "finished y #2",
                "willStart b #1", "failed b #1 willRetry",
                "launchFinished failed",
            ])

        events.reset()
        _ = try await upgrader.run(currentVersion: "2.0")
        #expect(
            events.lines == [
                "launchWillStart 2.0 mark 1.0",
                "willStart b #2", "failed b #2",
                "abandoned b after 2",
                "willStart c #1", "finished c #1",
                "launchFinished upgraded",
            ])
        guard case .launchFinished(let report) = events.events.last else {
            Issue.record("the last event should be launchFinished")
            return
        }
        #expect(report.upgradedThrough == "2.0")

        events.reset()
        _ = try await upgrader.run(currentVersion: "2.0")
        #expect(events.lines == ["launchFinished upToDate"])
    }

    @Test("the history keeps the last 50 launches")
    func historyBounded() async throws {
        let store = RecordingStore()
        let upgrader = makeUpgrader(store: store, steps: [])

        for minor in 0..<60 {
            _ = try await upgrader.run(currentVersion: Version(major: 1, minor: minor))
        }

        let history = store.history()
        #expect(LaunchRecord.historyLimit == 50)
        #expect(history.count == 50)
        #expect(history.first?.to == Version(major: 1, minor: 10))
        #expect(history.last?.to == Version(major: 1, minor: 59))
        #expect(history.last?.from == Version(major: 1, minor: 58))
        #expect(store.savesWithRecord.first == true)
    }

    @Test("a launch that writes nothing adds no history record")
    func quietLaunchAddsNoHistory() async throws {
        let store = RecordingStore()
        let upgrader = makeUpgrader(store: store, steps: [])
        _ = try await upgrader.run(currentVersion: "1.0")
        _ = try await upgrader.run(currentVersion: "1.0")
        #expect(store.history().count == 1)
        #expect(store.saves.count == 1)
    }
}

extension ReportAndEventTests {
    @Test("the history records a launch's time to the millisecond and each step's duration to the microsecond")
    func recordedPrecision() async throws {
        let journal = Journal()
        let store = RecordingStore(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
        var upgrader = makeUpgrader(
            store: store, clock: SteppingClock(step: .nanoseconds(1_234_567)),
            steps: [journal.step("1.1", id: "a"), journal.step("1.2", id: "b")])
        upgrader.now = { Date(timeIntervalSince1970: 1_800_000_000.123_456) }

        let report = try await upgrader.run(currentVersion: "2.0")

        // The report keeps the clock's durations; the record, the thousandths the history writes.
        #expect(report.steps.map(\.duration) == [.nanoseconds(1_234_567), .nanoseconds(1_234_567)])
        let record = try #require(store.history().last)
        #expect(record.time == 1_800_000_000.123)
        #expect(record.steps.map(\.milliseconds) == [1.235, 1.235])
    }
}

extension ReportAndEventTests {
    @Test("a time too large to have thousandths is recorded as it is")
    func recordedHugeTime() async throws {
        let store = RecordingStore(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
        var upgrader = makeUpgrader(store: store, steps: [Journal().step("1.1", id: "a")])
        for time in [1e306, 0x1p52, -1e20, 4_503_599_627_370.5] {
            upgrader.now = { Date(timeIntervalSince1970: time) }
            try store.removeAll()
            try store.save(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
            _ = try await upgrader.run(currentVersion: "2.0")
            #expect(try #require(store.history().last).time == time)
        }
    }

    @Test("an upgrader's default wall clock is the system's: a launch starts between the times read around it")
    func systemWallClockByDefault() async throws {
        let upgrader = Upgrader(store: RecordingStore(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0")))
        let before = Date()
        let report = try await upgrader.run(currentVersion: "1.0")
        let after = Date()
        // Read from the same clock through another path: within a microsecond of the times around it.
        #expect(report.startedAt.timeIntervalSince(before) > -1e-6)
        #expect(after.timeIntervalSince(report.startedAt) > -1e-6)
        #expect(abs(upgrader.now().timeIntervalSinceNow) < 1)
    }
}
