import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import VersionKit

/// How many flushes a launch pays at each durability level (<doc:FileStoreGuarantees>, "One flush
/// per write"): at most k + 2 for a launch of k steps at the power-loss level, none at the app-kill
/// level; counted through the store's system calls.
@Suite("Flushes per launch")
struct FlushCountTests {
    /// The flushes of three launches in turn, each at a new version with `steps` steps pending: the
    /// first makes the first journal, the second the other, the third makes none.
    private static func flushes(
        steps: Int, durability: FileUpgradeStore.Durability,
        writes: FileUpgradeStore.PowerLossWrites = .journal
    ) async throws -> [Int] {
        let fixture = try StoreFixture(.file)
        let calls = CountingCalls()
        var counts: [Int] = []
        for launch in 1...3 {
            let store = FileUpgradeStore(
                url: fixture.fileURL, durability: durability, calls: calls, powerLossWrites: writes)
            let upgrader = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("0.0"))) {
                (0..<steps).map { step in UpgradeStep(Version("\(launch).0.\(step + 1)")!) {} }
            }
            calls.reset()
            let report = try await upgrader.run(currentVersion: Version("\(launch).1")!)
            #expect(report.steps.count == steps)
            #expect(try store.load()?.upgradedThrough == Version("\(launch).1"))
            counts.append(calls.flushes)
        }
        return counts
    }

    @Test(
        "power loss: at most k + 2 flushes for a launch of k steps, k + 1 once the journals exist",
        arguments: [0, 1, 3, 10])
    func powerLoss(steps: Int) async throws {
        let counts = try await Self.flushes(steps: steps, durability: .powerLoss)
        // One per write (k + 1), and one for the folder when a launch makes the journals.
        #expect(counts == [steps + 2, steps + 1, steps + 1])
    }

    @Test("app kill: no flush at all", arguments: [0, 1, 3, 10])
    func appKill(steps: Int) async throws {
        #expect(try await Self.flushes(steps: steps, durability: .appKill) == [0, 0, 0])
    }

    @Test("the two-flush write the journal replaced: two per write", arguments: [0, 1, 3, 10])
    func twoFlushWrite(steps: Int) async throws {
        let counts = try await Self.flushes(steps: steps, durability: .powerLoss, writes: .flushedRename)
        #expect(counts == Array(repeating: 2 * (steps + 1), count: 3))
    }
}
