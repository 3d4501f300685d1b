import Foundation
import UpgradeCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// Small helpers over the C library's system calls, shared by the file store.
enum POSIX {
    /// The system's text for an error number, with the number: `Permission denied (errno 13)`.
    static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// The error number as a Foundation error, to keep as the underlying error.
    static func error(_ code: Int32) -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }

    /// Calls `body` again while it fails with `EINTR`.
    static func retrying<Result: BinaryInteger>(_ body: () -> Result) -> Result {
        while true {
            let result = body()
            if result != -1 || errno != EINTR { return result }
        }
    }

    /// Writes every byte to `descriptor` through `writeBytes` (a `write` of the descriptor), again
    /// from where a short write stopped.
    ///
    /// - Parameters:
    ///   - bytes: The bytes to write.
    ///   - writeBytes: Writes from the pointer as many bytes as given, and returns how many it wrote,
    ///     or -1 with `errno` set.
    /// - Returns: `nil`, or the error number of the write that failed.
    static func writeAll(_ bytes: [UInt8], _ writeBytes: (UnsafeRawPointer, Int) -> Int) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            var written = 0
            while written < raw.count {
                let count = writeBytes(raw.baseAddress! + written, raw.count - written)
                if count < 0 { return errno }
                // No byte written: not a regular file's behaviour, and no progress to wait for.
                if count == 0 { return EIO }
                written += count
            }
            return nil
        }
    }

    /// Reads a file into an array through `readBytes` (a `read` of its descriptor) to its end: a
    /// read that returns nothing, or fewer bytes than there was room for (the files of the store are
    /// regular files, replaced by rename and never written in place, so a short read is their end).
    ///
    /// - Parameters:
    ///   - capacity: The room made at first, doubled whenever a read fills it.
    ///   - limit: Reading stops once more than this many bytes are read.
    ///   - readBytes: Reads into the pointer at most as many bytes as given, and returns how many it
    ///     read, or -1 with `errno` set.
    /// - Returns: The bytes read, and the error number of a read that failed.
    static func readAll(capacity: Int, limit: Int, _ readBytes: (UnsafeMutableRawPointer, Int) -> Int)
        -> (bytes: [UInt8], failure: Int32?)
    {
        var bytes = [UInt8](repeating: 0, count: max(capacity, 1))
        var count = 0
        var failure: Int32?
        while count <= limit {
            if count == bytes.count { bytes += [UInt8](repeating: 0, count: bytes.count) }
            let room = bytes.count - count
            let got = bytes.withUnsafeMutableBytes { raw in readBytes(raw.baseAddress! + count, room) }
            if got < 0 {
                failure = errno
                break
            }
            count += got
            if got < room { break }
        }
        bytes.removeSubrange(count...)
        return (bytes, failure)
    }

    // Whether a mode is a regular file, a folder or a symbolic link: the file-type bits are the values
    // POSIX gives them, the same on Linux and Apple platforms.
    static func isRegularFile(_ mode: mode_t) -> Bool { mode & fileTypeMask == 0o100000 }
    static func isDirectory(_ mode: mode_t) -> Bool { mode & fileTypeMask == 0o040000 }
    static func isSymbolicLink(_ mode: mode_t) -> Bool { mode & fileTypeMask == 0o120000 }
    /// The file-type bits of a mode (`S_IFMT`).
    private static let fileTypeMask: mode_t = 0o170000

    /// Whether `kill(pid, 0)` says there is no such process.
    static func processIsGone(_ pid: pid_t) -> Bool {
        pid > 0 && kill(pid, 0) == -1 && errno == ESRCH
    }
}
