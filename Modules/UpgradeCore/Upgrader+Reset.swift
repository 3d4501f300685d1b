/// Starting over, for debug menus and tests, in the manner of MTMigration's `reset`.
extension Upgrader {
    /// Removes the stored state and the history of launches, so that the next launch is a fresh
    /// install and the ``UpgradePolicy/freshInstall`` policy decides what it runs.
    ///
    /// It takes the same exclusive access as a launch (the store's turn in the process and
    /// ``UpgradeStore/lockForLaunch()``), so it waits for a launch in progress to end and never
    /// removes the state under a running step. It removes whatever is stored, a corrupt document
    /// included, through ``UpgradeStore/removeAll()``. It does not touch the app's own data: the
    /// work of the steps that ran stays done, and under a fresh-install policy that runs steps
    /// (``UpgradePolicy/FreshInstall-swift.enum/runAll``) they run again, so keep it out of
    /// release builds' reach. A legacy version key that a store adopts (UpgradeStorage's
    /// `LegacyVersionAdopter`, or `UserDefaultsUpgradeStore`'s `legacyVersionKey`) is left in place
    /// but not adopted again: the next launch is a fresh install whatever stands in front of the
    /// store.
    ///
    /// - Throws: The store's error when it cannot be locked or cleared (``UpgradeStoreError``, with
    ///   code ``UpgradeStoreError/Code/unsupported`` for a store that cannot remove its state).
    public func reset() async throws {
        try await LaunchRegistry.shared.exclusive(launchIdentity) {
            let lock = try await store.lockForLaunch()
            defer { lock.unlock() }
            try store.removeAll()
        }
    }
}
