import UpgradeCore

/// A store whose protected data is unavailable, as on a device locked since its restart: every read
/// throws `UpgradeStoreError.Code.protectedDataUnavailable`, everything else goes to the store it
/// wraps. `upgrade-sim launch --locked` wraps its file store in one, so that the launch meets the
/// condition through the store, as an app on a locked device does (<doc:UpgradeSimulation>, "The
/// device's conditions").
package struct LockedStore: UpgradeStore {
    /// The store wrapped.
    package let base: any UpgradeStore
    /// Where the error says the data was unavailable.
    package let location: String

    /// Wraps a store.
    ///
    /// - Parameters:
    ///   - base: The store whose reads are refused.
    ///   - location: Where, for the error, such as the state file's path.
    package init(_ base: any UpgradeStore, location: String) {
        self.base = base
        self.location = location
    }

    private var unavailable: UpgradeStoreError {
        UpgradeStoreError(
            code: .protectedDataUnavailable, location: location,
            detail: "protected data is unavailable (upgrade-sim launch --locked: the device has not been unlocked since"
                + " it restarted)")
    }

    package func load() throws -> UpgradeState? { throw unavailable }
    package func loadForLaunch() throws -> (state: UpgradeState?, notice: String?) { throw unavailable }
    package func loadWithoutAdopting() throws -> UpgradeState? { throw unavailable }
    package func save(_ state: UpgradeState) throws { try base.save(state) }
    package func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
        try base.save(state, recording: record)
    }
    package func history() throws -> [LaunchRecord] { try base.history() }
    package func lockForLaunch() async throws -> any UpgradeStoreLock { try await base.lockForLaunch() }
    package func removeAll() throws { try base.removeAll() }
    package var stateIdentity: String? { base.stateIdentity }
}
