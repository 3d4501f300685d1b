import VersionKit

extension Upgrader {
    /// Whether the stored state was written by a newer version of the app than the one running: its
    /// last launch or its upgraded-through mark is above `currentVersion`.
    ///
    /// This is GRDB's `hasBeenSuperseded`: after a downgrade (a TestFlight build, a restored
    /// backup), the app's data may hold what a later version wrote, which this version may not
    /// understand. Ask before opening that data, and tell the user to update, or open it read-only.
    /// Versions compare by value (`8.8 == 8.8.0`). It reads the state without the lock and writes
    /// nothing; a launch at `currentVersion` would end ``UpgradeOutcome/downgraded`` when the mark is
    /// above it.
    ///
    /// - Parameter currentVersion: The version of the app that is running.
    /// - Returns: `true` when the stored `lastLaunched` or `upgradedThrough` is above
    ///   `currentVersion`; `false` otherwise, and when no state is stored.
    /// - Throws: The store's error when the state cannot be read.
    public func hasBeenSuperseded(currentVersion: Version) throws -> Bool {
        guard let state = try store.load() else { return false }
        if let last = state.lastLaunched, last > currentVersion { return true }
        if let mark = state.upgradedThrough, mark > currentVersion { return true }
        return false
    }
}
