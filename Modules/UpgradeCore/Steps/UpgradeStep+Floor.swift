import VersionKit

extension UpgradeStep {
    /// This step as the upgrader's *floor*: one action that stands in for every retired step at or
    /// below its version, so that old steps can be deleted without leaving the devices that come back
    /// from far below them with nothing run.
    ///
    /// It is pending exactly as a step of its version *F* would be, runs before every other pending
    /// step, and is a step in everything else; a step at or below *F*, or a second floor, is a
    /// configuration error (<doc:RetiringOldSteps>).
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
