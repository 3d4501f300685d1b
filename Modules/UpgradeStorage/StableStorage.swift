#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// Flushing to stable storage and replacing a file: the one way the file store does each, which the
/// benchmark's floor and the simulator's probe use too, so that they do as the store does.
///
/// On Apple platforms `fsync` moves the data to the drive, which may keep it in its cache and write
/// it later, out of order; `F_FULLFSYNC` also asks the drive to write it to permanent storage
/// (fsync(2), fcntl(2)). Elsewhere (Linux) `fsync` reaches the disk, for files and folders alike.
package enum StableStorage {
    /// The call that ``flush(_:)`` makes, for reports: `F_FULLFSYNC` on Apple platforms, `fsync`
    /// elsewhere.
    #if canImport(Darwin)
        package static let callName = "F_FULLFSYNC"
    #else
        package static let callName = "fsync"
    #endif

    /// Flushes an open file or folder to stable storage: `F_FULLFSYNC` on Apple platforms, with
    /// `fsync` where a file system does not support it (as SQLite does), `fsync` elsewhere.
    ///
    /// - Parameter descriptor: An open file, or a folder opened read-only.
    /// - Returns: 0, or -1 with `errno` set by the last call made.
    package static func flush(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            if POSIX.retrying({ fcntl(descriptor, F_FULLFSYNC) }) == 0 { return 0 }
        #else
            // Linux, Android: fsync flushes the drive's cache too.
        #endif
        return POSIX.retrying { fsync(descriptor) }
    }

    /// The call that ``flushData(_:)`` makes, for reports: `F_FULLFSYNC` on Apple platforms,
    /// `fdatasync` elsewhere.
    #if canImport(Darwin)
        package static let flushDataCallName = "F_FULLFSYNC"
    #else
        package static let flushDataCallName = "fdatasync"
    #endif

    /// Flushes an open file's data, and what reading it back needs (its size), to stable storage:
    /// `F_FULLFSYNC` on Apple platforms (with `fsync` where a file system does not support it),
    /// `fdatasync` elsewhere, which leaves out what a read does not need (its times).
    ///
    /// - Parameter descriptor: An open file.
    /// - Returns: 0, or -1 with `errno` set by the last call made.
    package static func flushData(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            return flush(descriptor)
        #else
            return POSIX.retrying { fdatasync(descriptor) }
        #endif
    }

    /// How ``replace(_:over:flushed:)`` puts an unflushed file in place, for reports: `exchange+unlink`
    /// on Linux, `rename` elsewhere.
    #if os(Linux) || os(Android)
        package static let unflushedReplaceName = "exchange+unlink"
    #else
        package static let unflushedReplaceName = "rename"
    #endif

    /// Puts a new file in the place of another in one atomic step: a reader, and a process that
    /// dies at any moment, sees the old file or the new one at `path`, never neither.
    ///
    /// A flushed file is renamed. An unflushed one (the app-kill level), on Linux, takes the old
    /// file's name by an exchange (`renameat2` with `RENAME_EXCHANGE`), and the old file, now at
    /// `temporary`, is removed: ext4 starts writing the new file to disk for a rename over an existing
    /// file (`auto_da_alloc`), which makes an unflushed write about three times as costly, and for an
    /// exchange it does not. Where the exchange is not supported, and on Apple platforms
    /// (APFS has no such write), it is a rename.
    ///
    /// - Parameters:
    ///   - temporary: The new file, beside `path`.
    ///   - path: The file to replace; it need not exist.
    ///   - flushed: Whether the new file was flushed to stable storage.
    /// - Returns: 0, or -1 with `errno` set by the call that failed; the new file is then still at
    ///   `temporary` and `path` is as it was.
    package static func replace(_ temporary: String, over path: String, flushed: Bool) -> Int32 {
        #if os(Linux) || os(Android)
            if !flushed, let exchange = renameExchange {
                if POSIX.retrying({ exchange(AT_FDCWD, temporary, AT_FDCWD, path, renameExchangeFlag) }) == 0 {
                    // If removing the old file fails, the clean-up of stale temporary files removes it.
                    _ = unlink(temporary)
                    return 0
                }
                // No file to exchange with, or not supported here: a rename does the same.
                let code = errno
                guard [ENOENT, EINVAL, ENOSYS, ENOTSUP, EOPNOTSUPP, EPERM].contains(code) else { return -1 }
            }
        #else
            // Apple platforms: always a rename.
        #endif
        return POSIX.retrying { rename(temporary, path) }
    }

    #if os(Linux) || os(Android)
        /// `RENAME_EXCHANGE` from `<linux/fs.h>`.
        private static let renameExchangeFlag: UInt32 = 1 << 1

        /// The C library's `renameat2`, looked up at run time: Swift's Glibc module does not import it
        /// (it is declared only with `_GNU_SOURCE`), and a C library without it (glibc before 2.28)
        /// leaves the store on `rename`.
        private static let renameExchange:
            (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
                guard let symbol = dlsym(nil, "renameat2") else { return nil }
                return unsafeBitCast(
                    symbol,
                    to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)
                        .self)
            }()
    #else
        // Apple platforms: ``replace(_:over:flushed:)`` renames; no exchange is looked up.
    #endif
}
