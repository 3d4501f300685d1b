import VersionKit

/// Rules 0 to 3 and 5 of a launch (<doc:LaunchAlgorithm>), as pure functions of the state, which
/// ``LaunchMachine`` applies.
enum LaunchRules {
    /// What rules 0 to 3 decided.
    struct Decision {
        /// Set when the launch stops before running steps: `freshInstall` or `downgraded`.
        var terminalOutcome: UpgradeOutcome?
        /// The catalog indices of the pending steps, in run order (rule 3).
        var pending: [Int]
        /// The mark the launch started from, after the fresh-install policy.
        var startingMark: Version?
        /// Whether rules 0 to 2 changed the state from the one loaded (always, for a fresh install).
        var changed: Bool
    }

    /// The state a launch starts from: a copy of the loaded state, or an empty one for a fresh
    /// install.
    ///
    /// - Returns: The state, and whether nothing was stored.
    static func startingState(_ loaded: UpgradeState?) -> (state: UpgradeState, freshInstall: Bool) {
        if let loaded { return (loaded, false) }
        return (UpgradeState(), true)
    }

    /// Rules 0 to 3 applied to a state in place.
    ///
    /// - Returns: What the rules decided, and whether they changed the state.
    static func apply(
        to state: inout UpgradeState, freshInstall: Bool, current: Version, policy: UpgradePolicy,
        catalog: StepCatalog
    ) -> Decision {
        var changed = freshInstall
        // Rule 0: the last process died inside attempt k of step s.
        if let died = state.inProgress {
            state.setFailedAttempts(died.attempt, of: died.id, version: died.version, interrupted: true)
            state.inProgress = nil
            changed = true
        }
        // Rule 1: fresh install.
        if freshInstall {
            switch policy.freshInstall {
            case .skip:
                state.upgradedThrough = current
                state.lastLaunched = current
                return Decision(terminalOutcome: .freshInstall, pending: [], startingMark: current, changed: true)
            case .runAll:
                state.upgradedThrough = nil
            case .upgradeFrom(let baseline):
                state.upgradedThrough = baseline
            }
        }
        let startingMark = state.upgradedThrough
        // Rule 2: record the running version; a downgrade runs nothing.
        if state.lastLaunched.map({ $0 != current }) ?? true {
            state.lastLaunched = current
            changed = true
        }
        if let mark = state.upgradedThrough, current < mark {
            if policy.downgrade == .rewind {
                state.upgradedThrough = current
                state.dropEntries(above: current)
                changed = true
            }
            return Decision(terminalOutcome: .downgraded, pending: [], startingMark: startingMark, changed: changed)
        }
        // Rule 3: pending steps, in run order.
        return Decision(
            terminalOutcome: nil, pending: pendingSteps(of: state, through: current, catalog: catalog),
            startingMark: startingMark, changed: changed)
    }

    /// Rule 3: the catalog indices of the steps above the state's mark and at or below `current`
    /// that the state does not list as completed or abandoned, in run order.
    private static func pendingSteps(of state: UpgradeState, through current: Version, catalog: StepCatalog) -> [Int] {
        let range = catalog.range(above: state.upgradedThrough, through: current)
        guard !range.isEmpty else { return [] }
        var pending: [Int] = []
        pending.reserveCapacity(range.count)
        if state.completed.isEmpty && state.abandoned.isEmpty {
            pending.append(contentsOf: range)
            return pending
        }
        // A step in the range is done when `completed` or `abandoned` lists its id.
        var done = Set<Int>()
        for record in state.completed + state.abandoned {
            if let index = catalog.index(of: record.id), range.contains(index) { done.insert(index) }
        }
        pending.append(contentsOf: range.filter { !done.contains($0) })
        return pending
    }

    /// Rule 5: every pending step was handled; the mark moves to `current` and the entries it covers
    /// are dropped.
    ///
    /// - Returns: Whether the state changed.
    @discardableResult
    static func finish(_ state: inout UpgradeState, at current: Version) -> Bool {
        var changed = false
        if state.upgradedThrough.map({ $0 < current }) ?? true {
            state.upgradedThrough = current
            changed = true
        }
        return state.dropEntries(atOrBelow: current) || changed
    }
}
