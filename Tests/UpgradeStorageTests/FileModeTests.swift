import Testing

@testable import UpgradeStorage

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The store tells file types apart with the POSIX values written out; they must be the C library's.
@Suite("File modes")
struct FileModeTests {
    @Test("a mode's type is read as the C library's S_IF constants say")
    func fileTypes() {
        let permissions: mode_t = 0o644
        #expect(POSIX.isRegularFile(S_IFREG | permissions))
        #expect(POSIX.isDirectory(S_IFDIR | permissions))
        #expect(POSIX.isSymbolicLink(S_IFLNK | permissions))
        for other in [S_IFDIR, S_IFLNK, S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK] {
            #expect(!POSIX.isRegularFile(other | permissions))
        }
        for other in [S_IFREG, S_IFLNK, S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK] {
            #expect(!POSIX.isDirectory(other | permissions))
        }
        for other in [S_IFREG, S_IFDIR, S_IFIFO, S_IFSOCK, S_IFCHR, S_IFBLK] {
            #expect(!POSIX.isSymbolicLink(other | permissions))
        }
    }
}
