import UpgradeCore

/// A store that keeps the state in memory: for tests, previews and the simulator.
///
/// It can be told to fail writes, so that an app can test how its launch handles a store fault, and
/// to behave as if the process died, so that a simulator can replay crashes without killing a process.
///
/// ```swift
/// let store = InMemoryUpgradeStore()
/// store.failWrite(number: 2)          // the second write from now throws
/// ```
public final class InMemoryUpgradeStore: UpgradeStore, @unchecked Sendable {
    private let mutex = PlatformMutex()
    private let launches: LaunchGate
    private var stored: UpgradeState?
    private var records: [LaunchRecord] = []
    private var writes = 0
    private var failingWrite: Int?
    private var failEvery = false
    private var faultError: (any Error)?
    private var dead = false
    private var dataAvailable = true

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - state: The state it starts with; `nil` (the default) is a fresh install.
    ///   - history: The history of launches it starts with, oldest first; empty by default.
    ///   - lockTimeout: How long ``lockForLaunch()`` waits for another launch before it throws
    ///     `UpgradeStoreError.Code.busy`; `nil` (the default) waits as long as it takes.
    public init(state: UpgradeState? = nil, history: [LaunchRecord] = [], lockTimeout: Duration? = nil) {
        self.stored = state
        self.records = Array(history.suffix(LaunchRecord.historyLimit))
        self.launches = LaunchGate(location: "memory", timeout: lockTimeout)
    }

    /// The state as it is stored now.
    public var state: UpgradeState? { mutex.withLock { stored } }

    /// Whether the app's protected data is readable, as on a device unlocked since its restart;
    /// `true` by default. Set it to `false` to model a device locked since its restart
    /// (<doc:ProtectedData>): ``load()`` and ``save(_:)`` then throw
    /// `UpgradeStoreError.Code.protectedDataUnavailable`, so that a launch decides nothing and ends
    /// `deferred`, and a follower too.
    public var protectedDataAvailable: Bool {
        get { mutex.withLock { dataAvailable } }
        set { mutex.withLock { dataAvailable = newValue } }
    }

    /// The error of a read or write while protected data is unavailable.
    private static let unavailable = UpgradeStoreError(
        code: .protectedDataUnavailable, location: "memory",
        detail: "protected data is unavailable (a device locked since its restart, modelled by this store);"
            + " nothing was read or written")

    /// How many writes succeeded since the store was created.
    public var writeCount: Int { mutex.withLock { writes } }

    /// Makes a write fail: the `number`-th write from now (1 is the next one).
    ///
    /// - Parameters:
    ///   - number: Which write from now fails, from 1.
    ///   - error: The error it throws; an `UpgradeStoreError` with code
    ///     `UpgradeStoreError.Code.injectedFault` by default.
    public func failWrite(number: Int, error: (any Error)? = nil) {
        mutex.withLock {
            failingWrite = number
            faultError = error
        }
    }

    /// Makes every write fail from now on, until ``stopFailingWrites()``.
    ///
    /// - Parameter error: The error each write throws; an injected-fault `UpgradeStoreError` by default.
    public func failEveryWrite(error: (any Error)? = nil) {
        mutex.withLock {
            failEvery = true
            faultError = error
        }
    }

    /// Lets writes succeed again.
    public func stopFailingWrites() {
        mutex.withLock {
            failEvery = false
            failingWrite = nil
        }
    }

    /// Behaves from now on as a store whose process has died: every write throws and changes nothing,
    /// so the state stays exactly as the last write before left it.
    public func simulateProcessDeath() {
        mutex.withLock { dead = true }
    }

    /// Whether ``simulateProcessDeath()`` was called.
    public var processDied: Bool { mutex.withLock { dead } }

    /// Replaces the state and clears every write fault and a simulated death, as a new store with
    /// that state would be; for walks that launch again and again from chosen states.
    ///
    /// - Parameter state: The state to hold; `nil` is a fresh install.
    public func reset(to state: UpgradeState?) {
        mutex.withLock {
            stored = state
            records = []
            dead = false
            failEvery = false
            failingWrite = nil
            faultError = nil
        }
    }

    /// Reads the state.
    ///
    /// - Returns: The state, or `nil` when none was stored.
    /// - Throws: `UpgradeStoreError.Code.protectedDataUnavailable` while ``protectedDataAvailable``
    ///   is `false`.
    public func load() throws -> UpgradeState? {
        try mutex.withLock {
            guard dataAvailable else { throw Self.unavailable }
            return stored
        }
    }

    /// `memory ADDRESS`: this store object, which is the state it holds; concurrent launches through
    /// it in the process are one launch.
    public var stateIdentity: String? { "memory \(UInt(bitPattern: ObjectIdentifier(self)))" }

    /// Replaces the state, unless a write fault is set or the process has died.
    ///
    /// - Parameter state: The state to keep.
    /// - Throws: The injected error, or an `UpgradeStoreError` after a simulated death or while
    ///   ``protectedDataAvailable`` is `false`.
    public func save(_ state: UpgradeState) throws {
        try mutex.withLock {
            guard dataAvailable else { throw Self.unavailable }
            if dead {
                throw UpgradeStoreError(
                    code: .injectedFault, location: "memory", detail: "the process died; nothing more is written")
            }
            if failEvery || failingWrite == 1 {
                failingWrite = nil
                throw faultError
                    ?? UpgradeStoreError(code: .injectedFault, location: "memory", detail: "injected write failure")
            }
            if let pending = failingWrite { failingWrite = pending - 1 }
            stored = state
            writes += 1
        }
    }

    /// Saves the state as ``save(_:)`` does (failing like it when told to) and adds the record to
    /// the history, keeping the newest `LaunchRecord.historyLimit`.
    ///
    /// - Parameters:
    ///   - state: The state to keep.
    ///   - record: The launch's record.
    /// - Returns: `nil`: an in-memory history is always kept.
    /// - Throws: As ``save(_:)`` does.
    public func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
        try save(state)
        mutex.withLock {
            records.append(record)
            if records.count > LaunchRecord.historyLimit {
                records.removeFirst(records.count - LaunchRecord.historyLimit)
            }
        }
        return nil
    }

    /// The history of launches, oldest first.
    ///
    /// - Returns: The records kept.
    public func history() -> [LaunchRecord] { mutex.withLock { records } }

    /// Removes the state and the history, so that the store is as a fresh install left it; write
    /// faults and a simulated death stay as they are.
    ///
    /// - Throws: An `UpgradeStoreError` after a simulated death, changing nothing.
    public func removeAll() throws {
        try mutex.withLock {
            if dead {
                throw UpgradeStoreError(
                    code: .injectedFault, location: "memory", detail: "the process died; nothing more is removed")
            }
            stored = nil
            records = []
        }
    }

    /// Waits for exclusive access; launches through this store run one at a time.
    ///
    /// - Returns: The lock.
    /// - Throws: `UpgradeStoreError.Code.busy` when a lock timeout is set and passes.
    public func lockForLaunch() async throws -> any UpgradeStoreLock {
        try await launches.lock()
    }
}
