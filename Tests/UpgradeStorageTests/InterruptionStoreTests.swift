import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// Interruptions are not attempts, and an interrupted launch holds no lock, through every store
/// (<doc:LaunchAlgorithm>, "Interruptions" and "Suspension").
@Suite("Interruptions through every store")
struct InterruptionStoreTests {
    /// What the step saw once `interruptLaunch()` returned: the stored state and whether another
    /// launch could take the lock at once.
    struct Seen: Sendable {
        var state: UpgradeState?
        var lockFree: Bool
        var cancelled: Bool
    }

    @Test(
        "an interrupted step is written as not counted and the lock given up before interruptLaunch returns",
        arguments: StoreKind.allCases)
    func interruptedStep(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind, memoryLockTimeout: .milliseconds(50))
        try fixture.store().save(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
        let seen = Locked<[Seen]>([])
        let runs = StepLog()
        let reference = Locked<Upgrader?>(nil)
        let store = try fixture.store()
        let upgrader = Upgrader(store: store, policy: UpgradePolicy(giveUpAfter: 1)) {
            UpgradeStep("1.1", id: "a") { (context: UpgradeContext) in
                runs.record(context)
                guard runs.entries.count == 1 else { return }
                reference.exchange(nil)!.interruptLaunch()
                var lockFree = false
                if let lock = try? await fixture.store(lockTimeout: .milliseconds(50)).lockForLaunch() {
                    lock.unlock()
                    lockFree = true
                }
                seen.append(Seen(state: try fixture.store().load(), lockFree: lockFree, cancelled: Task.isCancelled))
                try Task.checkCancellation()
            }
            UpgradeStep("1.2", id: "b") { (context: UpgradeContext) in runs.record(context) }
        }
        reference.value = upgrader

        let report = try await upgrader.run(currentVersion: "1.2")
        #expect(report.outcome == .cancelled)
        let first = try #require(seen.value.first)
        #expect(first.lockFree)
        #expect(first.cancelled)
        #expect(first.state?.inProgress == nil)
        #expect(
            first.state?.attempts == [StepAttempts(id: "a", version: "1.1", failed: 0, lastAttemptInterrupted: true)])

        // The next launch (the process may have been killed meanwhile): the same attempt, told it was
        // interrupted, and never abandoned under giveUpAfter 1.
        let next = try await upgrader.run(currentVersion: "1.2")
        #expect(next.outcome == .upgraded)
        #expect(next.abandonedStepIDs.isEmpty)
        #expect(runs.entries == ["a#1", "a#1 interrupted", "b#1"])
    }
}
