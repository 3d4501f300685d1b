import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// What only the file store does: permissions, links, read errors, recovery, temporary files.
@Suite("File store")
struct FileStoreTests {
    @Test("missing folders are created 0700, the document and lock file 0600")
    func permissions() async throws {
        let directory = try TemporaryDirectory("perm")
        let url = directory.file("a/b/upgrade-state.json")
        let store = FileUpgradeStore(url: url)
        let lock = try await store.lockForLaunch()
        try store.save(richState)
        lock.unlock()
        #expect(try mode(of: directory.file("a")) == 0o700)
        #expect(try mode(of: directory.file("a/b")) == 0o700)
        #expect(try mode(of: url) == 0o600)
        #expect(try mode(of: directory.file("a/b/upgrade-state.json.lock")) == 0o600)
        #expect(try FileUpgradeStore(url: url).load() == richState)
    }

    @Test("the document is pretty-printed JSON with sorted keys")
    func readableDocument() throws {
        let fixture = try StoreFixture(.file)
        try fixture.store().save(richState)
        let text = try String(contentsOf: fixture.fileURL, encoding: .utf8)
        #expect(text == String(decoding: StateDocument.encode(richState), as: UTF8.self))
        #expect(text.hasPrefix("{\n  \"abandoned\": ["))
    }

    @Test("a symbolic link at the state path is refused, not followed", arguments: [true, false])
    func symbolicLinkRefused(targetExists: Bool) throws {
        let fixture = try StoreFixture(.file)
        let target = fixture.folder.appendingPathComponent("elsewhere.json")
        let original = StateDocument.encode(richState)
        if targetExists { try original.write(to: target) }
        try FileManager.default.createSymbolicLink(at: fixture.fileURL, withDestinationURL: target)
        let store = FileUpgradeStore(url: fixture.fileURL)
        let loadError = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(loadError?.code == .unsafeLocation)
        #expect(loadError?.description.contains("symbolic link") == true)
        let saveError = #expect(throws: UpgradeStoreError.self) { try store.save(UpgradeState()) }
        #expect(saveError?.code == .unsafeLocation)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: fixture.fileURL.path) == target.path)
        #expect((try? Data(contentsOf: target)) == (targetExists ? original : nil))
    }

    @Test("a symbolic link at the lock path is refused")
    func symbolicLinkAtLockRefused() async throws {
        let fixture = try StoreFixture(.file)
        let lockURL = fixture.folder.appendingPathComponent("upgrade-state.json.lock")
        try FileManager.default.createSymbolicLink(
            at: lockURL, withDestinationURL: fixture.folder.appendingPathComponent("other"))
        let error = await #expect(throws: UpgradeStoreError.self) {
            _ = try await FileUpgradeStore(url: fixture.fileURL).lockForLaunch()
        }
        #expect(error?.code == .unsafeLocation)
        #expect(error?.location == lockURL.path)
    }

    @Test("a state path that cannot be read (a folder) is an error, not a fresh install")
    func folderAtStatePath() async throws {
        let fixture = try StoreFixture(.file)
        try FileManager.default.createDirectory(at: fixture.fileURL, withIntermediateDirectories: false)
        let store = FileUpgradeStore(url: fixture.fileURL, recoversCorruptDocuments: true)
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .unreadable)
        #expect(error?.description.contains(fixture.fileURL.path) == true)
        #expect(error?.description.contains(String(cString: strerror(EISDIR))) == true)
        #expect(throws: UpgradeStoreError.self) { try store.loadForLaunch() }
        let ran = Locked(0)
        let upgrader = Upgrader(store: store) { UpgradeStep("1.1") { ran.increment() } }
        await #expect(throws: UpgradeStoreError.self) { _ = try await upgrader.run(currentVersion: "1.1") }
        #expect(ran.value == 0)
    }

    @Test("EPERM, as data protection before the first unlock gives, is protected data unavailable: the launch defers")
    func operationNotPermittedIsProtectedData() async throws {
        let fixture = try StoreFixture(.file)
        try fixture.store().save(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
        let bytes = fixture.readRaw()
        let store = FileUpgradeStore(url: fixture.fileURL, calls: FaultInjectingCalls())
        store.injectFault(EPERM, at: .read)
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .protectedDataUnavailable)
        #expect(error?.description.contains(fixture.fileURL.path) == true)
        #expect((error?.underlying as? POSIXError)?.code == .EPERM)

        store.injectFault(EPERM, at: .read, times: 2)
        let ran = Locked(0)
        let report = try await Upgrader(store: store) { UpgradeStep("1.1") { ran.increment() } }.run(
            currentVersion: "1.1")
        #expect(report.outcome == .deferred)
        #expect(ran.value == 0)
        #expect(fixture.readRaw() == bytes)
    }

    @Test(
        "a read error (permission denied, I/O error) is an error naming it, and the launch runs nothing",
        arguments: [EACCES, EIO])
    func readErrorIsNotAFreshInstall(code: Int32) async throws {
        let fixture = try StoreFixture(.file)
        let original = UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0")
        try fixture.store().save(original)
        let bytes = fixture.readRaw()
        let store = FileUpgradeStore(url: fixture.fileURL, calls: FaultInjectingCalls())
        store.injectFault(code, at: .read)
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .unreadable)
        #expect(error?.description.contains(fixture.fileURL.path) == true)
        #expect(error?.description.contains(String(cString: strerror(code))) == true)
        #expect((error?.underlying as? POSIXError)?.code.rawValue == code)

        // Through the engine: the fast path's read fails, then the locked read fails; nothing runs.
        store.injectFault(code, at: .read, times: 2)
        let ran = Locked(0)
        let upgrader = Upgrader(store: store) { UpgradeStep("1.1") { ran.increment() } }
        await #expect(throws: UpgradeStoreError.self) { _ = try await upgrader.run(currentVersion: "1.1") }
        #expect(ran.value == 0)
        #expect(fixture.readRaw() == bytes)
    }

    @Test("recovery moves a corrupt document aside and the launch is a fresh install, reported as such")
    func recoveryMovesAside() async throws {
        let fixture = try StoreFixture(.file)
        let damaged = Data("{\"format\": 1, \"upgra".utf8)
        try fixture.writeRaw(damaged)
        let store = FileUpgradeStore(url: fixture.fileURL, recoversCorruptDocuments: true)
        #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(fixture.readRaw() == damaged, "a plain load never moves anything")

        let upgrader = Upgrader(store: store) { UpgradeStep("1.1") {} }
        let report = try await upgrader.run(currentVersion: "1.1")
        #expect(report.outcome == .freshInstall)
        let asides = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)
            .filter { $0.hasPrefix("upgrade-state.json.corrupt-") }
        try #require(asides.count == 1)
        #expect(try Data(contentsOf: fixture.folder.appendingPathComponent(asides[0])) == damaged)
        #expect(report.notices.count == 1)
        #expect(report.notices.first?.contains(asides[0]) == true)
        #expect(report.notices.first?.contains("fresh install") == true)
        // The notice says what became of the document once: it was moved, not "left as it is".
        #expect(report.notices.first?.contains("left as it is") == false, "\(report.notices)")
        #expect(report.notices.first?.contains("not a valid upgrade state document") == true)
        #expect(try store.load()?.upgradedThrough == "1.1")
    }

    @Test("without recovery a corrupt document stops the launch; with it, a newer format still does")
    func recoveryIsOptInAndOnlyForCorruption() async throws {
        let fixture = try StoreFixture(.file)
        try fixture.writeRaw(Data("garbage".utf8))
        await #expect(throws: UpgradeStoreError.self) {
            _ = try await Upgrader(store: FileUpgradeStore(url: fixture.fileURL)) {}.run(currentVersion: "1.0")
        }
        #expect(fixture.readRaw() == Data("garbage".utf8))

        let newer = Data(#"{"format": 3}"#.utf8)
        try fixture.writeRaw(newer)
        let store = FileUpgradeStore(url: fixture.fileURL, recoversCorruptDocuments: true)
        let error = #expect(throws: UpgradeStoreError.self) { try store.loadForLaunch() }
        #expect(error?.code.isUnsupportedFormat == true)
        #expect(fixture.readRaw() == newer)
    }

    @Test(
        "a failed step of a write leaves the old state and no temporary file",
        arguments: [
            (FileUpgradeStore.Durability.powerLoss, FileStoreOperation.create), (.powerLoss, .write),
            (.powerLoss, .syncJournal), (.appKill, .create), (.appKill, .write),
        ])
    func writeFaultAtEachStep(durability: FileUpgradeStore.Durability, operation: FileStoreOperation) throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: durability, calls: FaultInjectingCalls())
        try store.save(richState)
        store.injectFault(ENOSPC, at: operation)
        let error = #expect(throws: UpgradeStoreError.self) { try store.save(UpgradeState()) }
        #expect(error?.code == .writeFailed)
        #expect(error?.description.contains(fixture.fileURL.path) == true)
        #expect(error?.description.contains(String(cString: strerror(ENOSPC))) == true)
        #expect(try FileUpgradeStore(url: fixture.fileURL, durability: durability).load() == richState)
        #expect(try temporaryFiles(in: fixture.folder).isEmpty)
    }

    @Test("a folder that cannot be flushed after the rename is reported; the new document is whole")
    func folderSyncFault() throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: .appKill, calls: FaultInjectingCalls())
        try store.save(richState)
        store.injectFault(EIO, at: .syncFolder)
        // The app-kill level flushes nothing; the benchmark's two-flush write is the one that renames
        // a flushed file and flushes the folder after.
        let flushed = FileUpgradeStore(
            url: fixture.fileURL, calls: FaultInjectingCalls(), powerLossWrites: .flushedRename)
        try flushed.save(richState)
        flushed.injectFault(EIO, at: .syncFolder)
        let error = #expect(throws: UpgradeStoreError.self) { try flushed.save(UpgradeState()) }
        #expect(error?.code == .writeFailed)
        #expect(error?.description.contains("in place") == true)
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == UpgradeState())
        #expect(try temporaryFiles(in: fixture.folder).isEmpty)
    }

    @Test("a new journal whose folder cannot be flushed is removed: the write fails and the state is as it was")
    func journalFolderSyncFault() throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, calls: FaultInjectingCalls())
        store.injectFault(EIO, at: .syncFolder)
        // The journals are new: their folder's flush fails.
        let error = #expect(throws: UpgradeStoreError.self) { try store.save(richState) }
        #expect(error?.code == .writeFailed)
        #expect(error?.description.contains(fixture.fileURL.path + ".journal-0") == true)
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == nil)
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path)
        #expect(!names.contains { $0.contains(".journal-") }, "\(names)")
        try store.save(UpgradeState())
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == UpgradeState())
    }

    @Test("taking the lock removes temporary files whose writer is gone, and only those")
    func staleTemporaryFilesRemoved() async throws {
        let fixture = try StoreFixture(.file)
        let folder = fixture.folder
        let gone = Int32.max  // beyond any pid_max: no such process
        let hourAgo = Date(timeIntervalSinceNow: -3600)
        let files: [(name: String, modified: Date?, kept: Bool)] = [
            (".upgrade-state.json.tmp-\(gone)-1a2b", nil, false),
            (".upgrade-state.json.tmp-\(getpid())-3c4d", nil, false),  // this process, not writing it
            (".upgrade-state.json.tmp-1-5e6f", hourAgo, false),  // a live process, but far too old
            (".upgrade-state.json.tmp-1-7a8b", nil, true),  // a live process, recent: may be writing
            (".other.json.tmp-\(gone)-9c0d", nil, true),  // another store's
            ("notes.txt", nil, true),
        ]
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            try Data("partial".utf8).write(to: url)
            if let modified = file.modified {
                try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
            }
        }
        let lock = try await FileUpgradeStore(url: fixture.fileURL).lockForLaunch()
        lock.unlock()
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        for file in files {
            #expect(left.contains(file.name) == file.kept, "\(file.name)")
        }
    }

    @Test("a URL that is not a file URL is refused")
    func notAFileURL() async throws {
        let store = FileUpgradeStore(url: URL(string: "https://example.com/upgrade-state.json")!)
        #expect(throws: UpgradeStoreError.self) { try store.load() }
        let error = #expect(throws: UpgradeStoreError.self) { try store.save(richState) }
        #expect(error?.code == .unsafeLocation)
        await #expect(throws: UpgradeStoreError.self) { _ = try await store.lockForLaunch() }
    }

    @Test("a lock dropped without unlock is given up; unlock twice is harmless")
    func lockRelease() async throws {
        let fixture = try StoreFixture(.file)
        do {
            _ = try await FileUpgradeStore(url: fixture.fileURL).lockForLaunch()
        }
        let lock = try await FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero).lockForLaunch()
        lock.unlock()
        lock.unlock()
        let again = try await FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero).lockForLaunch()
        again.unlock()
    }

    @Test("a cancelled wait for the lock ends with CancellationError")
    func cancelledWait() async throws {
        let fixture = try StoreFixture(.file)
        let lock = try await FileUpgradeStore(url: fixture.fileURL).lockForLaunch()
        defer { lock.unlock() }
        // The waiter would wait an hour: only the cancellation can end its wait, which comes once it
        // waits.
        let launch = await WaitingLaunch.start {
            try await FileUpgradeStore(url: fixture.fileURL, lockTimeout: .seconds(3600)).lockForLaunch()
        }
        #expect(launch.waited, "the launch took the lock while another held it")
        launch.task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await launch.task.value }
    }
}

/// The permission bits of a file or folder.
func mode(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
    return (attributes[.posixPermissions] as! NSNumber).intValue & 0o7777
}

/// The names of the file store's temporary files in a folder.
func temporaryFiles(in folder: URL, name: String = "upgrade-state.json") throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".\(name).tmp-") }
}
