import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import VersionKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file store's read without the lock (`load`), which every launch makes: its errors are the ones
/// the read under the lock gives.
@Suite("File store: the read without the lock")
struct UnlockedReadTests {
    @Test("a named pipe at the state path is refused as a special file, without waiting for a writer, and left")
    func namedPipe() async throws {
        let fixture = try StoreFixture(.file)
        #expect(mkfifo(fixture.fileURL.path, 0o600) == 0)
        let store = FileUpgradeStore(url: fixture.fileURL)
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .unsafeLocation)
        #expect(error?.description.contains("not a regular file") == true, "\(String(describing: error))")
        let report = await #expect(throws: UpgradeStoreError.self) {
            try await Upgrader(store: store) { UpgradeStep("1.1") {} }.run(currentVersion: "1.1")
        }
        #expect(report?.code == .unsafeLocation)
        var info = stat()
        #expect(lstat(fixture.fileURL.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("a state file larger than 8 MiB is corrupt and says its size, read without the lock or under it")
    func tooLarge() async throws {
        let fixture = try StoreFixture(.file)
        let size = StateDocument.maximumSize + 5
        try Data(repeating: UInt8(ascii: " "), count: size).write(to: fixture.fileURL)
        let store = FileUpgradeStore(url: fixture.fileURL)
        let unlocked = #expect(throws: UpgradeStoreError.self) { try store.load() }
        let lock = try await store.lockForLaunch()
        let locked = #expect(throws: UpgradeStoreError.self) { try store.loadForLaunch() }
        lock.unlock()
        for error in [unlocked, locked] {
            #expect(error?.code == .corrupt)
            #expect(
                error?.detail.contains("it is \(size) bytes, more than the 8 MiB") == true,
                "\(String(describing: error))")
        }
        #expect(try Data(contentsOf: fixture.fileURL).count == size)
    }

    @Test("a document of more than the first read's kilobyte is read whole")
    func largerThanFirstRead() throws {
        let fixture = try StoreFixture(.file)
        var state = UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0")
        state.completed = (1...100).map { StepRecord(id: "step-\($0)", version: Version(major: 1, minor: $0)) }
        try FileUpgradeStore(url: fixture.fileURL).save(state)
        #expect(try Data(contentsOf: fixture.fileURL).count > 4096)
        #expect(try FileUpgradeStore(url: fixture.fileURL).load() == state)
    }
}
