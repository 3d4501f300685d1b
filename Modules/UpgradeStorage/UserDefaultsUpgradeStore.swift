import Foundation
import UpgradeCore
import VersionKit

/// A store that keeps the state as its JSON document under one key of a `UserDefaults` suite.
///
/// It suits an app that already keeps its settings in defaults and runs as one process. The document
/// is the file store's, read as strictly, and ``save(_:)`` never replaces a value that is not a valid
/// document of a supported format. The history of launches is kept under ``historyKey``. With
/// `legacyVersionKey`, the store adopts the version the naive pattern kept while no state is stored.
/// ``lockForLaunch()`` serializes the launches of this process only. <doc:DefaultsStoreGuarantees>
/// says more.
///
/// While protected data is unavailable (on iOS, from a reboot to the first unlock, when a
/// background launch can happen), `UserDefaults` reads as empty, without an error; so when no
/// document is stored, the store reads its ``probe`` before it calls the launch a fresh install, and
/// throws `UpgradeStoreError.Code.protectedDataUnavailable` (the launch decides nothing) when it
/// cannot (<doc:ProtectedData>).
///
/// > Important: This store cannot tell a lost state from a fresh install: Foundation reads a damaged
/// > or truncated defaults file as **empty**, without an error. Prefer ``FileUpgradeStore`` wherever
/// > files last (everywhere but tvOS), and keep steps idempotent.
///
/// > Important: On Apple platforms a write is on disk only some time after ``save(_:)`` returns:
/// > `UserDefaults` changes the value in the process at once and a system service (`cfprefsd`)
/// > writes it to disk later. A crash, a kill or a power loss soon after a write can lose it. The
/// > record that a step is in progress, written just before the step runs, is such a write: a step
/// > that crashes the app at once may leave no record, so that its attempt is not counted, and a
/// > step that crashes every launch is never abandoned under `giveUpAfter`; a finished step whose
/// > record is lost runs again. Where crash-loop counting matters, prefer ``FileUpgradeStore``,
/// > whose writes are on disk before ``FileUpgradeStore/save(_:)`` returns. (On Linux this store
/// > synchronizes the suite to disk before a save returns.)
///
/// ```swift
/// let store = try UserDefaultsUpgradeStore(suiteName: "com.example.app.upgrades",
///                                          legacyVersionKey: "localAppVersion", legacyDefaults: .standard)
/// ```
public final class UserDefaultsUpgradeStore: UpgradeStore, Sendable {
    /// The suite that holds the document.
    public let suiteName: String
    /// The key of the document in the suite.
    public let key: String
    /// The key where the naive pattern kept the last launched version, if the app adopts it.
    public let legacyVersionKey: String?
    /// The defaults that hold ``legacyVersionKey``.
    public let legacyDefaults: LegacyDefaults
    /// How long ``lockForLaunch()`` waits for another launch in this process before it throws
    /// `UpgradeStoreError.Code.busy`.
    public let lockTimeout: Duration
    /// What tells the store whether protected data is readable when no document is stored
    /// (<doc:ProtectedData>): ``ProtectedDataProbe/appContainer`` by default.
    public let probe: ProtectedDataProbe

    private let defaults: DefaultsReference
    private let legacy: LegacyVersionReader?
    private let launches: LaunchGate
    /// How many of the next writes fail, for tests.
    private let failingWrites = Protected(0)

    /// The locks of the suites and keys in use in this process.
    private static let gates = Protected([String: LaunchGate]())

    /// Opens a suite for the state.
    ///
    /// - Parameters:
    ///   - suiteName: The defaults suite, such as `com.example.app.upgrades`, or an app group's
    ///     identifier. Not the global domain, nor the app's own bundle identifier (use
    ///     `UserDefaults.standard` keys through a suite of another name).
    ///   - key: The key of the document in the suite; `AppUpgrade.state` by default.
    ///   - legacyVersionKey: A key where the app kept the last launched version as a plain string
    ///     before it used this package; `nil` (the default) adopts nothing.
    ///   - legacyDefaults: The defaults that hold `legacyVersionKey`: the store's own suite (the
    ///     default), the app's standard defaults (where the naive snippet keeps `localAppVersion`), or
    ///     another suite.
    ///   - lockTimeout: How long a launch waits for another launch in this process before it
    ///     reports `UpgradeStoreError.Code.busy`; 10 seconds by default.
    ///   - probe: What tells whether protected data is readable when no document is stored, since
    ///     defaults read as empty while it is not: ``ProtectedDataProbe/appContainer`` (the default),
    ///     or a probe in an app group's container.
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.unsafeLocation` when the
    ///   suite cannot be opened.
    public init(
        suiteName: String, key: String = "AppUpgrade.state", legacyVersionKey: String? = nil,
        legacyDefaults: LegacyDefaults = .sameSuite, lockTimeout: Duration = .seconds(10),
        probe: ProtectedDataProbe = .appContainer
    ) throws {
        self.probe = probe
        let location = "defaults suite \"\(suiteName)\", key \"\(key)\""
        guard !suiteName.isEmpty, suiteName != "NSGlobalDomain", suiteName != Bundle.main.bundleIdentifier else {
            throw UpgradeStoreError(
                code: .unsafeLocation, location: location,
                detail: "this suite name cannot be used; give the store a suite of its own, such as"
                    + " \"com.example.app.upgrades\"")
        }
        guard let defaults = UserDefaults(suiteName: suiteName) else {
            throw UpgradeStoreError(code: .unsafeLocation, location: location, detail: "the suite cannot be opened")
        }
        self.suiteName = suiteName
        self.key = key
        self.legacyVersionKey = legacyVersionKey
        self.legacyDefaults = legacyDefaults
        self.lockTimeout = lockTimeout
        self.defaults = DefaultsReference(defaults: defaults)
        legacy =
            switch (legacyVersionKey, legacyDefaults) {
            case (nil, _): nil
            case (let key?, .sameSuite):
                LegacyVersionReader(key: key, defaults: self.defaults, label: "defaults suite \"\(suiteName)\"")
            case (let key?, .standard): try LegacyVersionReader(key: key, suiteName: nil)
            case (let key?, .suite(let name)): try LegacyVersionReader(key: key, suiteName: name)
            }
        launches = Self.gates.withLock { gates in
            let name = suiteName + "\u{0}" + key
            if let gate = gates[name] { return gate }
            let gate = LaunchGate(location: location)
            gates[name] = gate
            return gate
        }
    }

    /// Where the document is kept, for errors: the suite and the key.
    var location: String { "defaults suite \"\(suiteName)\", key \"\(key)\"" }

    /// The key of the history of launches: ``key`` followed by `.history`.
    public var historyKey: String { key + ".history" }

    /// Where the history is kept, for errors.
    var historyLocation: String { "defaults suite \"\(suiteName)\", key \"\(historyKey)\"" }

    /// Reads the document; while none is stored, adopts the legacy version if one is configured.
    ///
    /// - Returns: The state; or, with no document, the adopted legacy state or `nil` (a fresh
    ///   install).
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.corrupt` (a value that is
    ///   not a valid document, or a legacy value that is not a version) or
    ///   `UpgradeStoreError.Code.unsupportedFormat`; `UpgradeStoreError.Code.protectedDataUnavailable`
    ///   when no document is stored and the ``probe`` cannot be read. Nothing is changed.
    public func load() throws -> UpgradeState? {
        try loadForLaunch().state
    }

    /// Reads the document, never adopting the legacy version: for a follower launch, which must not
    /// take a version that only the app's defaults hold.
    ///
    /// - Returns: The state, or `nil` when no document is stored.
    /// - Throws: As ``load()`` does for the document.
    public func loadWithoutAdopting() throws -> UpgradeState? {
        guard let data = try storedDocument() else {
            // Defaults read as empty while protected data is unavailable: no document proves nothing
            // until the probe is read (<doc:LaunchAlgorithm>, "Protected data").
            try probe.requireReadable(for: location)
            return nil
        }
        return try StateDocument.decode(data, location: location).state
    }

    /// `defaults SUITE KEY`: every store on the same suite and key in the process keeps the same
    /// state (and shares one lock), so that concurrent launches through them are one launch.
    public var stateIdentity: String? { "defaults \(suiteName)\u{0}\(key)" }

    /// Reads the document for a launch; the notice says when the legacy version was adopted.
    ///
    /// - Returns: The state (or `nil`) and, when it was adopted from ``legacyVersionKey``, a notice
    ///   naming the key and the version.
    /// - Throws: As ``load()`` does.
    public func loadForLaunch() throws -> (state: UpgradeState?, notice: String?) {
        if let state = try loadWithoutAdopting() { return (state, nil) }
        guard let adopted = try legacy?.adopt() else { return (nil, nil) }
        return (adopted.state, adopted.notice)
    }

    /// Reads the document for a plan as ``load()`` does; the notice says when a launch would adopt
    /// the legacy version. It writes nothing.
    ///
    /// - Returns: The state (or `nil`) and, when a launch would adopt it from ``legacyVersionKey``,
    ///   a notice naming the key and the version.
    /// - Throws: As ``load()`` does.
    public func loadForPlan() throws -> (state: UpgradeState?, notice: String?) {
        if let state = try loadWithoutAdopting() { return (state, nil) }
        guard let legacy, let adopted = try legacy.adopt() else { return (nil, nil) }
        return (adopted.state, legacy.planNotice(adopting: adopted.state))
    }

    /// Stores the document under ``key``.
    ///
    /// It refuses to replace a value that is not a valid document or that has a newer format. On
    /// Linux the suite is synchronized to disk before it returns.
    ///
    /// - Parameter state: The state to keep.
    /// - Throws: `UpgradeStoreError`: `UpgradeStoreError.Code.writeFailed`, or the error reading
    ///   the value it would replace.
    public func save(_ state: UpgradeState) throws {
        _ = try write(state, recording: [])
    }

    /// Stores the document as ``save(_:)`` does and, with it, the history under ``historyKey`` with
    /// the launch's record added (the newest 50 records, as an array of JSON strings).
    ///
    /// - Parameters:
    ///   - state: The state to keep.
    ///   - record: The launch's record.
    /// - Returns: A notice when the history under ``historyKey`` held something else, which was
    ///   replaced; `nil` otherwise.
    /// - Throws: As ``save(_:)`` does.
    public func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
        try write(state, recording: [record])
    }

    /// Reads the history of launches under ``historyKey``, oldest first.
    ///
    /// - Returns: The records; empty when none are stored.
    /// - Throws: `UpgradeStoreError` with code `corrupt`, naming the suite, the key and the entry, for
    ///   a value that is not a list of launch records.
    public func history() throws -> [LaunchRecord] {
        guard let value = defaults.defaults.object(forKey: historyKey) else { return [] }
        guard let lines = value as? [String] else {
            throw UpgradeStoreError(
                code: .corrupt, location: historyLocation,
                detail: "holds \(type(of: value)), not a list of launch records; it is left as it is")
        }
        return try LaunchHistoryLine.records(
            lines.enumerated().map { ("entry \($0.offset)", $0.element.utf8) }, location: historyLocation)
    }

    private func write(_ state: UpgradeState, recording records: [LaunchRecord]) throws(UpgradeStoreError)
        -> String?
    {
        let bytes = StateDocument.encode(state)
        var added = records
        if let data = try storedDocument() {
            // A format-1 document's history moves under the history key.
            added = (try StateDocument.decodeReplaced([UInt8](data), location: location).legacyHistory ?? []) + records
        }
        if failingWrites.withLock({ count in
            defer { count = max(count - 1, 0) }
            return count > 0
        }) {
            throw UpgradeStoreError(code: .injectedFault, location: location, detail: "injected write failure")
        }
        let defaults = self.defaults.defaults
        defaults.set(String(decoding: bytes, as: UTF8.self), forKey: key)
        var notice: String?
        if !added.isEmpty {
            let stored = defaults.object(forKey: historyKey)
            if let stored, !(stored is [String]) {
                notice = "\(historyLocation) held \(type(of: stored)), not a launch history; it was replaced"
            }
            let lines = (stored as? [String] ?? []) + added.map(LaunchHistoryLine.encode)
            defaults.set(Array(lines.suffix(LaunchRecord.historyLimit)), forKey: historyKey)
        }
        try synchronize(defaults, location: location)
        return notice
    }

    /// Waits for the other launches of this process through the same suite and key.
    ///
    /// - Returns: The lock.
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.busy` when another launch
    ///   holds it past ``lockTimeout``; `CancellationError` when the task is cancelled while waiting.
    public func lockForLaunch() async throws -> any UpgradeStoreLock {
        try await launches.lock(timeout: lockTimeout)
    }

    /// Removes the document under ``key`` and the history under ``historyKey``, whatever they hold.
    ///
    /// ``/UpgradeCore/Upgrader/reset()`` calls it holding the lock of ``lockForLaunch()``. The next
    /// launch is a fresh install: a ``legacyVersionKey`` is left in place but not adopted again (see
    /// ``LegacyVersionAdopter/removeAll()``). On Linux the suite is synchronized to disk before it
    /// returns.
    ///
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.writeFailed` when the suite
    ///   could not be written to disk.
    public func removeAll() throws {
        try legacy?.endAdoption()
        let defaults = self.defaults.defaults
        defaults.removeObject(forKey: historyKey)
        defaults.removeObject(forKey: key)
        try synchronize(defaults, location: location)
    }

    /// Makes the next `count` saves fail with an injected fault, changing nothing; for tests.
    ///
    /// - Parameter count: How many saves fail.
    package func failWrites(_ count: Int) {
        failingWrites.withLock { $0 = count }
    }

    /// The document's bytes: `nil` when the key holds nothing.
    ///
    /// A document stored as data is passed on as it is, so that invalid UTF-8 in it is reported by
    /// the document reader rather than repaired on the way.
    ///
    /// - Returns: The UTF-8 bytes of a string, or the bytes of data; `nil` for nothing.
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.corrupt` for a value of
    ///   another type.
    private func storedDocument() throws(UpgradeStoreError) -> Data? {
        switch defaults.defaults.object(forKey: key) {
        case nil: return nil
        case let text as String: return Data(text.utf8)
        case let bytes as Data: return bytes
        case let value?:
            throw UpgradeStoreError(
                code: .corrupt, location: location,
                detail: "holds \(type(of: value)), not a state document; it is left as it is")
        }
    }
}

extension UserDefaultsUpgradeStore {
    /// Where the naive pattern's version key is read from.
    public enum LegacyDefaults: Sendable, Hashable {
        /// The store's own suite.
        case sameSuite
        /// The app's standard defaults, where `[NSUserDefaults standardUserDefaults]` keeps its keys.
        case standard
        /// Another suite, such as an app group's.
        case suite(String)
    }
}
