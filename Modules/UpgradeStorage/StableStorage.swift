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

    /// Puts a new file in the place of another in one atomic step (`rename`): a reader, and a
    /// process that dies at any moment, sees the old file or the new one at `path`, never neither.
    ///
    /// - Parameters:
    ///   - temporary: The new file, beside `path`.
    ///   - path: The file to replace; it need not exist.
    /// - Returns: 0, or -1 with `errno` set by the call that failed; the new file is then still at
    ///   `temporary` and `path` is as it was.
    package static func replace(_ temporary: String, over path: String) -> Int32 {
        POSIX.retrying { rename(temporary, path) }
    }
}
