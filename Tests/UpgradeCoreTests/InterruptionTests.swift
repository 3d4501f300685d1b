import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// What a step that interrupts its own launch saw when `interruptLaunch()` returned.
struct InterruptionSeen: Sendable {
    var interrupted: Bool
    var stored: UpgradeState?
    var locked: Bool
    var cancelled: Bool
}

/// Interruptions are not attempts, and no lock is held after one (<doc:LaunchAlgorithm>,
/// "Interruptions" and "Suspension"), through `Upgrader.interruptLaunch()`, the app's expiry path.
@Suite("Interruptions")
struct InterruptionTests {
    /// What the step does after its launch was interrupted.
    enum Ending: String, CaseIterable, Sendable {
        /// Throws `CancellationError`, as a step that checks cancellation does.
        case throwsCancellation
        /// Throws another error: still not a failure, since the launch was interrupted.
        case fails
        /// Finishes its work anyway.
        case finishes
    }

    /// An upgrader whose step `a` (1.1), on the runs listed (the first is 1), interrupts its own
    /// launch and then ends as `ending` says; `b` (1.2) follows.
    func makeInterrupting(
        store: RecordingStore, journal: Journal, probe: Locked<[InterruptionSeen]>, ending: Ending,
        onRuns: Set<Int> = [1], policy: UpgradePolicy = UpgradePolicy(),
        afterInterrupt: @escaping @Sendable () -> Void = {}
    ) -> Upgrader {
        let box = Locked<Upgrader?>(nil)
        let runs = Locked<[String: Int]>([:])
        let upgrader = makeUpgrader(
            store: store, policy: policy,
            steps: [
                UpgradeStep("1.1", id: "a") { (context: UpgradeContext) in
                    journal.record(
                        Journal.Entry(
                            id: "a", attempt: context.attempt, interrupted: context.previousAttemptInterrupted,
                            stored: nil, act: .ok))
                    // The last run that interrupts takes the upgrader out of the box: the upgrader holds its
                    // steps, which hold the box, and the cycle must end for nothing to leak.
                    let run = runs.increment("a")
                    guard onRuns.contains(run) else { return }
                    let upgrader = run == onRuns.max() ? box.exchange(nil) : box.value
                    let interrupted = upgrader!.interruptLaunch()
                    // Everything below runs after the expiry handler returned: a suspended process
                    // would be frozen here, and may be killed.
                    probe.append(
                        InterruptionSeen(
                            interrupted: interrupted, stored: store.state, locked: store.isLocked,
                            cancelled: Task.isCancelled))
                    afterInterrupt()
                    switch ending {
                    case .throwsCancellation: try Task.checkCancellation()
                    case .fails: throw StepFailure(stepID: "a", attempt: context.attempt)
                    case .finishes: return
                    }
                },
                journal.step("1.2", id: "b"),
            ])
        box.value = upgrader
        return upgrader
    }

    @Test(
        "an interruption inside a step writes it as not counted and gives the lock up before it returns",
        arguments: Ending.allCases)
    func interruptionInsideAStep(ending: Ending) async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let journal = Journal()
        let probe = Locked<[InterruptionSeen]>([])
        let upgrader = makeInterrupting(store: store, journal: journal, probe: probe, ending: ending)

        let report = try await upgrader.run(currentVersion: "1.2")

        let seen = try #require(probe.value.first)
        #expect(seen.interrupted)
        #expect(seen.cancelled)
        #expect(!seen.locked)
        let written = try #require(seen.stored)
        #expect(written.inProgress == nil)
        #expect(written.attempts == [StepAttempts(id: "a", version: "1.1", failed: 0, lastAttemptInterrupted: true)])

        #expect(report.outcome == .cancelled)
        #expect(report.ranStepIDs == ["a"])
        #expect(journal.ids == ["a"])
        #expect(!store.isLocked)
        let state = try #require(store.state)
        #expect(state.upgradedThrough == "1.0")
        if ending == .finishes {
            // The launch went on: it took the lock again, found the state unchanged, and recorded the step.
            #expect(report.steps.first?.result.kind == .completed)
            #expect(state.completed.map(\.id) == ["a"])
            #expect(state.attempts.isEmpty)
        } else {
            #expect(report.steps.first?.result.kind == .interrupted)
            #expect(state == written)
            #expect(report.description.contains("a (interrupted, not counted)"))
        }
        // A launch that went on and recorded its step adds its record; one whose interruption wrote
        // its last state adds none, as a killed launch adds none.
        #expect(store.history().map(\.outcome) == (ending == .finishes ? [.cancelled] : []))

        // The next launch: the same attempt number, told that the one before was interrupted.
        journal.reset()
        let next = try await upgrader.run(currentVersion: "1.2")
        #expect(next.outcome == .upgraded)
        let expected = ending == .finishes ? ["b#1"] : ["a#1!", "b#1"]
        #expect(journal.entries.map { "\($0.id)#\($0.attempt)\($0.interrupted ? "!" : "")" } == expected)
    }

    @Test("a process killed after the interruption counts no attempt at the next launch")
    func killedAfterInterruption() async throws {
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "1.2",
                attempts: [StepAttempts(id: "a", version: "1.1", failed: 1)]))
        let journal = Journal()
        let probe = Locked<[InterruptionSeen]>([])
        // After the expiry handler returned, the process is killed: nothing more is written.
        let upgrader = makeInterrupting(
            store: store, journal: journal, probe: probe, ending: .finishes, onRuns: [1],
            policy: UpgradePolicy(giveUpAfter: 2), afterInterrupt: { store.die() })

        _ = try? await upgrader.run(currentVersion: "1.2")
        store.revive()
        #expect(
            store.state?.attempts == [StepAttempts(id: "a", version: "1.1", failed: 1, lastAttemptInterrupted: true)])
        #expect(store.state?.inProgress == nil)

        journal.reset()
        let next = try await upgrader.run(currentVersion: "1.2")
        #expect(next.outcome == .upgraded)
        #expect(next.abandonedStepIDs.isEmpty)
        #expect(journal.entries.map { "\($0.id)#\($0.attempt)\($0.interrupted ? "!" : "")" } == ["a#2!", "b#1"])
    }

    @Test("interruptions never bring a step to giveUpAfter", arguments: [1, 2])
    func interruptionsDoNotAbandon(limit: Int) async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let journal = Journal()
        let probe = Locked<[InterruptionSeen]>([])
        let upgrader = makeInterrupting(
            store: store, journal: journal, probe: probe, ending: .throwsCancellation, onRuns: [1, 2, 3],
            policy: UpgradePolicy(giveUpAfter: limit))
        // The step is interrupted at each of three launches (its attempt stays 1), then runs.
        for _ in 0..<3 {
            let report = try await upgrader.run(currentVersion: "1.2")
            #expect(report.outcome == .cancelled)
            #expect(report.abandonedStepIDs.isEmpty)
            #expect(store.state?.failedAttempts(of: "a") == 0)
        }
        #expect(journal.entries.map(\.attempt) == [1, 1, 1])
        #expect(probe.value.count == 3)
        let last = try await upgrader.run(currentVersion: "1.2")
        #expect(last.outcome == .upgraded)
        #expect(last.abandonedStepIDs.isEmpty)
        #expect(journal.entries.map { "\($0.id)#\($0.attempt)" } == ["a#1", "a#1", "a#1", "a#1", "b#1"])
    }

    @Test("a launch that goes on after its interruption writes nothing if another launch changed the state")
    func changedMeanwhile() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let journal = Journal()
        let probe = Locked<[InterruptionSeen]>([])
        // Another launch (here: a write through the store, with the lock free) changes the state.
        let other = UpgradeState(upgradedThrough: "1.2", lastLaunched: "1.2")
        let upgrader = makeInterrupting(
            store: store, journal: journal, probe: probe, ending: .finishes,
            afterInterrupt: { try? store.save(other) })

        let report = try await upgrader.run(currentVersion: "1.2")

        #expect(report.outcome == .cancelled)
        #expect(store.state == other)
        #expect(report.notices.contains { $0.contains("another launch changed the state") })
        #expect(!store.isLocked)
    }

    @Test("an interruption between steps writes the finished step, gives the lock up, and runs no further step")
    func betweenSteps() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let journal = Journal()
        let box = Locked<Upgrader?>(nil)
        let locked = Locked<[InterruptionSeen]>([])
        var upgrader = makeUpgrader(store: store, steps: [journal.step("1.1", id: "a"), journal.step("1.2", id: "b")])
        // The expiry comes as the first step has finished, before the write that announces the next.
        upgrader.observer = { event in
            guard case .stepFinished(let context, _) = event, context.stepID == "a" else { return }
            let interrupted = box.exchange(nil)!.interruptLaunch()
            locked.append(
                InterruptionSeen(
                    interrupted: interrupted, stored: store.state, locked: store.isLocked, cancelled: false))
        }
        box.value = upgrader

        let report = try await upgrader.run(currentVersion: "1.2")

        let seen = try #require(locked.value.first)
        #expect(seen.interrupted)
        #expect(!seen.locked)
        #expect(seen.stored?.completed.map(\.id) == ["a"])
        #expect(seen.stored?.inProgress == nil)
        #expect(report.outcome == .cancelled)
        #expect(journal.ids == ["a"])
        #expect(store.state == seen.stored)
        #expect(store.saves.allSatisfy { $0.inProgress?.id != "b" })
    }

    @Test("interruptLaunch with no launch running does nothing")
    func nothingRunning() {
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [])
        #expect(!upgrader.interruptLaunch())
        #expect(store.saves.isEmpty)
    }

    @Test("a step that says not now: no attempt, the launch ends deferred naming it, nothing after it runs")
    func notNow() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let journal = Journal()
        let calls = Locked<[String: Int]>([:])
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 1),
            steps: [
                UpgradeStep("1.1", id: "a") { (context: UpgradeContext) in
                    journal.record(
                        Journal.Entry(
                            id: "a", attempt: context.attempt, interrupted: context.previousAttemptInterrupted,
                            stored: nil, act: .ok))
                    if calls.increment("a") <= 3 { throw UpgradeStepNotNow(reason: "no network") }
                },
                journal.step("1.2", id: "b"),
            ])
        for _ in 0..<3 {
            let report = try await upgrader.run(currentVersion: "1.2")
            #expect(report.outcome == .deferred)
            #expect(report.deferral == .stepNotNow(stepID: "a", reason: "no network"))
            #expect(report.ranStepIDs == ["a"])
            #expect(report.steps.first?.result.kind == .notNow)
            #expect(report.description.contains("step a said not now: no network"))
            let state = try #require(store.state)
            #expect(state.attempts.isEmpty)
            #expect(state.inProgress == nil)
            #expect(state.upgradedThrough == "1.0")
        }
        let last = try await upgrader.run(currentVersion: "1.2")
        #expect(last.outcome == .upgraded)
        #expect(last.deferral == nil)
        #expect(journal.entries.map { "\($0.id)#\($0.attempt)" } == ["a#1", "a#1", "a#1", "a#1", "b#1"])
    }
}

/// The in-memory launch of the explorer models the device's conditions with the same machine
/// (<doc:LaunchAlgorithm>, "Protected data" and "Interruptions").
@Suite("Device conditions in the in-memory launch")
struct InMemoryConditionsTests {
    let upgrader = Upgrader(store: RecordingStore(), policy: UpgradePolicy(giveUpAfter: 1)) {
        UpgradeStep("1.1", id: "a") {}
        UpgradeStep("1.2", id: "b") {}
    }

    @Test(
        "a locked launch decides nothing, runs nothing and writes nothing", arguments: [nil, settledState(at: "1.0")])
    func locked(state: UpgradeState?) throws {
        var launch = Upgrader.InMemoryLaunch()
        let stored = try upgrader.launchInMemory(state: state, at: "1.2", locked: true, into: &launch) { _, _ in .ok }
        #expect(stored == nil)
        #expect(launch.outcome == .deferred)
        #expect(!launch.wrote)
        #expect(launch.ran.isEmpty)
        #expect(launch.upgradedThrough == state?.upgradedThrough)
    }

    @Test("an expiry inside a step: cancelled, written as not counted, and never abandoned")
    func expire() throws {
        var launch = Upgrader.InMemoryLaunch()
        var state: UpgradeState? = settledState(at: "1.0")
        for _ in 0..<3 {
            state = try upgrader.launchInMemory(state: state, at: "1.2", locked: false, into: &launch) {
                index, context in
                #expect(context.attempt == 1)
                return index == 0 ? .expire : .ok
            }
            #expect(launch.outcome == .cancelled)
            #expect(launch.wrote)
            #expect(launch.ran == [0])
            #expect(launch.abandoned.isEmpty)
            #expect(state?.inProgress == nil)
            #expect(state?.attempts == [StepAttempts(id: "a", version: "1.1", failed: 0, lastAttemptInterrupted: true)])
        }
        var contexts: [UpgradeContext] = []
        state = try upgrader.launchInMemory(state: state, at: "1.2", into: &launch) { _, context in
            contexts.append(context)
            return .ok
        }
        #expect(launch.outcome == .upgraded)
        #expect(contexts.map(\.attempt) == [1, 1])
        #expect(contexts.map(\.previousAttemptInterrupted) == [true, false])
    }

    @Test("a crash still counts its attempt: giveUpAfter 1 abandons the step at the next launch")
    func crashCounts() throws {
        var launch = Upgrader.InMemoryLaunch()
        var state = try upgrader.launchInMemory(state: settledState(at: "1.0"), at: "1.2", into: &launch) { _, _ in
            .crash
        }
        state = try upgrader.launchInMemory(state: state, at: "1.2", into: &launch) { _, _ in .ok }
        #expect(launch.abandoned == [0])
        #expect(state?.upgradedThrough == "1.2")
    }

    @Test("not now: deferred, no attempt counted")
    func notNow() throws {
        var launch = Upgrader.InMemoryLaunch()
        let state = try upgrader.launchInMemory(state: settledState(at: "1.0"), at: "1.2", into: &launch) { _, _ in
            .notNow
        }
        #expect(launch.outcome == .deferred)
        #expect(launch.ran == [0])
        #expect(state?.attempts == [])
        #expect(state?.inProgress == nil)
        #expect(state?.lastLaunched == "1.2")
    }
}
