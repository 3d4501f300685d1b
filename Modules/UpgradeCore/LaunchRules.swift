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
        var (state, freshInstall) = Self.startingState(loaded)
        let decided = Self.apply(
            to: &state, freshInstall: freshInstall, current: current, policy: policy, catalog: catalog)
        self.state = state
        terminalOutcome = decided.terminalOutcome
        pending = decided.pending
        startingMark = decided.startingMark
    }

    /// The state a launch starts from: a copy of the loaded state, or an empty one for a fresh
    /// install.
    ///
    /// - Parameter loaded: The stored state; `nil` when nothing is stored.
    /// - Returns: The state, and whether nothing was stored. (A flag rather than `loaded == nil`
    ///   later, which would compare two optional states through the generic `Optional` witnesses.)
    static func startingState(_ loaded: UpgradeState?) -> (state: UpgradeState, freshInstall: Bool) {
        if let loaded { return (loaded, false) }
        return (UpgradeState(), true)
    }

    /// Rules 0 to 3 applied to a state in place: the state as rules 0 to 2 leave it, and what the
    /// launch does next.
    ///
    /// The initializer uses it on a copy of the loaded state; the in-memory launch of the explorer
    /// uses it on the one state it keeps, so that nothing is copied twice.
    ///
    /// - Parameters:
    ///   - state: The loaded state (an empty one for a fresh install); becomes the state after rules
    ///     0 to 2.
    ///   - freshInstall: Whether nothing was loaded.
    ///   - current: The running version.
    ///   - policy: The launch's policy.
    ///   - catalog: The registered steps.
    /// - Returns: The terminal outcome (`freshInstall` or `downgraded`) when the launch stops before
    ///   running steps, the pending steps' catalog indices in run order, and the mark the launch
    ///   started from.
    static func apply(
        to state: inout UpgradeState, freshInstall: Bool, current: Version, policy: UpgradePolicy,
        catalog: StepCatalog
    ) -> (terminalOutcome: UpgradeOutcome?, pending: [Int], startingMark: Version?) {
        // Rule 0: the last process died inside attempt k of step s.
        if let died = state.inProgress {
            state.setFailedAttempts(died.attempt, of: died.id, version: died.version, interrupted: true)
            state.inProgress = nil
        }
        // Rule 1: fresh install.
        if freshInstall {
            switch policy.freshInstall {
            case .skip:
                state.upgradedThrough = current
                state.lastLaunched = current
                return (.freshInstall, [], current)
            case .runAll:
                state.upgradedThrough = nil
            case .upgradeFrom(let baseline):
                state.upgradedThrough = baseline
            }
        }
        let startingMark = state.upgradedThrough
        // Rule 2: record the running version; a downgrade runs nothing.
        state.lastLaunched = current
        if let mark = state.upgradedThrough, current < mark {
            if policy.downgrade == .rewind {
                state.upgradedThrough = current
                state.dropEntries(above: current)
            }
            return (.downgraded, [], startingMark)
        }
        // Rule 3: pending steps, in run order.
        return (nil, pendingSteps(of: state, through: current, catalog: catalog), startingMark)
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
        // A step in the range is done when `completed` or `abandoned` lists its id. Each listed record
        // is looked up once in the catalog (ids are unique there), by its version first, rather than
        // comparing every step's id with every listed id.
        let lower = range.lowerBound
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: range.count) { done in
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
            for index in range where !done[index - lower] { pending.append(index) }
        }
        return pending
    }

    /// Whether a launch ends with its final write (the state with the launch's history record): when
    /// it wrote during the launch (an `inProgress` record, a finished or abandoned step), or when
    /// its state differs from the one loaded. A launch that changes nothing writes nothing.
    ///
    /// Both drivers, `run` and the in-memory launch, decide with this one function.
    ///
    /// - Parameters:
    ///   - loaded: The state loaded at the start of the launch; `nil` for a fresh install.
    ///   - state: The state at the end of the launch, before its history record.
    ///   - wroteDuringLaunch: Whether the launch saved the state before its end.
    /// - Returns: `true` when the launch must save `state` with its history record.
    static func needsFinalWrite(loaded: UpgradeState?, state: UpgradeState, wroteDuringLaunch: Bool) -> Bool {
        // Optional chaining reads `loaded` in place; `if let` or `!=` on the optional would copy it.
        wroteDuringLaunch || (loaded?.differs(from: state) ?? true)
    }

    /// Rule 5: every pending step was handled.
    static func finish(_ state: inout UpgradeState, at current: Version) {
        if state.upgradedThrough.map({ $0 < current }) ?? true {
            state.upgradedThrough = current
        }
        state.dropEntries(atOrBelow: current)
    }
}
