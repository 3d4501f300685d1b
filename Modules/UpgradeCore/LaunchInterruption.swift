/// The interruption of one running launch (<doc:LaunchAlgorithm>, "Interruptions" and "Suspension"):
/// what the launch must write if it is interrupted now, its store's lock, and its task.
///
/// The launch's driver keeps it current: every write of the launch goes through ``write(_:then:)``,
/// which also records what an interruption would write while the step it announces runs. An
/// interruption (the store's lock told that the system ended the background time, the launch's task
/// cancelled, or ``Upgrader/interruptLaunch()``) calls ``interrupt()`` from any thread, synchronously:
/// it writes that state, gives the store's lock up, and cancels the launch's task, all before it
/// returns, so that a process suspended right after holds no lock and has counted no attempt. The
/// mutex orders it with the driver's writes: no write of the launch follows an interruption's.
final class LaunchInterruption: @unchecked Sendable {
    private let mutex = PlatformMutex()
    private let store: any UpgradeStore
    private let lock: any UpgradeStoreLock
    // Guarded by `mutex`:
    private var interrupted = false
    private var unlocked = false
    /// The state an interruption writes: the running step's attempt as an uncounted interruption, or
    /// the launch's unwritten changes; `nil` when the store holds what the launch has.
    private var pending: UpgradeState?
    /// The state the store holds as far as this launch knows: as it read it, or as it last wrote it.
    private var stored: UpgradeState?
    private var task: Task<UpgradeReport, any Error>?
    /// What the interruption's own write threw, for the report.
    private var writeFailure: (any Error)?

    /// The launches that can be interrupted now, by the identity of their state.
    private static let mutex = PlatformMutex()
    nonisolated(unsafe) private static var active: [String: LaunchInterruption] = [:]

    /// Creates the interruption of a launch that holds `lock` and read `stored`.
    init(store: any UpgradeStore, lock: any UpgradeStoreLock, stored: UpgradeState?) {
        self.store = store
        self.lock = lock
        self.stored = stored
    }

    /// Whether the launch was interrupted.
    var isInterrupted: Bool { mutex.withLock { interrupted } }

    /// The state the store holds as far as the launch knows (after an interruption: what it wrote).
    var storedState: UpgradeState? { mutex.withLock { stored } }

    /// The error the interruption's write threw, if it threw.
    var failure: (any Error)? { mutex.withLock { writeFailure } }

    /// Makes the launch's task the one an interruption cancels; cancels it at once if the launch
    /// was interrupted already.
    func attach(_ task: Task<UpgradeReport, any Error>) {
        let cancelNow = mutex.withLock {
            self.task = task
            return interrupted
        }
        if cancelNow { task.cancel() }
    }

    /// Sets the state for a read that replaced the launch's knowledge of the store.
    func read(_ state: UpgradeState?) {
        mutex.withLock { stored = state }
    }

    /// Sets what an interruption writes now: the launch's unwritten changes (or, after a write that
    /// announced a step, that step's uncounted interruption). `nil`: nothing.
    func setPending(_ state: UpgradeState?) {
        mutex.withLock { pending = state }
    }

    /// Carries out a write of the launch unless the launch was interrupted, and sets what an
    /// interruption writes from then on.
    ///
    /// - Parameters:
    ///   - state: The state written.
    ///   - body: The write.
    ///   - after: What an interruption writes after this write; `nil`: nothing.
    /// - Returns: `false` when the launch was interrupted, and nothing was written.
    /// - Throws: What `body` throws.
    func write(_ state: UpgradeState, _ body: () throws -> Void, then after: UpgradeState?) throws -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
        guard !interrupted else { return false }
        try body()
        stored = state
        pending = after
        return true
    }

    /// Interrupts the launch: writes what it must (the running step's attempt as an uncounted
    /// interruption, or its unwritten changes), gives the store's lock up, and cancels the launch's
    /// task; once, from any thread, and done when it returns.
    func interrupt() {
        let task: Task<UpgradeReport, any Error>? = mutex.withLock {
            guard !interrupted else { return nil }
            interrupted = true
            if let pending {
                do {
                    try store.save(pending)
                    stored = pending
                } catch {
                    writeFailure = error
                }
                self.pending = nil
            }
            unlockOnce()
            return self.task
        }
        task?.cancel()
    }

    /// Gives the store's lock up, unless an interruption did; called when the launch ends.
    func release() {
        mutex.withLock { unlockOnce() }
    }

    /// Gives the lock up once; holding `mutex`.
    private func unlockOnce() {
        guard !unlocked else { return }
        unlocked = true
        lock.unlock()
    }

    /// Makes the launch interruptible by ``Upgrader/interruptLaunch()`` under `identity`, until
    /// ``deactivate(_:)``.
    func activate(_ identity: String) {
        Self.mutex.withLock { Self.active[identity] = self }
    }

    /// Ends what ``activate(_:)`` began.
    func deactivate(_ identity: String) {
        Self.mutex.withLock { if Self.active[identity] === self { Self.active[identity] = nil } }
    }

    /// Interrupts the launch of `identity` running in this process, if there is one.
    ///
    /// - Returns: Whether a launch was running.
    static func interrupt(_ identity: String) -> Bool {
        guard let launch = mutex.withLock({ active[identity] }) else { return false }
        launch.interrupt()
        return true
    }
}
