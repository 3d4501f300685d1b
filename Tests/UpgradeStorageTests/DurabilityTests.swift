import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file store's durability levels (the store's documentation, "Durability"): what a write
/// flushes, and that both levels replace the document atomically.
@Suite("File store durability")
struct DurabilityTests {
    @Test(
        "power loss (the default) flushes each write's journal record, and the folder of new journals; a failing flush fails the write"
    )
    func powerLossFlushes() throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, calls: FaultInjectingCalls())
        #expect(store.durability == .powerLoss)
        // The journals are new: their folder is flushed too.
        store.injectFault(EIO, at: .syncFolder)
        let folderError = #expect(throws: UpgradeStoreError.self) { try store.save(richState) }
        #expect(folderError?.detail.contains("power loss") == true, "\(folderError?.detail ?? "")")
        #expect(try store.load() == nil)
        try store.save(richState)
        store.injectFault(EIO, at: .syncJournal)
        #expect(throws: UpgradeStoreError.self) { try store.save(UpgradeState()) }
        #expect(try store.load() == richState)
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == richState)
    }

    @Test("app kill flushes nothing: a write never calls the flushes at all")
    func appKillDoesNotFlush() throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: .appKill, calls: FaultInjectingCalls())
        // Flushes that would fail, were they called.
        store.injectFault(EIO, at: .sync, times: 100)
        store.injectFault(EIO, at: .syncFolder, times: 100)
        try store.save(richState)
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == richState)
        var next = richState
        next.upgradedThrough = "9.9"
        #expect(
            try store.save(next, recording: LaunchRecord(time: 0, from: nil, to: "9.9", outcome: .upgraded, steps: []))
                == nil)
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == next)
    }

    @Test(
        "both levels replace the document atomically: a failed write leaves the old one and no temporary file",
        arguments: FileUpgradeStore.Durability.allCases)
    func atomicAtEveryLevel(durability: FileUpgradeStore.Durability) throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: durability, calls: FaultInjectingCalls())
        try store.save(richState)
        // A write is its journal record (and its flush at the power-loss level); the document is a
        // copy of it.
        store.injectFault(EIO, at: durability == .powerLoss ? .syncJournal : .write)
        #expect(throws: UpgradeStoreError.self) { try store.save(UpgradeState()) }
        #expect(try store.load() == richState)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)
            .filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test("a launch with steps runs the same at every level", arguments: FileUpgradeStore.Durability.allCases)
    func launchAtEveryLevel(durability: FileUpgradeStore.Durability) async throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: durability)
        let ran = Locked(0)
        let upgrader = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .runAll)) {
            UpgradeStep("1.0") { ran.increment() }
            UpgradeStep("1.1") { ran.increment() }
        }
        #expect(try await upgrader.run(currentVersion: "1.1").outcome == .upgraded)
        #expect(ran.value == 2)
        #expect(try store.load()?.upgradedThrough == "1.1")
        #expect(try store.history().count == 1)
    }

    @Test("the levels are named as the command line spells them")
    func names() {
        #expect(FileUpgradeStore.Durability.allCases.map(\.description) == ["power-loss", "app-kill"])
        #expect(FileUpgradeStore.Durability(name: "app-kill") == .appKill)
        #expect(FileUpgradeStore.Durability(name: "appKill") == nil)
    }
}
