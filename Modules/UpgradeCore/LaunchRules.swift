import VersionKit

/// Rules 0 to 3 of a launch (SPEC section 5), as a pure function of the loaded state: what the state
/// becomes before any step runs, whether the launch stops there, and which steps are pending.
///
/// The running launch, the read-only plan and the explorer all use this one function.
struct LaunchPreparation {
    /// The state after rules 0 to 2.
    var state: UpgradeState
    /// Set when the launch stops before running steps: `freshInstall` or `downgraded`.
    var terminalOutcome: UpgradeOutcome?
    /// The catalog indices of the pending steps, in run order (rule 3).
    var pending: [Int]
    /// The mark the launch started from, after the fresh-install policy.
    var startingMark: Version?

    init(
        loaded: UpgradeState?, currentVersion current: Version, policy: UpgradePolicy, catalog: StepCatalog
    ) {
        // The state is built in place (not in a local copy) so that a launch copies it once.
        if let loaded {
            state = loaded
        } else {
            state = UpgradeState()
        }
        pending = []
        terminalOutcome = nil
        startingMark = nil
        // Rule 0: the last process died inside attempt k of step s.
        if let died = state.inProgress {
            state.setFailedAttempts(died.attempt, of: died.id, version: died.version, interrupted: true)
            state.inProgress = nil
        }
        // Rule 1: fresh install.
        if loaded == nil {
            switch policy.freshInstall {
            case .skip:
                state.upgradedThrough = current
                state.lastLaunched = current
                startingMark = current
                terminalOutcome = .freshInstall
                return
            case .runAll:
                state.upgradedThrough = nil
            case .upgradeFrom(let baseline):
                state.upgradedThrough = baseline
            }
        }
        startingMark = state.upgradedThrough
        // Rule 2: record the running version; a downgrade runs nothing.
        state.lastLaunched = current
        if let mark = state.upgradedThrough, current < mark {
            if policy.downgrade == .rewind {
                state.upgradedThrough = current
                state.dropEntries(above: current)
            }
            terminalOutcome = .downgraded
            return
        }
        // Rule 3: pending steps, in run order.
        let range = catalog.range(above: state.upgradedThrough, through: current)
        if !range.isEmpty {
            if state.completed.isEmpty && state.abandoned.isEmpty {
                pending = Array(range)
            } else {
                // A step in the range is done when `completed` or `abandoned` lists its id. Each listed
                // record is looked up once in the catalog (ids are unique there), by its version first,
                // rather than comparing every step's id with every listed id.
                let lower = range.lowerBound
                pending = withUnsafeTemporaryAllocation(of: Bool.self, capacity: range.count) { done in
                    done.initialize(repeating: false)
                    for record in state.completed {
                        if let index = catalog.index(of: record.id, version: record.version), range.contains(index) {
                            done[index - lower] = true
                        }
                    }
                    for record in state.abandoned {
                        if let index = catalog.index(of: record.id, version: record.version), range.contains(index) {
                            done[index - lower] = true
                        }
                    }
                    return range.filter { !done[$0 - lower] }
                }
            }
        }
    }

    /// Takes the state out of the preparation, leaving an empty one, without copying it.
    ///
    /// - Returns: The state after rules 0 to 2.
    mutating func takeState() -> UpgradeState {
        var taken = UpgradeState()
        swap(&taken, &state)
        return taken
    }

    /// Rule 5: every pending step was handled.
    static func finish(_ state: inout UpgradeState, at current: Version) {
        if state.upgradedThrough.map({ $0 < current }) ?? true {
            state.upgradedThrough = current
        }
        state.dropEntries(atOrBelow: current)
    }
}
