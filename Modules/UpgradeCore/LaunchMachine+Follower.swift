import VersionKit

extension LaunchMachine {
    /// How a follower launch ends (<doc:LaunchAlgorithm>, "Follower launches"): rules 0 to 3
    /// applied to the state read, with nothing stored and no step run.
    ///
    /// The decision lives here, beside the app's, so that both read the state through the same
    /// rules: no state (whatever the fresh-install policy) is `deferred`, since only the app may
    /// decide what a fresh install skips; a running version below the mark is `downgraded`; steps
    /// pending at `current` (a step the app's process died in, one that failed, one never run) are
    /// `deferred`; otherwise `upToDate`.
    ///
    /// - Parameters:
    ///   - loaded: The state as stored (never one adopted from a legacy key); `nil` when none is.
    ///   - current: The running version.
    ///   - policy: The launch's policy.
    ///   - catalog: The registered steps.
    /// - Returns: `upToDate`, `downgraded` or `deferred`.
    static func followerOutcome(
        loaded: UpgradeState?, current: Version, policy: UpgradePolicy, catalog: StepCatalog
    ) -> UpgradeOutcome {
        guard var state = loaded else { return .deferred }
        // A copy: the rules change it (rule 0's attempt, rule 2's version), and nothing is written.
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
    /// - Parameters:
    ///   - loaded: The state as stored; `nil` when none is.
    ///   - current: The running version.
    /// - Returns: `downgraded` with `current` below the mark, `upToDate` with the mark at `current`,
    ///   otherwise (no state, a null mark, the mark below `current`) `deferred`.
    static func followerOutcome(loaded: UpgradeState?, current: Version) -> UpgradeOutcome {
        guard let mark = loaded?.upgradedThrough else { return .deferred }
        if current < mark { return .downgraded }
        return current == mark ? .upToDate : .deferred
    }
}
