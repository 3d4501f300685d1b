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
        var locked = false
        defer { if !locked { close(descriptor) } }
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
        locked = true
        Self.writeHolder(descriptor, size: Int64(info.st_size))
        // At every launch, not only after a holder that died: a power cut can undo what a holder wrote
        // into the lock file, but not the temporary file it left.
        removeStaleTemporaryFiles()
        return keepingAlive(descriptor)
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

// Keeping the app running while a launch holds the lock in a shared container (termination reason
// 0xdead10cc): "Kept running while locked" in FileStoreGuarantees.md says what and why.

/// Time the system gives the process to run while a launch holds the lock.
package struct LaunchActivity: Sendable {
    /// Begins an activity and returns the function that ends it, which the store calls once. If the
    /// system ends the activity first, it calls `expired`, from any thread.
    package let begin:
        @Sendable (_ reason: () -> String, _ expired: @escaping @Sendable () -> Void) -> @Sendable () -> Void

    /// An activity made of these functions; tests pass their own.
    package init(
        begin:
            @escaping @Sendable (_ reason: () -> String, _ expired: @escaping @Sendable () -> Void) ->
            @Sendable () -> Void
    ) {
        self.begin = begin
    }

    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        /// `performExpiringActivity(withReason:using:)`: the activity lasts while the block runs, so
        /// the block waits until the lock is given up; when the system takes the time back, it calls
        /// the block again with `true`, and the store is told.
        package static let system = LaunchActivity { reason, expired in
            let ended = DispatchSemaphore(value: 0)
            ProcessInfo.processInfo.performExpiringActivity(withReason: reason()) { isExpired in
                if isExpired {
                    expired()
                    ended.signal()
                } else {
                    ended.wait()
                }
            }
            return { ended.signal() }
        }
    #else
        /// macOS and Linux do not suspend a process that holds a lock: nothing to begin.
        package static let system = LaunchActivity { _, _ in {} }
    #endif
}

extension FileUpgradeStore {
    /// Replaces the activity begun while a launch holds the lock; for tests.
    ///
    /// - Parameter activity: The activity.
    package func useLaunchActivity(_ activity: LaunchActivity) {
        memory.withLock { $0.launchActivity = activity }
    }

    /// Called with the lock file just locked: picks up the mark an earlier launch left, and begins the
    /// activity, which the returned lock ends once it has given the file lock up.
    private func keepingAlive(_ descriptor: Int32) -> any UpgradeStoreLock {
        let activity = memory.withLock { $0.launchActivity }
        let lock = ActiveLaunchLock(store: self, descriptor: descriptor, notice: takeExpiryMark())
        let held = lock.held
        let end = activity.begin({ "AppUpgrade launch holding the lock \(lockPath)" }) { held.expired() }
        held.started(end)
        return lock
    }

    /// Reads and removes the mark of an earlier launch, if there is one: a launch of an earlier
    /// version of this package kept the lock when its activity expired and left this mark; a launch
    /// now gives the lock up instead (<doc:LaunchAlgorithm>, "Suspension"), and leaves none.
    ///
    /// - Returns: The notice for this launch's report.
    private func takeExpiryMark() -> String? {
        var info = stat()
        guard lstat(expiryMarkPath, &info) == 0 else { return nil }
        defer { unlink(expiryMarkPath) }
        var who = "an earlier launch"
        let data = POSIX.isRegularFile(info.st_mode) ? FileManager.default.contents(atPath: expiryMarkPath) : nil
        let fields = String(decoding: (data ?? Data()).prefix(200), as: UTF8.self).split(separator: " ")
        if fields.count == 2, let pid = Int(fields[0]) {
            who += " (process \(pid), \(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)))"
        }
        return "\(who) still held the upgrade lock \(lockPath) when the system ended the background time"
            + " that kept the app running; an app suspended while it holds a file lock in a shared container"
            + " is terminated (0xdead10cc), so that launch was probably ended there: a step it was running"
            + " counts as interrupted and runs again"
    }
}

/// The lock of a launch, over its open lock file: ``unlock()`` gives the file lock up (closing the
/// file), then ends the activity, once; so does releasing the last reference, so that a lock dropped
/// by mistake is not held forever. When the system ends the activity, the lock calls the launch's
/// expiry handler (``setExpiryHandler(_:)``), which writes what the launch must and gives the lock
/// up before it returns (<doc:LaunchAlgorithm>, "Suspension"); with no handler, it gives the lock up
/// itself.
final class ActiveLaunchLock: UpgradeStoreLock {
    /// The open file and what happened to it. The activity's expiry holds this, not the lock, so that
    /// the activity does not keep the lock alive and the lock needs no weak reference.
    let held: Held

    /// Keeps the store alive as long as its lock.
    private let store: FileUpgradeStore

    /// What the lock found about an earlier launch (its expiry mark), for this launch's report.
    let notice: String?

    init(store: FileUpgradeStore, descriptor: Int32, notice: String?) {
        self.store = store
        self.held = Held(descriptor: descriptor)
        self.notice = notice
    }

    /// Keeps the launch's expiry handler; calls it at once if the activity expired already.
    func setExpiryHandler(_ handler: @escaping @Sendable () -> Void) {
        held.setExpiryHandler(handler)
    }

    /// Gives the lock up.
    func unlock() {
        held.unlock()
    }

    deinit { held.unlock() }
}

extension ActiveLaunchLock {
    /// The open lock file of a launch, with the function that ends its activity and the launch's
    /// expiry handler.
    final class Held: Sendable {
        private struct State {
            var unlocked = false
            var expired = false
            var end: @Sendable () -> Void = {}
            var handler: (@Sendable () -> Void)?
        }

        private let descriptor: Int32
        private let state = Protected(State())

        init(descriptor: Int32) {
            self.descriptor = descriptor
        }

        /// Keeps the function that ends the activity; ends it at once if the lock was given up already.
        func started(_ end: @escaping @Sendable () -> Void) {
            let unlocked = state.withLock { state in
                if state.unlocked { return true }
                state.end = end
                return false
            }
            if unlocked { end() }
        }

        /// Keeps the launch's expiry handler; calls it at once if the activity expired already.
        func setExpiryHandler(_ handler: @escaping @Sendable () -> Void) {
            let expired = state.withLock { state in
                if !state.unlocked { state.handler = handler }
                return state.expired
            }
            if expired { handler() }
        }

        /// The system ended the activity: the launch's handler writes what it must and gives the lock
        /// up, before this returns; without a handler (yet), the lock is given up now, and a handler
        /// set later is called at once. Called from any thread; once.
        func expired() {
            let handler = state.withLock { state -> (@Sendable () -> Void)?? in
                guard !state.expired, !state.unlocked else { return .none }
                state.expired = true
                return .some(state.handler)
            }
            guard case .some(let interrupt) = handler else { return }
            interrupt?()
            unlock()
        }

        /// Gives the lock up: the file lock, the file, then the activity; once.
        func unlock() {
            let end = state.withLock { state -> (@Sendable () -> Void)? in
                guard !state.unlocked else { return nil }
                state.unlocked = true
                defer {
                    state.end = {}
                    state.handler = nil  // the launch's interruption, which holds the lock
                }
                return state.end
            }
            guard let end else { return }
            _ = flock(descriptor, LOCK_UN)
            close(descriptor)
            end()
        }
    }
}
