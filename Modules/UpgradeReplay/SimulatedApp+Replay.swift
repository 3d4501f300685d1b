import Foundation
import StrictJSON
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

extension SimulatedApp {
    /// Performs one launch in memory from a given state and returns what it did and the state it
    /// left (for a crash: as the dead process left it); for walks that branch, such as `explore`.
    ///
    /// - Parameters:
    ///   - version: The version of the app that is launching.
    ///   - state: The stored state before the launch; `nil` for a fresh install.
    /// - Returns: The observation and the stored state after the launch.
    /// - Throws: What `launch(at:store:mode:)` throws.
    package func launch(at version: Version, from state: UpgradeState?) async throws -> (
        observation: LaunchObservation, state: UpgradeState?
    ) {
        let store = InMemoryUpgradeStore(state: state)
        let observation = try await launch(at: version, store: store, mode: .simulated)
        return (observation, store.state)
    }

    /// Replays launches in memory from a fresh install: one `InMemoryUpgradeStore`, and after a
    /// crashed launch a new store seeded with the state the dead one kept.
    ///
    /// - Parameter launches: The app version of each launch, in order.
    /// - Returns: What each launch did.
    /// - Throws: What `launch(at:store:mode:)` throws.
    package func replay(launches: [Version]) async throws -> [LaunchObservation] {
        try await replay(launches: launches, followers: [])
    }

    /// Replays launches in memory from a fresh install, as ``replay(launches:)`` does, some of them
    /// follower launches (an app extension's: they read the store and never write it).
    ///
    /// - Parameters:
    ///   - launches: The app version of each launch, in order.
    ///   - followers: The positions in `launches` (from 0) of the follower launches.
    ///   - conditions: The device's condition at some launches, by position: `locked` (protected data
    ///     unavailable), or an expiry in a step, after which the process is killed; none by default.
    ///   - legacyVersion: The version under a legacy key before the first launch (a history's
    ///     `legacyVersion`): each launch reads the store through a `LegacyVersionAdopter` of that key,
    ///     kept in a defaults file in a temporary folder (removed afterwards); `nil` by default.
    /// - Returns: What each launch did.
    /// - Throws: What `launch(at:store:mode:)` throws.
    package func replay(
        launches: [Version], followers: Set<Int>, conditions: [Int: LaunchCondition] = [:],
        legacyVersion: Version? = nil
    ) async throws -> [LaunchObservation] {
        var legacy: LegacyKey?
        var folder: URL?
        if let legacyVersion {
            let made = FileManager.default.temporaryDirectory
                .appendingPathComponent("upgrade-sim-legacy-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            folder = made
            legacy = LegacyKey(version: legacyVersion, suitePath: made.appendingPathComponent("legacy-defaults").path)
        }
        defer { if let folder { try? FileManager.default.removeItem(at: folder) } }
        var store = InMemoryUpgradeStore()
        var observations: [LaunchObservation] = []
        observations.reserveCapacity(launches.count)
        for (position, version) in launches.enumerated() {
            let role: LaunchRole = followers.contains(position) ? .follower : .app
            let observation = try await launch(
                at: version, store: store, mode: .simulated, role: role, condition: conditions[position],
                legacy: legacy)
            if store.processDied { store = InMemoryUpgradeStore(state: store.state) }
            observations.append(observation)
        }
        return observations
    }
}
