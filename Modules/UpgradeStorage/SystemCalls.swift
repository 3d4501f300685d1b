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

    /// Writes every byte through `writeBytes` (a `write` of a descriptor, returning how many bytes it
    /// wrote or -1 with `errno` set), again from where a short write stopped.
    ///
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

    /// Reads a file through `readBytes` (a `read` of its descriptor, returning how many bytes it read
    /// or -1 with `errno` set) to its end: a read that returns fewer bytes than there was room for
    /// (the store's files are regular files, replaced by rename and never written in place).
    ///
    /// - Parameters:
    ///   - capacity: The room made at first, doubled whenever a read fills it.
    ///   - limit: Reading stops once more than this many bytes are read.
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

/// A system call of the file store that can fail, as ``FileStoreCalls`` sees it.
package enum FileStoreOperation: Sendable, Hashable, CaseIterable {
    /// Opening or reading the document.
    case read
    /// Creating the temporary file.
    case create
    /// Writing the temporary file.
    case write
    /// Flushing the temporary file to disk.
    case sync
    /// Renaming the temporary file over the document.
    case rename
    /// Flushing the folder after the rename.
    case syncFolder
    /// Flushing a journal after writing a record to it (the power-loss level's one flush per write).
    case syncJournal
    /// Removing the document or the history file, for `removeAll()`.
    case remove
    /// Opening, reading or creating the probe that tells whether protected data is readable
    /// (``ProtectedDataProbe``).
    case probe
}

/// The seam between a file store and its system calls: the store makes each call that can fail
/// through ``perform(_:_:)`` of the calls it was made with. An app's store makes them as they are
/// (``SystemCalls``); tests make a store whose calls fail when told to (``FaultInjectingCalls``), and
/// the power-cut tests' mutation check one whose flushes do nothing (``SkippingFlushes``).
package protocol FileStoreCalls: Sendable {
    /// Makes one system call, or stands in for it.
    ///
    /// - Parameters:
    ///   - operation: What the call does.
    ///   - call: The call, returning -1 with `errno` set on failure.
    /// - Returns: What the call returned, or what stands in for it.
    func perform<Result: BinaryInteger>(_ operation: FileStoreOperation, _ call: () -> Result) -> Result
}

/// The system's calls, made again while a signal interrupts them.
package struct SystemCalls: FileStoreCalls {
    package init() {}

    package func perform<Result: BinaryInteger>(_ operation: FileStoreOperation, _ call: () -> Result) -> Result {
        POSIX.retrying(call)
    }
}

/// The system's calls, but those a test planned fail with the error number it gave.
package final class FaultInjectingCalls: FileStoreCalls {
    private let plan = Protected<[(operation: FileStoreOperation, code: Int32, remaining: Int)]>([])
    private let locked = Protected(false)

    package init() {}

    /// Makes protected data unavailable, as on a device locked since its restart, or available again:
    /// while it is unavailable, every read, creation and probe fails with `EPERM`, as opening a
    /// protected file does then.
    package func setProtectedDataAvailable(_ available: Bool) {
        locked.withLock { $0 = !available }
    }

    /// Makes the next `times` calls of `operation` fail with `code`, in place of any failures planned
    /// before for it; none when `times` is 0.
    package func inject(_ code: Int32, at operation: FileStoreOperation, times: Int = 1) {
        plan.withLock { plan in
            plan.removeAll { $0.operation == operation }
            if times > 0 { plan.append((operation, code, times)) }
        }
    }

    package func perform<Result: BinaryInteger>(_ operation: FileStoreOperation, _ call: () -> Result) -> Result {
        if [.read, .create, .probe].contains(operation), locked.withLock({ $0 }) {
            errno = EPERM
            return -1
        }
        let fault = plan.withLock { plan -> Int32? in
            guard let index = plan.firstIndex(where: { $0.operation == operation }) else { return nil }
            plan[index].remaining -= 1
            let code = plan[index].code
            if plan[index].remaining == 0 { plan.remove(at: index) }
            return code
        }
        guard let fault else { return POSIX.retrying(call) }
        errno = fault
        return -1
    }
}

/// The system's calls without the flushes of the power-cut tests' mutation check: a store whose
/// writes at the power-loss level do not survive a power cut, which the power-cut tests must catch
/// (`upgrade-sim launch` makes it when UPGRADE_SIM_TEST_SKIP_FLUSH is set; nothing else does).
package struct SkippingFlushes: FileStoreCalls {
    /// A flush the mutation check can remove.
    package enum Flush: String, Sendable, Hashable, CaseIterable {
        /// The temporary file's flush, before the rename.
        case file
        /// The folder's flush, after the rename.
        case folder
        /// The journal's flush, after each record.
        case journal
        /// Not a flush: the journal's check of its records (lengths and checksum), so that a torn
        /// record is taken for a whole one.
        case tornCheck = "torn-check"
    }

    /// The flushes that do nothing.
    package let flushes: Set<Flush>

    package init(_ flushes: Set<Flush>) { self.flushes = flushes }

    package func perform<Result: BinaryInteger>(_ operation: FileStoreOperation, _ call: () -> Result) -> Result {
        if operation == .sync && flushes.contains(.file) || operation == .syncFolder && flushes.contains(.folder)
            || operation == .syncJournal && flushes.contains(.journal)
        {
            return 0
        }
        return POSIX.retrying(call)
    }
}

extension FileUpgradeStore {
    /// Makes the next `times` calls of `operation` fail with the error number `code`; for tests of a
    /// store made with ``FaultInjectingCalls``.
    package func injectFault(_ code: Int32, at operation: FileStoreOperation, times: Int = 1) {
        guard let faults = calls as? FaultInjectingCalls else {
            preconditionFailure("injectFault needs a store made with FaultInjectingCalls")
        }
        faults.inject(code, at: operation, times: times)
    }

    /// Makes a system call through the store's ``FileStoreCalls``.
    func call<Result: BinaryInteger>(_ operation: FileStoreOperation, _ body: () -> Result) -> Result {
        calls.perform(operation, body)
    }
}
