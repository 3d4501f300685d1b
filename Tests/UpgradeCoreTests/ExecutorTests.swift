import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport

/// What runs where (the launch algorithm article, "What runs where"): a launch with nothing to do
/// stays on the caller's executor, so that an app awaiting it from the main actor pays no hop; a
/// launch with work runs its lock wait, writes and steps off the caller's actor. The caller is
/// ``CallerActor``, a global actor with a thread of its own, standing in for the main actor. Each
/// recorder keeps, for each call, whether it came on the caller's actor.
@Suite("What runs where")
struct ExecutorTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @CallerActor
    @Test("awaited from an actor, a launch with nothing to do never leaves it")
    func nothingToDoStaysOnTheCaller() async throws {
        #expect(CallerActor.isCurrent)
        let store = RecordingStore(settledState(at: "1.1"))
        let calls = Locked<[Bool]>([])
        var upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1") {}])
        upgrader.observer = { _ in calls.append(CallerActor.isCurrent) }
        let report = try await upgrader.run(currentVersion: "1.1")
        #expect(report.outcome == .upToDate)
        #expect(store.lockCount == 0)
        // The observer saw the launch's end on the caller's actor: the launch never left it.
        #expect(calls.value == [true])
        #expect(CallerActor.isCurrent)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @CallerActor
    @Test("awaited from an actor, a launch with work runs its steps, lock and writes off it")
    func workLeavesTheCaller() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let steps = Locked<[Bool]>([])
        let events = Locked<[Bool]>([])
        var upgrader = makeUpgrader(
            store: store,
            steps: [
                UpgradeStep("1.1") { steps.append(CallerActor.isCurrent) },
                UpgradeStep("1.2") { _ in steps.append(CallerActor.isCurrent) },
            ])
        upgrader.observer = { _ in events.append(CallerActor.isCurrent) }
        let report = try await upgrader.run(currentVersion: "1.2")
        #expect(report.outcome == .upgraded)
        #expect(store.lockCount == 1)
        #expect(steps.value == [false, false])
        #expect(!events.value.isEmpty && events.value.allSatisfy { !$0 })
        // And the caller is back on its actor.
        #expect(CallerActor.isCurrent)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @CallerActor
    @Test("a step isolated to the caller's actor still runs there")
    func mainActorStep() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let steps = Locked<[Bool]>([])
        let upgrader = makeUpgrader(
            store: store, steps: [UpgradeStep("1.1") { @CallerActor in steps.append(CallerActor.isCurrent) }])
        // (A step isolated to the caller's actor, such as a `@MainActor` step of an app.)
        _ = try await upgrader.run(currentVersion: "1.1")
        #expect(steps.value == [true])
    }
}
