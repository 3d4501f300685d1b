/// The interruption of one running launch (<doc:LaunchAlgorithm>, "Interruptions" and "Suspension"):
/// what the launch must write if it is interrupted now, its store's lock, and its task.
///
/// Every write of the launch goes through ``write(_:_:)`` and every change by a step's result through
/// ``change(_:)``; ``interrupt()``, from any thread, writes what the launch must, gives the lock up and
/// cancels the task before it returns. The mutex orders it with the driver's writes.
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
    /// Whether `stored` is known: a change drops it (the next write, or the interruption's, sets it).
    private var knowsStored = true
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

    /// Whether the store holds `state`, as far as the launch knows (after an interruption: as it wrote
    /// it).
    func stores(_ state: UpgradeState?) -> Bool {
        mutex.withLock { knowsStored && stored == state }
    }

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

    /// Sets the state the launch read, which the store holds until its first write.
    func read(_ state: UpgradeState?) {
        mutex.withLock { stored = state }
    }

    /// Carries out a write of the launch unless the launch was interrupted.
    ///
    /// - Parameters:
    ///   - state: The state written.
    ///   - body: The write.
    /// - Returns: `false` when the launch was interrupted, and nothing was written.
    /// - Throws: What `body` throws.
    func write(_ state: UpgradeState, _ body: () throws -> Void) throws -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
        guard !interrupted else { return false }
        try body()
        stored = state
        knowsStored = true
        pending = state
        return true
    }

    /// Runs `body`, which changes the launch's state, unless the launch was interrupted, and keeps
    /// the state it returns for an interruption to write. Holding the mutex, and keeping no
    /// reference to the launch's state while `body` runs, so that the change copies none of the
    /// state's lists.
    ///
    /// - Returns: `false` when the launch was interrupted, and `body` did not run.
    func change(_ body: () -> UpgradeState) -> Bool {
        mutex.lock()
        defer { mutex.unlock() }
        guard !interrupted else { return false }
        stored = nil
        knowsStored = false
        pending = nil
        pending = body()
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
                let written = pending.interruptingStepInProgress()
                do {
                    try store.save(written)
                    stored = written
                    knowsStored = true
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
