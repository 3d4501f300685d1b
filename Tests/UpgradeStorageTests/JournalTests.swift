import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The power-loss level's journals (<doc:FileStoreGuarantees>, "One flush per write"): what a
/// reader takes from them, and what it leaves.
@Suite("File store journals")
struct JournalTests {
    private static func state(_ mark: String) -> UpgradeState {
        UpgradeState(upgradedThrough: Version(mark), lastLaunched: Version(mark))
    }

    /// Writes three states in one launch (no copy in the document until the launch's last write).
    private static func launchWrites(_ fixture: StoreFixture) throws -> FileUpgradeStore {
        let store = FileUpgradeStore(url: fixture.fileURL)
        _ = try store.loadForLaunch()
        for mark in ["1.1", "1.2", "1.3"] { try store.save(state(mark)) }
        return store
    }

    private static func append(_ bytes: [UInt8], to path: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
    }

    @Test("the state is the journal's last record; the document is written only at the launch's last write")
    func lastRecordIsTheState() throws {
        let fixture = try StoreFixture(.file)
        let store = try Self.launchWrites(fixture)
        #expect(fixture.readRaw() == nil)
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == Self.state("1.3"))
        let record = LaunchRecord(time: 0, from: nil, to: "1.4", outcome: .upgraded, steps: [])
        #expect(try store.save(Self.state("1.4"), recording: record) == nil)
        #expect(fixture.readRaw() == StateDocument.encode(Self.state("1.4")))
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == Self.state("1.4"))
    }

    @Test(
        "a torn or partial last record is ignored: the state is the record before it",
        arguments: [1, 3, 16, 40, -1])
    func tornRecordIgnored(kept: Int) throws {
        let fixture = try StoreFixture(.file)
        _ = try Self.launchWrites(fixture)
        let record = StateJournal.record(Array(StateDocument.encode(Self.state("1.4"))), generation: 1)
        // The first bytes of the next record, or all of it but its last byte.
        try Self.append(
            Array(record.prefix(kept < 0 ? record.count - 1 : kept)), to: fixture.fileURL.path + ".journal-0")
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == Self.state("1.3"))
        // A launch goes on from there, in the other journal.
        let next = FileUpgradeStore(url: fixture.fileURL)
        #expect(try next.loadForLaunch().state == Self.state("1.3"))
        try next.save(Self.state("1.5"))
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == Self.state("1.5"))
    }

    @Test("a torn last record of a journal too large for one small read is ignored too", arguments: [20, -1])
    func tornRecordOfALargeJournal(kept: Int) throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL)
        _ = try store.loadForLaunch()
        var state = Self.state("1.0")
        state.completed = (0..<400).map {
            StepRecord(id: "step-\($0)", version: Version(major: 1, minor: 0, patch: $0 + 1))
        }
        try store.save(state)
        var next = state
        next.upgradedThrough = "1.1"
        try store.save(next)
        let journal = fixture.fileURL.path + ".journal-0"
        #expect(try #require(FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) > 8192)
        let record = StateJournal.record(Array(StateDocument.encode(Self.state("1.4"))), generation: 1)
        try Self.append(Array(record.prefix(kept < 0 ? record.count - 1 : kept)), to: journal)
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == next)
    }

    @Test("a record of another generation, or with a damaged byte, is not taken for the last one")
    func damagedRecordIgnored() throws {
        let fixture = try StoreFixture(.file)
        _ = try Self.launchWrites(fixture)
        let payload = Array(StateDocument.encode(Self.state("1.4")))
        try Self.append(StateJournal.record(payload, generation: 7), to: fixture.fileURL.path + ".journal-0")
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == Self.state("1.3"))
        var damaged = StateJournal.record(payload, generation: 1)
        damaged[10] ^= 0x20
        try Self.append(damaged, to: fixture.fileURL.path + ".journal-0")
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == Self.state("1.3"))
    }

    @Test("a new generation whose first write did not finish leaves the other journal's state")
    func unfinishedGeneration() throws {
        let fixture = try StoreFixture(.file)
        _ = try Self.launchWrites(fixture)
        let other = fixture.fileURL.path + ".journal-1"
        for written in [[], Array(StateJournal.header(generation: 2).prefix(9)), StateJournal.header(generation: 2)] {
            try Data(written).write(to: URL(fileURLWithPath: other))
            #expect(try FileUpgradeStore(url: fixture.fileURL).load() == Self.state("1.3"))
        }
    }

    @Test("a whole record that is not a state is an error naming the journal; nothing is written over it")
    func corruptRecord() async throws {
        let fixture = try StoreFixture(.file)
        _ = try Self.launchWrites(fixture)
        let journal = fixture.fileURL.path + ".journal-0"
        try Self.append(StateJournal.record(Array("{\"format\": 2}".utf8), generation: 1), to: journal)
        let before = try Data(contentsOf: URL(fileURLWithPath: journal))
        let other = fixture.fileURL.path + ".journal-1"
        let otherBefore = try Data(contentsOf: URL(fileURLWithPath: other))
        let store = FileUpgradeStore(url: fixture.fileURL, recoversCorruptDocuments: true)
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .corrupt)
        #expect(error?.description.contains(journal) == true)
        let upgrader = Upgrader(store: store) { UpgradeStep("1.4") {} }
        await #expect(throws: UpgradeStoreError.self) { try await upgrader.run(currentVersion: "1.4") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == otherBefore)
    }

    @Test("a document written by the two-flush write of earlier versions is read and carried forward")
    func earlierDocumentCarriedForward() async throws {
        let fixture = try StoreFixture(.file)
        try FileUpgradeStore(url: fixture.fileURL, calls: SystemCalls(), powerLossWrites: .flushedRename)
            .save(Self.state("1.0"))
        let store = FileUpgradeStore(url: fixture.fileURL)
        #expect(try store.load() == Self.state("1.0"))
        let ran = Locked(0)
        let upgrader = Upgrader(store: store) {
            UpgradeStep("1.0") { ran.increment() }
            UpgradeStep("1.1") { ran.increment() }
        }
        #expect(try await upgrader.run(currentVersion: "1.1").outcome == .upgraded)
        #expect(ran.value == 1)
        #expect(FileManager.default.fileExists(atPath: fixture.fileURL.path + ".journal-0"))
        let copy = try StateDocument.decode(try #require(fixture.readRaw()), location: "copy").state
        #expect(copy.upgradedThrough == "1.1")
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == copy)
    }

    @Test("the levels share the journals: a store read at one level reads what the other wrote")
    func levelsShareJournals() throws {
        let fixture = try StoreFixture(.file)
        _ = try Self.launchWrites(fixture)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: .appKill)
        #expect(try store.load() == Self.state("1.3"))
        try store.save(Self.state("1.5"))
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == Self.state("1.5"))
        try FileUpgradeStore(url: fixture.fileURL).save(Self.state("1.6"))
        #expect(try store.load() == Self.state("1.6"))
    }

    @Test("the benchmark's two-flush write removes the journals: the document alone holds the state")
    func twoFlushWriteRemovesJournals() throws {
        let fixture = try StoreFixture(.file)
        _ = try Self.launchWrites(fixture)
        try FileUpgradeStore(url: fixture.fileURL).save(Self.state("1.4"))  // journal-1
        let store = FileUpgradeStore(url: fixture.fileURL, calls: SystemCalls(), powerLossWrites: .flushedRename)
        #expect(try store.load() == Self.state("1.4"))
        try store.save(Self.state("1.5"))
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)
        #expect(!names.contains { $0.contains(".journal-") }, "\(names)")
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == Self.state("1.5"))
    }

    @Test("a journal grown past its generation's size hands over to the other, at no extra flush")
    func generationsTakeTurns() throws {
        let fixture = try StoreFixture(.file)
        let calls = CountingCalls()
        let store = FileUpgradeStore(url: fixture.fileURL, calls: calls)
        _ = try store.loadForLaunch()
        var state = Self.state("1.0")
        state.completed = (0..<3_000).map { StepRecord(id: "step-with-a-long-name-\($0)", version: "2.0") }
        let size = StateDocument.encode(state).count
        let writes = StateJournal.generationSize / size + 3
        for write in 0..<writes {
            state.attempts = [StepAttempts(id: "retried", version: "2.0", failed: write + 1)]
            try store.save(state)
        }
        #expect(calls.flushes == writes + 1)  // one a write, and the folder of the new journals
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == state)
        for index in 0..<2 {
            let journal = try FileManager.default.attributesOfItem(atPath: fixture.fileURL.path + ".journal-\(index)")
            let bytes = try #require(journal[.size] as? Int)
            #expect(bytes > 0 && bytes <= StateJournal.generationSize + size + 64)
        }
    }

    @Test("journals are owner-only (0600) whatever the umask")
    func ownerOnly() throws {
        let fixture = try StoreFixture(.file)
        let previous = umask(0)
        defer { umask(previous) }
        try FileUpgradeStore(url: fixture.fileURL).save(Self.state("1.0"))
        var info = stat()
        #expect(stat(fixture.fileURL.path + ".journal-0", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    @Test("a symbolic link where a journal belongs is refused, never followed")
    func linkRefused() throws {
        let fixture = try StoreFixture(.file)
        let elsewhere = fixture.folder.appendingPathComponent("elsewhere")
        try Data("x".utf8).write(to: elsewhere)
        try FileManager.default.createSymbolicLink(
            atPath: fixture.fileURL.path + ".journal-0", withDestinationPath: elsewhere.path)
        let error = #expect(throws: UpgradeStoreError.self) { try FileUpgradeStore(url: fixture.fileURL).load() }
        #expect(error?.code == .unsafeLocation)
        #expect(throws: UpgradeStoreError.self) { try FileUpgradeStore(url: fixture.fileURL).save(Self.state("1.0")) }
        #expect(try Data(contentsOf: elsewhere) == Data("x".utf8))
    }
}
