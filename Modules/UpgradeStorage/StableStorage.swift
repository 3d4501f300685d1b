#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// Flushing to stable storage: the one way the file store flushes a file or a folder, which the
/// benchmark's floor and the simulator's probe use too, so that they flush as the store does.
///
/// Follows Apple's manual pages fsync(2) and fcntl(2) (`F_FULLFSYNC`): on Apple platforms `fsync`
/// moves the data to the drive, which may keep it in its cache and write it later, and out of order;
/// `F_FULLFSYNC` also asks the drive to write everything it holds to permanent storage. A folder's
/// descriptor is flushed the same way, which is what makes a rename in it survive a power loss.
/// Where `F_FULLFSYNC` fails (a file system that does not support it, such as some network file
/// systems), `fsync` is the best there is, as SQLite also does. Elsewhere (Linux) `fsync` reaches
/// the disk, for files and folders alike.
package enum StableStorage {
    /// The call that ``flush(_:)`` makes, for reports: `F_FULLFSYNC` on Apple platforms, `fsync`
    /// elsewhere.
    #if canImport(Darwin)
        package static let callName = "F_FULLFSYNC"
    #else
        package static let callName = "fsync"
    #endif

    /// Flushes an open file or folder to stable storage: `F_FULLFSYNC` on Apple platforms (with
    /// `fsync` where it is not supported), `fsync` elsewhere. Calls interrupted by a signal are made
    /// again.
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
    /// With `flushed`, the caller flushed the new file and will flush the folder (the power-loss
    /// level): a `rename`. Without it (the app-kill level), on Linux the two names are exchanged
    /// (`renameat2` with `RENAME_EXCHANGE`) and the old file, now at `temporary`, is removed. ext4
    /// (in its default `auto_da_alloc` mode) makes a `rename` over an existing file start writing
    /// the new file to disk, to protect programs that replace files without flushing them; that
    /// costs more than the rest of the write (about 0.17 ms against 0.03 ms here), and an exchange
    /// does not do it. A reader that opened the old file keeps reading it whole, as with a rename.
    /// Where the exchange is not supported (another kernel or file system, no file at `path` yet),
    /// it is a `rename`. Elsewhere (Apple platforms) it is always a `rename`.
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
                let exchanged = temporary.withCString { from in
                    path.withCString { to in
                        POSIX.retrying { exchange(AT_FDCWD, from, AT_FDCWD, to, renameExchangeFlag) }
                    }
                }
                if exchanged == 0 {
                    // The old file is at `temporary` now; if removing it fails, it is left for the clean-up
                    // of stale temporary files, as after a death of the process here.
                    _ = temporary.withCString { unlink($0) }
                    return 0
                }
                let code = errno
                // No file to exchange with, or not supported here: a rename does the same.
                guard
                    code == ENOENT || code == EINVAL || code == ENOSYS || code == ENOTSUP || code == EOPNOTSUPP
                        || code == EPERM
                else { return -1 }
            }
        #else
            // Apple platforms: a rename over a file starts no write to disk (APFS has no counterpart of
            // ext4's auto_da_alloc), so there is nothing to avoid.
        #endif
        return temporary.withCString { from in path.withCString { to in POSIX.retrying { rename(from, to) } } }
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
