import VersionKit

extension LaunchMachine {
    /// How a follower launch ends (<doc:LaunchAlgorithm>, "Follower launches"): rules 0 to 3
    /// applied to the state read, with nothing stored and no step run.
    ///
    /// - Returns: `upToDate`, `downgraded` or `deferred`.
    static func followerOutcome(
        loaded: UpgradeState?, current: Version, policy: UpgradePolicy, catalog: StepCatalog
    ) -> UpgradeOutcome {
        guard var state = loaded else { return .deferred }
        let decision = LaunchRules.apply(
            to: &state, freshInstall: false, current: current, policy: policy, catalog: catalog)
        if decision.terminalOutcome == .downgraded { return .downgraded }
        return decision.pending.isEmpty ? .upToDate : .deferred
    }
}

extension LaunchMachine {
    /// How a follower launch that links no step ends (<doc:LaunchAlgorithm>, "Follower launches"):
    /// from the mark alone.
    ///
    /// - Returns: `downgraded` with `current` below the mark, `upToDate` with the mark at `current`,
    ///   otherwise (no state, a null mark, the mark below `current`) `deferred`.
    static func followerOutcome(loaded: UpgradeState?, current: Version) -> UpgradeOutcome {
        guard let mark = loaded?.upgradedThrough else { return .deferred }
        if current < mark { return .downgraded }
        return current == mark ? .upToDate : .deferred
    }
}
