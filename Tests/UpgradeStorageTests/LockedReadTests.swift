import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// The file store's read under the lock (`loadForLaunch`), which takes the decoded state of the read
/// without the lock when the file holds the same bytes, and decodes the file anew when another launch
/// replaced it in between.
@Suite("File store: the read under the lock")
struct LockedReadTests {
    /// A state whose mark is `mark`, last launched there.
    static func state(_ mark: Version, completed: [StepRecord] = []) -> UpgradeState {
        var state = UpgradeState(upgradedThrough: mark, lastLaunched: mark)
        state.completed = completed
        return state
    }

    @Test(
        "a document replaced after the read without the lock is read anew under it; the same document is read as it was",
        arguments: FileUpgradeStore.Durability.allCases)
    func replacedBetweenReads(durability: FileUpgradeStore.Durability) async throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: durability)
        try store.save(Self.state("1.0"))
        #expect(try store.load() == Self.state("1.0"))

        // Another launch (another store object, as in another process) replaces the document.
        let newer = Self.state("1.0", completed: [StepRecord(id: "appUpgradeTo_1_1", version: "1.1")])
        try FileUpgradeStore(url: fixture.fileURL, durability: durability).save(newer)
        let lock = try await store.lockForLaunch()
        #expect(try store.loadForLaunch().state == newer)
        lock.unlock()

        // Unchanged since the read without the lock: the same state.
        #expect(try store.load() == newer)
        let again = try await store.lockForLaunch()
        #expect(try store.loadForLaunch().state == newer)
        again.unlock()
    }

    @Test("a launch whose read without the lock is outdated when it gets the lock runs from the newer state")
    func launchAfterAnotherLaunch() async throws {
        let fixture = try StoreFixture(.file)
        let url = fixture.fileURL
        try FileUpgradeStore(url: url).save(Self.state("1.0"))
        // Between this launch's read without the lock and its lock, another launch finishes 1.1.
        let store = InterposingStore(FileUpgradeStore(url: url)) {
            try FileUpgradeStore(url: url).save(
                Self.state("1.0", completed: [StepRecord(id: "appUpgradeTo_1_1", version: "1.1")]))
        }
        let ran = Locked<[String]>([])
        let upgrader = Upgrader(store: store) {
            UpgradeStep("1.1") { ran.append("1.1") }
            UpgradeStep("1.2") { ran.append("1.2") }
        }
        let report = try await upgrader.run(currentVersion: "1.2")
        #expect(report.outcome == .upgraded)
        #expect(ran.value == ["1.2"])
        #expect(report.steps.map(\.id) == ["appUpgradeTo_1_2"])
        #expect(try FileUpgradeStore(url: url).load()?.upgradedThrough == "1.2")
    }
}

/// A store that forwards to a file store, and does something once just before its first lock is taken.
private final class InterposingStore: UpgradeStore, Sendable {
    private let base: FileUpgradeStore
    private let before: Locked<(@Sendable () throws -> Void)?>

    init(_ base: FileUpgradeStore, beforeLock: @escaping @Sendable () throws -> Void) {
        self.base = base
        before = Locked(beforeLock)
    }

    func load() throws -> UpgradeState? { try base.load() }
    func loadForLaunch() throws -> (state: UpgradeState?, notice: String?) { try base.loadForLaunch() }
    func save(_ state: UpgradeState) throws { try base.save(state) }
    func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
        try base.save(state, recording: record)
    }
    func history() throws -> [LaunchRecord] { try base.history() }
    func removeAll() throws { try base.removeAll() }

    func lockForLaunch() async throws -> any UpgradeStoreLock {
        try before.exchange(nil)?()
        return try await base.lockForLaunch()
    }
}
