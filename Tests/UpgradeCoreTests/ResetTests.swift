import Foundation
import Testing
import UpgradeCore
import VersionKit

/// A store that keeps the state but implements nothing beyond the requirements without defaults.
private final class MinimalStore: UpgradeStore, Sendable {
    let inner = RecordingStore(settledState(at: "1.0"))
    func load() throws -> UpgradeState? { try inner.load() }
    func save(_ state: UpgradeState) throws { try inner.save(state) }
    func lockForLaunch() async throws -> any UpgradeStoreLock { try await inner.lockForLaunch() }
}

/// `Upgrader.reset()`: starting over, under the store's exclusive access.
@Suite("Reset")
struct ResetTests {
    @Test("reset removes the state and the history under the store's exclusive access")
    func resetRemovesUnderTheLock() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [journal.step("1.1", id: "a")])
        _ = try await upgrader.run(currentVersion: "1.1")
        #expect(try upgrader.history().count == 1)
        let locks = store.lockCount

        try await upgrader.reset()

        #expect(store.removals == [true])
        #expect(store.lockCount == locks + 1)
        #expect(store.state == nil)
        #expect(try upgrader.history().isEmpty)
        #expect(try upgrader.storedState() == nil)
    }

    @Test(
        "after a reset the next launch is a fresh install, and the policy decides what runs",
        arguments: [UpgradePolicy.FreshInstall.skip, .runAll])
    func nextLaunchIsFresh(policy: UpgradePolicy.FreshInstall) async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(freshInstall: policy),
            steps: [journal.step("1.0", id: "a"), journal.step("1.1", id: "b")])
        _ = try await upgrader.run(currentVersion: "1.1")
        #expect(journal.ids == ["b"])
        journal.reset()

        try await upgrader.reset()
        let report = try await upgrader.run(currentVersion: "1.1")

        #expect(report.previousVersion == nil)
        if policy == .skip {
            #expect(report.outcome == .freshInstall)
            #expect(journal.ids == [])
        } else {
            #expect(report.outcome == .upgraded)
            #expect(journal.ids == ["a", "b"])
        }
    }

    @Test("reset waits for a launch in progress instead of removing the state under its step")
    func resetWaitsForLaunch() async throws {
        let (release, releaser) = AsyncStream<Void>.makeStream()
        let (started, starter) = AsyncStream<Void>.makeStream()
        let identity = "reset-test \(UUID().uuidString)"
        let store = RecordingStore(settledState(at: "1.0"), identity: identity)
        let upgrader = makeUpgrader(
            store: store,
            steps: [
                UpgradeStep("1.1", id: "slow") {
                    starter.yield()
                    for await _ in release { break }
                }
            ])

        let launch = Task { try await upgrader.run(currentVersion: "1.1") }
        for await _ in started { break }
        let reset = Task { try await upgrader.reset() }
        // The reset waits for the launch, whose step is still running: nothing was removed.
        await LaunchRegistry.shared.waitForCallers(2, of: identity)
        #expect(store.removals.isEmpty)
        #expect(store.state?.inProgress?.id == "slow")

        releaser.yield()
        #expect(try await launch.value.outcome == .upgraded)
        try await reset.value
        #expect(store.removals == [true])
        #expect(store.state == nil)
    }

    @Test("a store that cannot remove its state says so, and nothing changes")
    func storeWithoutRemoveAll() async throws {
        let store = MinimalStore()
        let upgrader = Upgrader(store: store) {}
        let error = await #expect(throws: UpgradeStoreError.self) { try await upgrader.reset() }
        #expect(error?.code == .unsupported)
        #expect(error?.description.contains("MinimalStore") == true)
        #expect(error?.description.contains("removeAll()") == true)
        #expect(store.inner.state == settledState(at: "1.0"))
    }
}
