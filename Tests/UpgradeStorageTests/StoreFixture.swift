import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

/// The three stores, and the custom store of the docs (CustomStore.swift), for tests parameterized
/// over them.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, file, defaults, custom

    /// The stores of UpgradeStorage.
    static let builtIn: [StoreKind] = [.memory, .file, .defaults]

    /// The stores that keep a document as bytes, which can be damaged.
    static let documentStores: [StoreKind] = [.file, .defaults]

    var testDescription: String { rawValue }
}

/// One place where a store keeps its state, for one test: a temporary folder, a uniquely named
/// defaults suite, or an in-memory store. It makes store objects on that place, as an app does at
/// each launch, writes and reads the raw document, and removes everything when the test ends.
final class StoreFixture: Sendable {
    let kind: StoreKind
    private let directory: TemporaryDirectory?
    private let suiteName: String?
    private let currentMemory: Locked<InMemoryUpgradeStore?>
    private let currentCustom: Locked<SettingsUpgradeStore?>
    /// The settings the custom store keeps its state in.
    let settings = TestSettings()
    private let memoryLockTimeout: Duration?

    /// How long the in-memory store, which is one object, waits for its lock, unless told otherwise.
    static let memoryLockTimeout = Duration.milliseconds(300)

    /// - Parameters:
    ///   - kind: The store.
    ///   - memoryLockTimeout: How long the in-memory store waits for its lock; `nil`, as long as it takes.
    init(_ kind: StoreKind, memoryLockTimeout: Duration? = StoreFixture.memoryLockTimeout) throws {
        self.kind = kind
        self.memoryLockTimeout = memoryLockTimeout
        directory = kind == .file ? try TemporaryDirectory("storage") : nil
        suiteName = kind == .defaults ? "AppUpgradeTests.\(UUID().uuidString)" : nil
        currentMemory = Locked(kind == .memory ? InMemoryUpgradeStore(lockTimeout: memoryLockTimeout) : nil)
        currentCustom = Locked(
            kind == .custom ? SettingsUpgradeStore(settings: settings, lockTimeout: memoryLockTimeout) : nil)
    }

    deinit {
        if let suiteName { UserDefaults().removePersistentDomain(forName: suiteName) }
    }

    /// The state file's URL, for the file store.
    var fileURL: URL { directory!.file("upgrade-state.json") }

    /// The folder of the state file, for the file store.
    var folder: URL { directory!.url }

    /// The defaults suite, for the defaults store.
    var suite: String { suiteName! }

    /// The key of the defaults store's document.
    static let defaultsKey = "AppUpgrade.state"

    /// Text that every error about this place names.
    var location: String {
        switch kind {
        case .memory: "memory"
        case .file: fileURL.path
        case .defaults: suite
        case .custom: "settings key upgrade-state"
        }
    }

    /// The in-memory store in use: the first one, or the last made by ``relaunched()``.
    private var memory: InMemoryUpgradeStore? { currentMemory.value }

    /// A store object on this place, as a new launch makes it. For the in-memory store, the store
    /// in use (its lock timeout is the one given to ``init(_:memoryLockTimeout:)``).
    func store(lockTimeout: Duration = .seconds(10)) throws -> any UpgradeStore {
        switch kind {
        case .memory: memory!
        case .custom: currentCustom.value!
        case .file: FileUpgradeStore(url: fileURL, lockTimeout: lockTimeout, calls: FaultInjectingCalls())
        case .defaults: try UserDefaultsUpgradeStore(suiteName: suite, lockTimeout: lockTimeout)
        }
    }

    /// The system calls of the stores made by ``lockableStore(legacyKey:legacySuite:)`` and of their
    /// probe: what makes protected data unavailable to them (``setProtectedDataAvailable(_:)``).
    let protectedData = FaultInjectingCalls()
    /// The folder of the probe of the defaults store and of the legacy version's adopter.
    private let probeFolder = try? TemporaryDirectory("probe")

    /// Makes protected data unavailable, as on a device locked since its restart, or available again,
    /// to the stores made by ``lockableStore(legacyKey:legacySuite:)`` (<doc:LaunchAlgorithm>,
    /// "Protected data"): through the file store's system calls, the probes' calls, and the in-memory
    /// store's own setting.
    func setProtectedDataAvailable(_ available: Bool) {
        protectedData.setProtectedDataAvailable(available)
        memory?.protectedDataAvailable = available
    }

    /// The probe of the defaults store and of the adopter, in a folder of the test's.
    var probe: ProtectedDataProbe {
        ProtectedDataProbe(url: probeFolder!.file("AppUpgrade/protected-data.probe"), calls: protectedData)
    }

    /// A store on this place whose protected data ``setProtectedDataAvailable(_:)`` controls, adopting
    /// the version under `legacyKey` of the defaults suite `legacySuite` while it holds no state
    /// (the in-memory and file stores through a `LegacyVersionAdopter`, the defaults store itself);
    /// not for the custom store.
    func lockableStore(legacyKey: String, legacySuite: String) throws -> any UpgradeStore {
        switch kind {
        case .memory:
            try LegacyVersionAdopter(memory!, key: legacyKey, suiteName: legacySuite, probe: probe)
        case .file:
            try LegacyVersionAdopter(
                FileUpgradeStore(url: fileURL, calls: protectedData), key: legacyKey, suiteName: legacySuite,
                probe: probe)
        case .defaults:
            try UserDefaultsUpgradeStore(
                suiteName: suite, legacyVersionKey: legacyKey, legacyDefaults: .suite(legacySuite), probe: probe)
        case .custom:
            throw UpgradeStoreError(code: .unsupported, location: location, detail: "the custom store has no probe")
        }
    }

    /// A store object made from the stored data alone, as after a relaunch: for the in-memory store,
    /// a new store holding a copy of the state, which is then the store in use.
    func relaunched() throws -> any UpgradeStore {
        if kind == .custom {
            let next = SettingsUpgradeStore(settings: settings, lockTimeout: memoryLockTimeout)
            currentCustom.value = next
            return next
        }
        guard kind == .memory else { return try store() }
        return currentMemory.withLock { current in
            let next = InMemoryUpgradeStore(
                state: current!.state, history: current!.history(), lockTimeout: memoryLockTimeout)
            current = next
            return next
        }
    }

    /// Makes the next save through `store` fail.
    func injectWriteFault(into store: any UpgradeStore) {
        switch store {
        case let memory as InMemoryUpgradeStore: memory.failWrite(number: 1)
        case let file as FileUpgradeStore: file.injectFault(EIO, at: .write)
        case let defaults as UserDefaultsUpgradeStore: defaults.failWrites(1)
        case is SettingsUpgradeStore: settings.failNextWrite()
        default: Issue.record("unknown store \(store)")
        }
    }

    /// Puts raw bytes where the document belongs (file and defaults stores); in defaults, as a
    /// string when they are UTF-8 (as the store writes it), otherwise as data.
    func writeRaw(_ bytes: Data) throws {
        switch kind {
        case .memory, .custom: Issue.record("the \(kind) store's bytes are not a state document")
        case .file: try bytes.write(to: fileURL)
        case .defaults:
            let defaults = UserDefaults(suiteName: suite)!
            if let text = String(data: bytes, encoding: .utf8) {
                defaults.set(text, forKey: Self.defaultsKey)
            } else {
                defaults.set(bytes, forKey: Self.defaultsKey)
            }
            defaults.synchronize()
        }
    }

    /// The raw bytes where the document belongs (a string's UTF-8, or data), or `nil`.
    func readRaw() -> Data? {
        switch kind {
        case .memory, .custom: nil
        case .file: try? Data(contentsOf: fileURL)
        case .defaults:
            switch UserDefaults(suiteName: suite)!.object(forKey: Self.defaultsKey) {
            case let text as String: Data(text.utf8)
            case let bytes as Data: bytes
            default: nil
            }
        }
    }
}

/// A state with every field set, to check that nothing is lost on the way.
let richState = UpgradeState(
    upgradedThrough: "1.2", lastLaunched: "1.4.1",
    completed: [StepRecord(id: "appUpgradeTo_1_3", version: "1.3")],
    abandoned: [StepRecord(id: "reindex", version: "1.3.5")],
    attempts: [StepAttempts(id: "move-settings", version: "1.4", failed: 2)],
    inProgress: StepInProgress(id: "move-settings", version: "1.4", attempt: 3))

extension UpgradeStoreError.Code {
    /// Whether this is ``unsupportedFormat(found:supported:)``, whatever the numbers.
    var isUnsupportedFormat: Bool {
        if case .unsupportedFormat = self { return true }
        return false
    }
}

/// Settings kept in memory, whose next write can be made to fail: the key-value API of the custom
/// store under test.
final class TestSettings: KeyValueSettings, Sendable {
    private let values = Locked<[String: Data]>([:])
    private let failing = Locked(false)

    func data(forKey key: String) throws -> Data? { values.value[key] }

    func set(_ data: Data?, forKey key: String) throws {
        if failing.exchange(false) {
            throw UpgradeStoreError(code: .injectedFault, location: "settings", detail: "injected write failure")
        }
        values.withLock { $0[key] = data }
    }

    /// Makes the next write throw.
    func failNextWrite() { failing.value = true }
}
