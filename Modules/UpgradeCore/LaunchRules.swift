import VersionKit

/// Rules 0 to 3 of a launch (SPEC section 5), as a pure function of the loaded state: what the state
/// becomes before any step runs, whether the launch stops there, and which steps are pending.
///
/// The running launch, the read-only plan and the explorer all use this one function.
struct LaunchPreparation {
    /// The state after rules 0 to 2.
    var state: UpgradeState
    /// The step the last process died in, if any (rule 0).
    var interrupted: StepInProgress?
    /// Set when the launch stops before running steps: `freshInstall` or `downgraded`.
    var terminalOutcome: UpgradeOutcome?
    /// The catalog indices of the pending steps, in run order (rule 3).
    var pending: [Int]
    /// The mark the launch started from, after the fresh-install policy.
    var startingMark: Version?

    init(
        loaded: UpgradeState?, currentVersion current: Version, policy: UpgradePolicy, catalog: StepCatalog
    ) {
        var state = loaded ?? UpgradeState()
        pending = []
        terminalOutcome = nil
        // Rule 0: the last process died inside attempt k of step s.
        interrupted = state.inProgress
        if let died = state.inProgress {
            state.setFailedAttempts(died.attempt, of: died.id, version: died.version)
            state.inProgress = nil
        }
        // Rule 1: fresh install.
        if loaded == nil {
            switch policy.freshInstall {
            case .skip:
                state.upgradedThrough = current
                state.lastLaunched = current
                self.state = state
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
            self.state = state
            terminalOutcome = .downgraded
            return
        }
        // Rule 3: pending steps, in run order.
        let range = catalog.range(above: state.upgradedThrough, through: current)
        if !range.isEmpty {
            let done = state.completed.count + state.abandoned.count
            if done == 0 {
                pending = Array(range)
            } else if done <= 16 {
                pending = range.filter { index in
                    let id = catalog.steps[index].id
                    return !state.isCompleted(id) && !state.isAbandoned(id)
                }
            } else {
                var doneIDs = Set<String>(minimumCapacity: done)
                for record in state.completed { doneIDs.insert(record.id) }
                for record in state.abandoned { doneIDs.insert(record.id) }
                pending = range.filter { !doneIDs.contains(catalog.steps[$0].id) }
            }
        }
        self.state = state
    }

    /// Rule 5: every pending step was handled.
    static func finish(_ state: inout UpgradeState, at current: Version) {
        if state.upgradedThrough.map({ $0 < current }) ?? true {
            state.upgradedThrough = current
        }
        state.dropEntries(atOrBelow: current)
    }
}
