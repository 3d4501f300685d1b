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

extension FileUpgradeStore {
    /// Takes the advisory lock (`flock`) on `NAME.lock` beside the document, waiting up to
    /// ``lockTimeout``; see <doc:FileStoreGuarantees>.
    ///
    /// Holding the lock, the store removes temporary files left by writers that were killed. While the
    /// lock is held, the app is kept from being suspended on iOS, tvOS, watchOS and visionOS.
    ///
    /// - Returns: The lock; `UpgradeStoreLock.unlock()` gives it up.
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.busy` naming the path and
    ///   the wait when another launch holds the lock past the timeout (nothing is touched then);
    ///   `UpgradeStoreError.Code.unsafeLocation` when the lock file is a symbolic link; or
    ///   `UpgradeStoreError.Code.unreadable` when it cannot be opened or locked. `CancellationError`
    ///   when the task is cancelled while waiting.
    public func lockForLaunch() async throws -> any UpgradeStoreLock {
        try requireFileURL()
        let lockPath = self.lockPath
        func openLockFile() -> Int32 {
            POSIX.retrying { open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600)) }
        }
        var descriptor = openLockFile()
        if descriptor < 0, errno == ENOENT || errno == ENOTDIR {
            // The folder is missing (made now), or something else is in its way (named by prepareFolder).
            try prepareFolder()
            descriptor = openLockFile()
        }
        if descriptor < 0 {
            let code = errno
            if code == ELOOP { throw symbolicLinkRefused(at: lockPath) }
            throw failure(.unreadable, "the lock file cannot be opened", code, at: lockPath)
        }
        let handle = LockHandle(descriptor: descriptor)
        var info = stat()
        guard fstat(descriptor, &info) == 0, POSIX.isRegularFile(info.st_mode) else {
            throw UpgradeStoreError(code: .unsafeLocation, location: lockPath, detail: "is not a regular file")
        }
        if info.st_size == 0 { try setDataProtection(lockPath) }  // new: no holder has written its id yet
        let taken = try await pollForLock(timeout: lockTimeout) {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
            let code = errno
            if code == EWOULDBLOCK || code == EAGAIN || code == EINTR { return false }
            throw failure(.unreadable, "the lock file cannot be locked", code, at: lockPath)
        }
        guard taken else {
            let holder = Self.readHolder(descriptor).map { " (process \($0))" } ?? ""
            throw UpgradeStoreError(
                code: .busy, location: path,
                detail: "another launch\(holder) holds the upgrade lock \(lockPath); gave up after waiting"
                    + " \(lockTimeout), and nothing was read or written")
        }
        Self.writeHolder(descriptor, size: Int64(info.st_size))
        // At every launch, not only after a holder that died: a power cut can undo what a holder wrote
        // into the lock file, but not the temporary file it left.
        removeStaleTemporaryFiles()
        return keepingAlive(handle)
    }

    /// How many bytes the holder's id takes in the lock file: the id, padded with spaces, and a
    /// line feed.
    private static let holderWidth = 21

    /// Writes this process's id into the lock file, so that a launch that finds it busy can say who
    /// holds it; the lock itself is the `flock`. The id is written at a fixed width over the previous
    /// one, so that the file keeps its size and is truncated only when it has another.
    private static func writeHolder(_ descriptor: Int32, size: Int64) {
        let id = Array(String(getpid()).utf8)
        let text = id + [UInt8](repeating: UInt8(ascii: " "), count: holderWidth - 1 - id.count) + [UInt8(ascii: "\n")]
        if size != Int64(holderWidth) { _ = ftruncate(descriptor, 0) }
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, holderWidth, 0) }
    }

    /// The process id written by the lock's holder, if any.
    private static func readHolder(_ descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// The open lock file of a launch. Closing it gives the lock up; ``unlock()`` does that once, and so
/// does releasing the last reference, so that a lock dropped by mistake is not held forever.
final class LockHandle: UpgradeStoreLock {
    private let state: Protected<Int32?>

    init(descriptor: Int32) { state = Protected(descriptor) }

    /// Gives the lock up.
    func unlock() {
        let descriptor = state.withLock { held -> Int32? in
            defer { held = nil }
            return held
        }
        if let descriptor {
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    deinit { unlock() }
}
