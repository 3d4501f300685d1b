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
}
