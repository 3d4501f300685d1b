import Foundation
import Testing
import UpgradeStorage
import UpgradeTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Musl)
    import Musl
#endif

/// The one flushing function of the store, the benchmark's floor and the simulator's probe.
@Suite("Stable storage")
struct StableStorageTests {
    @Test("a file and a folder are flushed; a closed descriptor is an error with errno set")
    func flushesFilesAndFolders() throws {
        let directory = try TemporaryDirectory("flush")
        let path = directory.file("data").path
        let file = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        try #require(file >= 0)
        defer { close(file) }
        #expect(write(file, "x", 1) == 1)
        #expect(StableStorage.flush(file) == 0)

        let folder = open(directory.url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(folder >= 0)
        #expect(StableStorage.flush(folder) == 0)
        close(folder)

        errno = 0
        #expect(StableStorage.flush(folder) == -1)
        #expect(errno == EBADF)
    }

    @Test("the call is named as it is made: F_FULLFSYNC on Apple platforms, fsync elsewhere")
    func callName() {
        #if canImport(Darwin)
            #expect(StableStorage.callName == "F_FULLFSYNC")
        #else
            #expect(StableStorage.callName == "fsync")
        #endif
    }
}
