import Foundation
import UpgradeCore
import VersionKit

/// A store that adopts the version the naive pattern kept in `UserDefaults` while the store it wraps
/// holds no state: the move off the `appUpgradeTo_X_Y_Z` snippet, with any store.
///
/// The naive pattern stored "the last version launched" as a plain string, such as `"8.8"` under
/// `localAppVersion` in the standard defaults. Wrapped in an adopter that names that key, the first
/// launch with this package starts from that version `V` instead of being a fresh install: the same
/// start as ``/UpgradeCore/UpgradePolicy/FreshInstall-swift.enum/upgradeFrom(_:)`` `V`, taken only on
/// the devices that ran the naive pattern, and said in the launch's notices. The key is read only
/// while the wrapped store has no state, and never changed; a value that is not a version string is
/// an error naming the key (`UpgradeStoreError.Code.corrupt`), never read as 0; after
/// ``/UpgradeCore/Upgrader/reset()`` the key is not adopted again (see ``removeAll()``). Everything
/// else is the wrapped store's. <doc:DefaultsStoreGuarantees> gives the rules in full.
///
/// ```swift
/// let store = try LegacyVersionAdopter(FileUpgradeStore(url: stateURL), key: "localAppVersion")
/// ```
public struct LegacyVersionAdopter: UpgradeStore {
    /// The store that keeps the state.
    public let base: any UpgradeStore
    /// The key where the naive pattern kept the last launched version.
    public let key: String
    /// The defaults suite that holds ``key``; `nil` for the app's standard defaults.
    public let suiteName: String?
    /// What tells the adopter whether protected data is readable before it reads ``key``, which
    /// reads as empty while it is not (<doc:ProtectedData>).
    public let probe: ProtectedDataProbe

    private let reader: LegacyVersionReader

    /// Wraps a store so that, while it holds no state, it adopts the version under a defaults key.
    ///
    /// - Parameters:
    ///   - base: The store that keeps the state, such as a ``FileUpgradeStore``.
    ///   - key: The key where the naive pattern kept the last launched version as a string, such as
    ///     `"localAppVersion"`.
    ///   - suiteName: The defaults suite that holds `key`, such as an app group's; `nil` (the default)
    ///     for `UserDefaults.standard`, where `[NSUserDefaults standardUserDefaults]` wrote it.
    ///   - probe: What tells whether protected data is readable; ``ProtectedDataProbe/appContainer``
    ///     by default.
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.unsafeLocation` when the suite
    ///   cannot be opened.
    public init(
        _ base: any UpgradeStore, key: String, suiteName: String? = nil, probe: ProtectedDataProbe = .appContainer
    ) throws {
        self.probe = probe
        self.base = base
        self.key = key
        self.suiteName = suiteName
        reader = try LegacyVersionReader(key: key, suiteName: suiteName)
    }

    /// Reads the wrapped store's state; while it has none, the state adopted from the legacy key.
    ///
    /// - Returns: The stored state; or, with none, a state upgraded through the legacy version (and
    ///   last launched at it); or `nil` when the key holds nothing either (a fresh install).
    /// - Throws: The wrapped store's error; `UpgradeStoreError` with code
    ///   `UpgradeStoreError.Code.corrupt` for a legacy value that is not a version string;
    ///   `UpgradeStoreError.Code.protectedDataUnavailable` when the wrapped store holds no state and
    ///   the ``probe`` cannot be read, so that an empty key proves nothing (nothing is adopted).
    public func load() throws -> UpgradeState? {
        try base.load() ?? adopt()?.state
    }

    /// The adopted state, once the probe says the legacy key can be trusted (<doc:LaunchAlgorithm>,
    /// "Protected data": an empty key read while the device is locked proves nothing).
    private func adopt() throws(UpgradeStoreError) -> (state: UpgradeState, notice: String)? {
        try probe.requireReadable(for: "\(reader.label), legacy key \"\(key)\"")
        return try reader.adopt()
    }

    /// Reads the wrapped store's state and never adopts: a follower launch (an app extension, whose
    /// `UserDefaults.standard` are its own, not the app's) must not take the legacy version.
    ///
    /// - Returns: The wrapped store's state as stored, or `nil`.
    /// - Throws: The wrapped store's error.
    public func loadWithoutAdopting() throws -> UpgradeState? {
        try base.loadWithoutAdopting()
    }

    /// The wrapped store's identity: the adopter keeps the wrapped store's state.
    public var stateIdentity: String? { base.stateIdentity }

    /// Reads the state for a launch as ``load()`` does, with a notice when the legacy version was
    /// adopted.
    ///
    /// - Returns: The state (or `nil`) and the wrapped store's notice; when the version was adopted,
    ///   a notice naming the key and the version as well.
    /// - Throws: As ``load()`` does.
    public func loadForLaunch() throws -> (state: UpgradeState?, notice: String?) {
        let (state, notice) = try base.loadForLaunch()
        guard state == nil, let adopted = try adopt() else { return (state, notice) }
        return (adopted.state, notice.map { "\($0); \(adopted.notice)" } ?? adopted.notice)
    }

    /// Reads the state as ``load()`` does, for a plan, with a notice when a launch would adopt the
    /// legacy version; like ``load()``, it writes nothing.
    ///
    /// - Returns: The state (or `nil`) and the wrapped store's plan notice; when the version would
    ///   be adopted, a notice naming the version and the key instead (`will adopt version 9.0.1 from
    ///   the legacy key "localAppVersion" of standard defaults: ...`).
    /// - Throws: As ``load()`` does.
    public func loadForPlan() throws -> (state: UpgradeState?, notice: String?) {
        let (state, notice) = try base.loadForPlan()
        guard state == nil, let adopted = try adopt() else { return (state, notice) }
        let planned = reader.planNotice(adopting: adopted.state)
        return (adopted.state, notice.map { "\($0); \(planned)" } ?? planned)
    }

    /// Saves the state in the wrapped store.
    ///
    /// - Parameter state: The state to keep.
    /// - Throws: The wrapped store's error.
    public func save(_ state: UpgradeState) throws {
        try base.save(state)
    }

    /// Saves the state and the launch's record in the wrapped store.
    ///
    /// - Parameters:
    ///   - state: The state to keep.
    ///   - record: The launch's record.
    /// - Returns: The wrapped store's notice, if any.
    /// - Throws: The wrapped store's error.
    public func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
        try base.save(state, recording: record)
    }

    /// The wrapped store's history of launches.
    ///
    /// - Returns: The records, oldest first.
    /// - Throws: The wrapped store's error.
    public func history() throws -> [LaunchRecord] {
        try base.history()
    }

    /// Takes the wrapped store's exclusive access.
    ///
    /// - Returns: The lock.
    /// - Throws: The wrapped store's error.
    public func lockForLaunch() async throws -> any UpgradeStoreLock {
        try await base.lockForLaunch()
    }

    /// Ends the adoption, then removes the wrapped store's state and history, so that the next launch
    /// is a fresh install.
    ///
    /// The legacy key is left in place, but is not adopted again: first, `true` is stored under
    /// `AppUpgrade.adoptionReset.KEY` (`KEY` being ``key``) in the same defaults; remove it to test the
    /// adoption again.
    ///
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.writeFailed` when the defaults
    ///   cannot be written to disk (nothing is removed then); otherwise the wrapped store's error.
    public func removeAll() throws {
        try reader.endAdoption()
        try base.removeAll()
    }
}

/// Reads the naive pattern's version string under a key of a defaults suite, strictly; for
/// ``LegacyVersionAdopter`` and ``UserDefaultsUpgradeStore``.
struct LegacyVersionReader: Sendable {
    /// The key.
    let key: String
    /// The defaults that hold it.
    let defaults: DefaultsReference
    /// The defaults in words, for errors and notices: `standard defaults`, `defaults suite "NAME"`.
    let label: String

    init(key: String, defaults: DefaultsReference, label: String) {
        self.key = key
        self.defaults = defaults
        self.label = label
    }

    /// A reader of `key` in the suite named `suiteName`, or in the standard defaults for `nil`.
    ///
    /// - Throws: `UpgradeStoreError` with code `unsafeLocation` when the suite cannot be opened.
    init(key: String, suiteName: String?) throws(UpgradeStoreError) {
        guard let suiteName else {
            self.init(key: key, defaults: DefaultsReference(defaults: .standard), label: "standard defaults")
            return
        }
        guard let defaults = UserDefaults(suiteName: suiteName) else {
            throw UpgradeStoreError(
                code: .unsafeLocation, location: "defaults suite \"\(suiteName)\"",
                detail: "the suite of the legacy version key cannot be opened")
        }
        self.init(key: key, defaults: DefaultsReference(defaults: defaults), label: "defaults suite \"\(suiteName)\"")
    }

    /// The version under the key.
    ///
    /// - Returns: The version; `nil` when the key holds nothing, or when a reset ended the adoption.
    /// - Throws: `UpgradeStoreError` with code `corrupt`, naming the defaults and the key, for a value
    ///   that is not a string or not a version; the value is left as it is.
    func read() throws(UpgradeStoreError) -> Version? {
        guard let value = defaults.defaults.object(forKey: key), !adoptionEnded else { return nil }
        let location = "\(label), legacy key \"\(key)\""
        guard let text = value as? String else {
            throw UpgradeStoreError(
                code: .corrupt, location: location,
                detail: "holds \(type(of: value)), not a version string; it is left as it is")
        }
        do {
            return try Version(parsing: text)
        } catch {
            throw UpgradeStoreError(
                code: .corrupt, location: location,
                detail: "is not a version that can be adopted: \(error); it is left as it is", underlying: error)
        }
    }

    /// The state adopted from the version under the key, upgraded through it and last launched at
    /// it, and the launch report's notice that says so.
    ///
    /// - Returns: `nil` when the key holds nothing, or when a reset ended the adoption.
    /// - Throws: As ``read()`` does.
    func adopt() throws(UpgradeStoreError) -> (state: UpgradeState, notice: String)? {
        guard let version = try read() else { return nil }
        return (
            UpgradeState(upgradedThrough: version, lastLaunched: version),
            "adopted version \(version) from the legacy key \"\(key)\" of \(label): the app counts as upgraded"
                + " through \(version), as with upgradeFrom \(version)"
        )
    }
}

extension LegacyVersionReader {
    /// The plan's notice for a state ``adopt()`` returned (`Upgrader.plan(currentVersion:)`): what
    /// the launch's notice will say, in the future tense.
    func planNotice(adopting state: UpgradeState) -> String {
        let version = state.upgradedThrough.map { "\($0)" } ?? "nothing"
        return "will adopt version \(version) from the legacy key \"\(key)\" of \(label): the launch counts as"
            + " upgraded through \(version), as with upgradeFrom \(version)"
    }
}

/// `UserDefaults` is thread-safe; this lets a `Sendable` store keep one on every platform, whether
/// or not its SDK marks the class `Sendable`.
struct DefaultsReference: @unchecked Sendable {
    let defaults: UserDefaults
}

/// The end of an adoption: after `Upgrader.reset()` the next launch is a fresh install, whatever
/// adopts a legacy version in front of the store.
extension LegacyVersionReader {
    /// The key, in the same defaults as the legacy key, under which a reset records that the
    /// adoption has ended: `AppUpgrade.adoptionReset.KEY`.
    var resetMarkerKey: String { "AppUpgrade.adoptionReset.\(key)" }

    /// Whether a reset ended the adoption: the legacy key is then never read.
    var adoptionEnded: Bool { defaults.defaults.bool(forKey: resetMarkerKey) }

    /// Records that the adoption has ended, before a reset removes the state, so that the launch
    /// after the reset is a fresh install rather than an adoption of the key again.
    ///
    /// It goes first: a reset that fails after it leaves the state the store read before the key,
    /// and one that dies before it leaves everything as it was.
    ///
    /// - Throws: `UpgradeStoreError` with code `writeFailed` naming the defaults and the key when
    ///   they cannot be written to disk.
    func endAdoption() throws(UpgradeStoreError) {
        defaults.defaults.set(true, forKey: resetMarkerKey)
        try synchronize(
            defaults.defaults, location: "\(label), key \"\(resetMarkerKey)\"",
            what: "the end of the legacy version's adoption could not be written to disk; nothing was removed")
    }
}

/// Writes the defaults to disk where no system service does (Linux); on Apple platforms `cfprefsd`
/// does, and `synchronize` is deprecated there.
///
/// - Throws: `UpgradeStoreError` with code `writeFailed`, naming `location`, when they could not be.
func synchronize(
    _ defaults: UserDefaults, location: String, what: String = "the suite could not be written to disk"
) throws(UpgradeStoreError) {
    #if !canImport(Darwin)
        guard defaults.synchronize() else {
            throw UpgradeStoreError(code: .writeFailed, location: location, detail: what)
        }
    #else
        // Apple platforms: a system service writes defaults to disk.
    #endif
}
