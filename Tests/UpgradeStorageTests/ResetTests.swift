import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import VersionKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// `Upgrader.reset()` through each store: `removeAll()` clears the state and its history, under the
/// store's lock.
@Suite("Reset through each store")
struct ResetTests {
    static func upgrader(_ store: any UpgradeStore, log: StepLog, policy: UpgradePolicy = UpgradePolicy()) -> Upgrader {
        Upgrader(store: store, policy: policy) {
            UpgradeStep("1.1") { context in log.record(context) }
            UpgradeStep("1.2") { context in log.record(context) }
        }
    }

    @Test("reset removes the state and the history; the next launch is a fresh install", arguments: StoreKind.allCases)
    func resetClears(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let log = StepLog()
        let policy = UpgradePolicy(freshInstall: .runAll)
        _ = try await Self.upgrader(fixture.relaunched(), log: log, policy: policy).run(currentVersion: "1.2")
        // The custom store of the docs keeps no history.
        #expect(try fixture.relaunched().history().count == (kind == .custom ? 0 : 1))

        try await Self.upgrader(fixture.relaunched(), log: log, policy: policy).reset()

        #expect(try fixture.relaunched().load() == nil)
        #expect(try fixture.relaunched().history().isEmpty)
        let report = try await Self.upgrader(fixture.relaunched(), log: log, policy: policy).run(currentVersion: "1.2")
        #expect(report.previousVersion == nil)
        #expect(
            log.entries == ["appUpgradeTo_1_1#1", "appUpgradeTo_1_2#1", "appUpgradeTo_1_1#1", "appUpgradeTo_1_2#1"])
        // The custom store of the docs keeps no history.
        #expect(try fixture.relaunched().history().count == (kind == .custom ? 0 : 1))
    }

    @Test("reset with nothing stored succeeds and changes nothing", arguments: StoreKind.allCases)
    func resetNothing(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        try await Self.upgrader(fixture.store(), log: StepLog()).reset()
        #expect(try fixture.store().load() == nil)
    }

    @Test(
        "reset waits for the store's lock, and reports busy when another launch keeps it", arguments: StoreKind.allCases
    )
    func resetTakesTheLock(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        try fixture.store().save(richState)
        let held = try await fixture.store().lockForLaunch()
        let error = await #expect(throws: UpgradeStoreError.self) {
            try await Self.upgrader(fixture.store(lockTimeout: .zero), log: StepLog()).reset()
        }
        #expect(error?.code == .busy)
        #expect(try fixture.store().load() == richState)
        held.unlock()
        try await Self.upgrader(fixture.store(), log: StepLog()).reset()
        #expect(try fixture.store().load() == nil)
    }

    @Test(
        "reset removes a document that cannot be read, which a launch would refuse to replace",
        arguments: StoreKind.documentStores)
    func resetCorrupt(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        try fixture.writeRaw(Data("{\"format\": 99}".utf8))
        #expect(throws: UpgradeStoreError.self) { try fixture.store().load() }
        try await Self.upgrader(fixture.store(), log: StepLog()).reset()
        #expect(try fixture.store().load() == nil)
        #expect(fixture.readRaw() == nil)
    }

    @Test("the file store removes the state, journal and history files and keeps the lock file and the probe")
    func fileStoreFiles() async throws {
        let fixture = try StoreFixture(.file)
        _ = try await Self.upgrader(fixture.store(), log: StepLog(), policy: UpgradePolicy(freshInstall: .runAll))
            .run(currentVersion: "1.2")
        let names = { try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path).sorted() }
        #expect(
            try names() == [
                "upgrade-state.json", "upgrade-state.json.history.jsonl", "upgrade-state.json.journal-0",
                "upgrade-state.json.journal-1", "upgrade-state.json.lock", "upgrade-state.json.probe",
            ])

        try await Self.upgrader(fixture.store(), log: StepLog()).reset()

        #expect(try names() == ["upgrade-state.json.lock", "upgrade-state.json.probe"])
    }

    @Test("a file that cannot be removed is an error naming it, and the state stays as it was")
    func fileStoreRemoveFault() async throws {
        let fixture = try StoreFixture(.file)
        _ = try await Self.upgrader(fixture.store(), log: StepLog(), policy: UpgradePolicy(freshInstall: .runAll))
            .run(currentVersion: "1.2")
        let store = FileUpgradeStore(url: fixture.fileURL, calls: FaultInjectingCalls())
        store.injectFault(EIO, at: .remove)
        let error = await #expect(throws: UpgradeStoreError.self) {
            try await Self.upgrader(store, log: StepLog()).reset()
        }
        #expect(error?.code == .writeFailed)
        #expect(error?.location.hasSuffix(".history.jsonl") == true)
        #expect(try store.load()?.upgradedThrough == "1.2")
        #expect(try store.history().count == 1)
    }

    @Test("the defaults store removes both of its keys and nothing else in the suite")
    func defaultsStoreKeys() async throws {
        let fixture = try StoreFixture(.defaults)
        let defaults = UserDefaults(suiteName: fixture.suite)!
        defaults.set("kept", forKey: "the app's own key")
        _ = try await Self.upgrader(fixture.store(), log: StepLog(), policy: UpgradePolicy(freshInstall: .runAll))
            .run(currentVersion: "1.2")
        #expect(defaults.object(forKey: StoreFixture.defaultsKey) != nil)
        #expect(defaults.object(forKey: StoreFixture.defaultsKey + ".history") != nil)

        try await Self.upgrader(fixture.store(), log: StepLog()).reset()

        #expect(defaults.object(forKey: StoreFixture.defaultsKey) == nil)
        #expect(defaults.object(forKey: StoreFixture.defaultsKey + ".history") == nil)
        #expect(defaults.string(forKey: "the app's own key") == "kept")
    }

    @Test("the in-memory store clears its state and history, and refuses after a simulated death")
    func memoryStore() throws {
        let store = InMemoryUpgradeStore(state: richState)
        _ = try store.save(
            richState, recording: LaunchRecord(time: 0, from: nil, to: "1.0", outcome: .upgraded, steps: []))
        try store.removeAll()
        #expect(store.state == nil)
        #expect(store.history().isEmpty)
        try store.save(richState)
        store.simulateProcessDeath()
        #expect(throws: UpgradeStoreError.self) { try store.removeAll() }
        #expect(store.state == richState)
    }
}
