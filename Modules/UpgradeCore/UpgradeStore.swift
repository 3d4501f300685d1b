/// Where an app's ``UpgradeState`` is kept between launches.
///
/// UpgradeStorage provides in-memory, file and UserDefaults stores. A store holds one state.
///
/// A conforming store must:
/// - return `nil` from ``load()`` only when no state was ever stored (a fresh install), and throw for
///   any other failure to read: treating an unreadable state as a fresh install would skip every
///   step forever;
/// - replace the state atomically in ``save(_:)``, so that a reader sees either the old state or the
///   new one, whenever the process dies;
/// - give one launch at a time exclusive access through ``lockForLaunch()``, across processes where
///   several may share the state.
public protocol UpgradeStore: Sendable {
    /// Reads the stored state.
    ///
    /// - Returns: The state, or `nil` when none was ever stored.
    /// - Throws: ``UpgradeStoreError`` when the state exists but cannot be read or understood.
    func load() throws -> UpgradeState?

    /// Reads the stored state for a launch that holds exclusive access.
    ///
    /// A store that can recover from a corrupt document (when its owner opted in) does so here and
    /// says what it did in `notice`. The default calls ``load()``.
    ///
    /// - Returns: The state (or `nil`) and an optional notice for the launch report.
    /// - Throws: ``UpgradeStoreError`` when the state cannot be read.
    func loadForLaunch() throws -> (state: UpgradeState?, notice: String?)

    /// Reads the stored state for a launch's quick look, with ``UpgradeState/history`` left empty.
    ///
    /// The upgrader calls it, without the lock, to decide whether a launch has anything to do; it
    /// compares states and builds a report, and never needs the history. The state must be read
    /// and checked exactly as ``load()`` reads and checks it, history included, so that it fails
    /// whenever ``load()`` fails (with the same error) and otherwise returns what ``load()`` returns
    /// with an empty history; a store may only save the work of building the history's records.
    /// The default calls ``load()`` and drops the history.
    ///
    /// - Returns: The state without its history, or `nil` when none was ever stored.
    /// - Throws: As ``load()`` does.
    func loadWithoutHistory() throws -> UpgradeState?

    /// Replaces the stored state, atomically and durably.
    ///
    /// - Parameter state: The state to keep.
    /// - Throws: ``UpgradeStoreError`` when it cannot be written; the old state is then unchanged.
    func save(_ state: UpgradeState) throws

    /// Waits for exclusive access to the state, for the length of one launch.
    ///
    /// - Returns: The lock; the upgrader calls ``UpgradeStoreLock/unlock()`` when the launch ends.
    /// - Throws: ``UpgradeStoreError`` with code ``UpgradeStoreError/Code/busy`` when another launch
    ///   holds it past the store's timeout, or another error when it cannot be taken.
    func lockForLaunch() async throws -> any UpgradeStoreLock
}

extension UpgradeStore {
    /// Calls ``load()`` and gives no notice.
    public func loadForLaunch() throws -> (state: UpgradeState?, notice: String?) { (try load(), nil) }

    /// Calls ``load()`` and drops the history.
    public func loadWithoutHistory() throws -> UpgradeState? {
        guard var state = try load() else { return nil }
        state.history = []
        return state
    }
}

/// Exclusive access to a store, held by one launch.
public protocol UpgradeStoreLock: Sendable {
    /// Gives the access up; called once.
    func unlock()
}
