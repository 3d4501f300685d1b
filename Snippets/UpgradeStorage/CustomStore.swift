// A custom store over a key-value API the app already has, shown in
// Modules/UpgradeStorage/UpgradeStorage.docc/CustomStores.md and tested against the store
// conformance tests (Tests/UpgradeStorageTests/CustomStore.swift is a link to this file).

// snippet.custom-store
import Foundation
import UpgradeCore
import UpgradeStorage

/// The key-value API the app already has, such as its settings database.
protocol KeyValueSettings: Sendable {
    func data(forKey key: String) throws -> Data?
    /// Replaces the value under `key` atomically; `nil` removes it.
    func set(_ data: Data?, forKey key: String) throws
}

/// Keeps the upgrade state as JSON under one key of the app's settings.
final class SettingsUpgradeStore: UpgradeStore {
    let settings: any KeyValueSettings
    let key: String
    private let launches: LaunchGate

    init(settings: any KeyValueSettings, key: String = "upgrade-state", lockTimeout: Duration? = nil) {
        self.settings = settings
        self.key = key
        launches = LaunchGate(location: "settings key \(key)", timeout: lockTimeout)
    }

    func load() throws -> UpgradeState? {
        guard let data = try settings.data(forKey: key) else { return nil }
        do {
            return try JSONDecoder().decode(UpgradeState.self, from: data)
        } catch {
            throw UpgradeStoreError(code: .corrupt, location: "settings key \(key)", detail: "\(error)")
        }
    }

    func save(_ state: UpgradeState) throws {
        try settings.set(try JSONEncoder().encode(state), forKey: key)
    }

    func lockForLaunch() async throws -> any UpgradeStoreLock {
        try await launches.lock()
    }

    func removeAll() throws {
        try settings.set(nil, forKey: key)
    }
}
// snippet.end
