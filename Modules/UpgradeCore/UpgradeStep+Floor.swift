import VersionKit

extension UpgradeStep {
    /// This step as the upgrader's *floor*: one action that stands in for every retired step at or
    /// below its version, so that old steps can be deleted without leaving the devices that come back
    /// from far below them with nothing run.
    ///
    /// Typically the floor resets or rebuilds what the retired steps migrated. It is pending exactly
    /// as a step of its version *F* would be (the mark below *F*, or no mark, and *F* at or below the
    /// running version, and not done), so it runs on a device that last upgraded below *F* and on a
    /// fresh install under `runAll`, never on a device already at or above *F*. It runs before every
    /// other pending step, and is a step in everything else: attempts, `inProgress`, `giveUpAfter`,
    /// reports, events and the plan. In a build with a floor, a step with a version at or below *F*
    /// is a configuration error, reported before anything runs; so is a second floor.
    ///
    /// ```swift
    /// let upgrader = Upgrader(store: store) {
    ///     UpgradeStep("3.0") { try rebuildLibraryIndex() }.asFloor()   // id upgradeFloor_3_0
    ///     UpgradeStep("3.1") { try moveThumbnails() }
    /// }
    /// ```
    ///
    /// - Returns: The step marked as the floor; a step whose id was the default one made from its
    ///   version gets the floor's default id, `upgradeFloor_A_B[_C]`, so that it never collides with
    ///   a retired step's `appUpgradeTo_...` id in the stored state.
    public func asFloor() -> UpgradeStep {
        var floor = self
        floor.isFloor = true
        if !hasGivenID { floor.id = Self.floorID(for: version) }
        return floor
    }

    /// The default id of a floor at `version`: `upgradeFloor_` and the version's canonical text
    /// with `_` for `.`, such as `upgradeFloor_3_0`.
    ///
    /// - Parameter version: The floor's version.
    /// - Returns: The id.
    public static func floorID(for version: Version) -> String {
        version.name(prefix: "upgradeFloor_")
    }
}
