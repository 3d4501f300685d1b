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

#if !canImport(Darwin)
    import Synchronization
#else
    // Darwin: `Protected` keeps a `pthread_mutex_t` (`PlatformMutex`); `Synchronization.Mutex` needs
    // newer Apple systems than the package supports.
#endif

/// Small helpers over the C library's system calls, shared by the file store.
enum POSIX {
    /// The system's text for an error number, with the number: `Permission denied (errno 13)`.
    static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// The error number as a Foundation error, to keep as the underlying error.
    ///
    /// Never inlined: `POSIXErrorCode` is a resilient type of the C library's overlay, so a function
    /// that makes one in its body, even on a path it does not take, asks the runtime for the type's
    /// metadata when it starts, which the first read of a process pays (about 10,000 instructions).
    @inline(never)
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

    /// `open` of a path given as a string.
    ///
    /// The path-taking calls here lend a native string's own bytes as the C string
    /// (`withCString`): a `String` passed straight to a C parameter is copied into a new array at
    /// every call (`utf8CString`), and the store makes these calls at every launch and several times
    /// a write.
    ///
    /// - Parameters:
    ///   - path: The file's path.
    ///   - flags: The `O_` flags.
    ///   - mode: The permissions of a file it creates.
    /// - Returns: The descriptor, or -1 with `errno` set.
    static func openPath(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        path.withCString { open($0, flags, mode) }
    }

    /// `lstat` of a path given as a string (see ``openPath(_:_:_:)``).
    static func lstatPath(_ path: String, _ info: inout stat) -> Int32 {
        path.withCString { lstat($0, &info) }
    }

    /// `unlink` of a path given as a string (see ``openPath(_:_:_:)``).
    @discardableResult
    static func unlinkPath(_ path: String) -> Int32 {
        path.withCString { unlink($0) }
    }

    /// `rename` of paths given as strings (see ``openPath(_:_:_:)``).
    static func renamePath(_ from: String, _ to: String) -> Int32 {
        from.withCString { from in to.withCString { to in rename(from, to) } }
    }

    /// Writes a document's pieces in order through `writeVectors` (a `writev` of a descriptor), again
    /// from where a short write stopped, until every byte is written or a write fails.
    ///
    /// - Parameters:
    ///   - pieces: The bytes to write, in order; empty pieces are left out.
    ///   - writeVectors: Writes from the vectors given, as many as given (at most 3), and returns how
    ///     many bytes it wrote, or -1 with `errno` set.
    /// - Returns: `nil`, or the error number of the write that failed.
    static func writeAll(
        _ pieces: StateDocument.Pieces, _ writeVectors: (UnsafePointer<iovec>, Int32) -> Int
    ) -> Int32? {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: 3) { vectors -> Int32? in
            var count = 0
            func add(_ piece: UnsafeRawBufferPointer) {
                guard let start = piece.baseAddress, !piece.isEmpty else { return }
                vectors[count] = iovec(iov_base: UnsafeMutableRawPointer(mutating: start), iov_len: piece.count)
                count += 1
            }
            add(pieces.head)
            add(pieces.records)
            add(pieces.tail)
            var first = 0
            while first < count {
                let written = writeVectors(vectors.baseAddress! + first, Int32(count - first))
                if written < 0 { return errno }
                // No byte written of what remains: not a regular file's behaviour, and no progress to wait for.
                if written == 0 { return EIO }
                // Past the pieces written whole, and into the one written in part.
                var rest = written
                while first < count, rest >= vectors[first].iov_len {
                    rest -= vectors[first].iov_len
                    first += 1
                }
                if rest > 0 {
                    vectors[first].iov_base = vectors[first].iov_base.map { $0 + rest }
                    vectors[first].iov_len -= rest
                }
            }
            return nil
        }
    }

    /// Whether a mode is a regular file, a folder or a symbolic link.
    ///
    /// The file-type bits are the values POSIX gives them, the same on Linux and Apple platforms,
    /// written out: Glibc's `S_IFMT` and `S_IFREG` are functions of its Swift overlay, and each first
    /// call in a process costs the dynamic linker a symbol lookup at every cold start.
    static func isRegularFile(_ mode: mode_t) -> Bool { mode & fileTypeMask == 0o100000 }
    static func isDirectory(_ mode: mode_t) -> Bool { mode & fileTypeMask == 0o040000 }
    static func isSymbolicLink(_ mode: mode_t) -> Bool { mode & fileTypeMask == 0o120000 }
    /// The file-type bits of a mode (`S_IFMT`).
    private static let fileTypeMask: mode_t = 0o170000

    /// Whether the process with this id is known to be gone: `kill(pid, 0)` says no such process.
    static func processIsGone(_ pid: pid_t) -> Bool {
        pid > 0 && kill(pid, 0) == -1 && errno == ESRCH
    }
}

/// A value guarded by a mutex, for the little mutable state the stores keep.
///
/// Copies share the value, as references to one object would. It is a generic struct over a class
/// that is not generic, rather than a generic class, because each generic class used costs the
/// runtime an instantiation of its metadata at its first use in a process (10 to 25 thousand
/// instructions; the file store, made at every cold start of an app, holds two of them).
struct Protected<Value>: @unchecked Sendable {
    private let storage: ProtectedStorage

    init(_ value: Value) {
        let pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        pointer.initialize(to: value)
        storage = ProtectedStorage(UnsafeMutableRawPointer(pointer)) { raw in
            let typed = raw.assumingMemoryBound(to: Value.self)
            typed.deinitialize(count: 1)
            typed.deallocate()
        }
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
            storage.mutex.lock()
            defer { storage.mutex.unlock() }
            return try body(&storage.value.assumingMemoryBound(to: Value.self).pointee)
        #else
            let value = storage.value
            // The result leaves the lock as a `sending` value; the value it guards never does.
            return try storage.mutex.withLock { _ in
                LockedResult(try body(&value.assumingMemoryBound(to: Value.self).pointee))
            }.value
        #endif
    }
}

#if !canImport(Darwin)
    /// A result handed out of `Mutex.withLock`, whose result is `sending`: a ``Protected`` value is
    /// only ever reached under its lock, so what the body returns is the caller's alone.
    private struct LockedResult<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
#else
    // Darwin: `PlatformMutex.withLock` returns its body's result as is; nothing to carry.
#endif

/// The memory of a ``Protected`` value, its mutex, and how to destroy the value.
private final class ProtectedStorage: @unchecked Sendable {
    #if canImport(Darwin)
        /// A `pthread_mutex_t` of its own: `Synchronization.Mutex` needs newer Apple systems than
        /// the package supports.
        let mutex = PlatformMutex()
    #else
        /// Held in the object itself: taking it and giving it up uncontended are atomic operations
        /// compiled into the caller, with no allocation of its own and no call into the C library,
        /// whose first calls in a process each cost a symbol lookup at every cold start.
        let mutex = Mutex<Void>(())
    #endif
    /// The value, of the type its ``Protected`` knows; read and written only while holding `mutex`.
    let value: UnsafeMutableRawPointer
    /// Deinitializes and frees `value`.
    let destroy: (UnsafeMutableRawPointer) -> Void

    init(_ value: UnsafeMutableRawPointer, destroy: @escaping (UnsafeMutableRawPointer) -> Void) {
        self.value = value
        self.destroy = destroy
    }

    deinit { destroy(value) }
}
