/// Starting over, for debug menus and tests, in the manner of MTMigration's `reset`.
extension Upgrader {
    /// Removes the stored state and the history of launches, so that the next launch is a fresh
    /// install and the ``UpgradePolicy/freshInstall`` policy decides what it runs.
    ///
    /// It waits for a launch in progress to end, as a launch would, and removes whatever is stored,
    /// a corrupt document included. The app's own data is untouched, so under
    /// ``UpgradePolicy/FreshInstall-swift.enum/runAll`` the steps run again: keep it out of release
    /// builds' reach. A legacy version key is left in place but not adopted again.
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
