/// Where an app's ``UpgradeState`` is kept between launches, with the history of launches beside it.
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
///   several may share the state;
/// - remove the state and its history in ``removeAll()``, for ``Upgrader/reset()`` (the default
///   throws: a store that keeps nothing removable says so).
///
/// A store may also name the state it keeps with ``stateIdentity``, so that concurrent launches of
/// it in a process are one launch, and read without adopting in ``loadWithoutAdopting()``, for
/// follower launches; both have defaults.
///
/// The history (``history()``, ``save(_:recording:)``) is for diagnostics: no launch rule reads it,
/// and a store may lose it (a store that keeps none returns an empty history).
public protocol UpgradeStore: Sendable {
    /// Reads the stored state.
    ///
    /// Every launch calls it first, without the lock, to decide whether it has anything to do; keep
    /// it cheap.
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

    /// Reads the state for ``Upgrader/plan(currentVersion:)`` as ``load()`` does, with a notice for
    /// what a launch would do that the state does not show, such as adopting a legacy version; it
    /// writes nothing.
    ///
    /// The default calls ``load()`` and gives no notice; a store that adopts a state when none is
    /// stored overrides it to say so.
    ///
    /// - Returns: The state a launch would start from (or `nil`) and an optional notice for the plan.
    /// - Throws: ``UpgradeStoreError`` as ``load()`` does.
    func loadForPlan() throws -> (state: UpgradeState?, notice: String?)

    /// Replaces the stored state, atomically and durably.
    ///
    /// - Parameter state: The state to keep.
    /// - Throws: ``UpgradeStoreError`` when it cannot be written; the old state is then unchanged.
    func save(_ state: UpgradeState) throws

    /// Replaces the stored state as ``save(_:)`` does, as a launch's last write, and adds the
    /// launch's record to the history, keeping the newest ``LaunchRecord/historyLimit`` records.
    ///
    /// A failure to keep the record never fails the launch: the state is saved (or the call throws
    /// as ``save(_:)`` throws), and the failure is returned as a notice for the launch report. The
    /// default saves the state and keeps no history.
    ///
    /// - Parameters:
    ///   - state: The state to keep.
    ///   - record: The launch's record for the history.
    /// - Returns: A notice when the record could not be kept; `nil` otherwise.
    /// - Throws: ``UpgradeStoreError`` when the state cannot be written.
    func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String?

    /// Reads the history of launches, oldest first.
    ///
    /// - Returns: At most ``LaunchRecord/historyLimit`` records; empty when none were kept.
    /// - Throws: ``UpgradeStoreError`` when the history exists but cannot be read.
    func history() throws -> [LaunchRecord]

    /// Waits for exclusive access to the state, for the length of one launch.
    ///
    /// - Returns: The lock; the upgrader calls ``UpgradeStoreLock/unlock()`` when the launch ends.
    /// - Throws: ``UpgradeStoreError`` with code ``UpgradeStoreError/Code/busy`` when another launch
    ///   holds it past the store's timeout, or another error when it cannot be taken.
    func lockForLaunch() async throws -> any UpgradeStoreLock

    /// Removes the stored state and the history of launches, so that the next launch is a fresh
    /// install.
    ///
    /// ``Upgrader/reset()`` calls it holding the lock of ``lockForLaunch()``. It removes whatever is
    /// stored, a document that cannot be read included. The default throws.
    ///
    /// - Throws: ``UpgradeStoreError`` when the state or the history cannot be removed; the default
    ///   throws one with code ``UpgradeStoreError/Code/unsupported``.
    func removeAll() throws

    /// Names the state this store keeps, the same for every store value in the process that keeps
    /// the same state: launches with equal identities are one launch in the process
    /// (<doc:LaunchAlgorithm>, "One launch per process"), so that two windows, or two copies of an
    /// upgrader, never wait on each other's lock.
    ///
    /// Read only by a launch that has work, never on the path of an up-to-date launch. The default
    /// is `nil`: the identity is unknown, and only launches through one ``Upgrader`` (and its
    /// copies) are shared. The stores of UpgradeStorage name the file's standardized path, the
    /// defaults suite and key, or the in-memory store object.
    var stateIdentity: String? { get }

    /// Reads the state as stored, for a follower launch (``LaunchRole/follower``): as ``load()``
    /// does, but never a state that the store derives when none is stored, such as a version
    /// adopted from a legacy key, which only the app may adopt (and write).
    ///
    /// The default calls ``load()``; a store that adopts overrides it.
    ///
    /// - Returns: The stored state, or `nil` when none is stored.
    /// - Throws: ``UpgradeStoreError`` when the state exists but cannot be read or understood.
    func loadWithoutAdopting() throws -> UpgradeState?
}

extension UpgradeStore {
    /// `nil`: the identity of the state is unknown; launches are shared only through one upgrader.
    public var stateIdentity: String? { nil }

    /// Calls ``load()``: a store that adopts nothing stores every state it reads.
    ///
    /// - Returns: What ``load()`` returns.
    /// - Throws: What ``load()`` throws.
    public func loadWithoutAdopting() throws -> UpgradeState? { try load() }

    /// Calls ``load()`` and gives no notice.
    public func loadForLaunch() throws -> (state: UpgradeState?, notice: String?) { (try load(), nil) }

    /// Calls ``load()`` and gives no notice.
    public func loadForPlan() throws -> (state: UpgradeState?, notice: String?) { (try load(), nil) }

    /// Saves the state and keeps no history.
    public func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
        try save(state)
        return nil
    }

    /// An empty history.
    public func history() throws -> [LaunchRecord] { [] }

    /// Throws: a store must implement ``removeAll()`` itself to support ``Upgrader/reset()``.
    ///
    /// - Throws: ``UpgradeStoreError`` with code ``UpgradeStoreError/Code/unsupported``, naming the
    ///   store's type.
    public func removeAll() throws {
        throw UpgradeStoreError(
            code: .unsupported, location: "\(type(of: self))",
            detail: "this store does not implement removeAll(), so its state cannot be reset; nothing was removed")
    }
}

/// Exclusive access to a store, held by one launch: what the store knows of that launch, it keeps
/// here, not in itself.
public protocol UpgradeStoreLock: Sendable {
    /// What the store found when it gave the launch its access, for the launch's report (such as an
    /// earlier launch that was probably terminated while it held the lock); `nil` by default.
    var notice: String? { get }

    /// Gives the access up; called once.
    func unlock()

    /// Registers what the lock calls, from any thread, when the system ends the time it keeps the
    /// app running for the launch (the background time of an app about to be suspended): the
    /// launch's interruption, which writes what it must, gives the lock up (``unlock()``) and cancels
    /// the launch, all before it returns (<doc:LaunchAlgorithm>, "Suspension"). A lock whose time
    /// has already ended calls it at once. The default ignores it: a lock that keeps no time running.
    ///
    /// - Parameter handler: The launch's interruption.
    func setExpiryHandler(_ handler: @escaping @Sendable () -> Void)
}

extension UpgradeStoreLock {
    /// No notice.
    public var notice: String? { nil }

    /// Ignores the handler: the lock keeps no time running that the system could end.
    ///
    /// - Parameter handler: Not called.
    public func setExpiryHandler(_ handler: @escaping @Sendable () -> Void) {}
}
