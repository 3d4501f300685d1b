import VersionKit

extension Upgrader {
    /// How a step's action ends in an in-memory launch.
    package enum InMemoryStepResult: Sendable {
        /// The action finished.
        case ok
        /// The action failed (threw).
        case fail
        /// The process died inside the action: the launch stops there, and the state is what was
        /// last saved.
        case crash
    }

    /// What an in-memory launch did, by catalog index (the position in ``steps``). Its buffers are
    /// reused from launch to launch.
    package struct InMemoryLaunch: Sendable {
        /// How the launch ended; `nil` when the process died in a step.
        package var outcome: UpgradeOutcome?
        /// The mark after the launch: the state's, or the stored state's after a crash.
        package var upgradedThrough: Version?
        /// Whether the launch wrote the state (a launch that changes nothing writes nothing).
        package var wrote = false
        /// The catalog indices of the steps started, in order.
        package var ran: [Int] = []
        /// The catalog indices of the steps that finished, in order.
        package var finished: [Int] = []
        /// The catalog indices of the steps abandoned, in order.
        package var abandoned: [Int] = []

        /// Creates an empty record.
        package init() {}

        mutating func reset() {
            outcome = nil
            upgradedThrough = nil
            wrote = false
            ran.clearKeepingCapacity()
            finished.clearKeepingCapacity()
            abandoned.clearKeepingCapacity()
        }
    }

    /// Performs one launch synchronously in memory, with the same rules as ``run(currentVersion:)``
    /// (``LaunchPreparation`` and ``LaunchMachine``) but no store, lock, clock, report or events: the
    /// state is kept in a local value and "saved" where `run` saves it.
    ///
    /// The state returned is the one `run` would leave in its store. (`run` also adds a record to the
    /// store's history with its last write; this launch keeps no history.)
    ///
    /// - Parameters:
    ///   - loaded: The stored state before the launch; `nil` for a fresh install.
    ///   - current: The running version.
    ///   - launch: Receives what the launch did; reset first.
    ///   - perform: Runs the step at a catalog index with its context, and says how it ended.
    /// - Returns: The stored state after the launch (after a crash: as last saved), or `nil` when the
    ///   launch wrote nothing (`launch.wrote` is `false`), so that the state is `loaded` as given and
    ///   the caller keeps it without a copy. A fresh install always writes.
    /// - Throws: ``UpgradeError`` for a configuration mistake, before anything runs.
    package func launchInMemory(
        state loaded: UpgradeState?, at current: Version, into launch: inout InMemoryLaunch,
        perform: (Int, UpgradeContext) -> InMemoryStepResult
    ) throws(UpgradeError) -> UpgradeState? {
        try validate()
        launch.reset()
        // The one state of the launch: a copy of the loaded state that rules 0 to 5 change in place.
        // Every save but the final write is followed by running a step (whose crash leaves the state
        // as saved) or by another save, so the state the store would hold is `state` after a crash,
        // and otherwise `loaded` until the final write.
        var (state, freshInstall) = LaunchPreparation.startingState(loaded)
        let decided = LaunchPreparation.apply(
            to: &state, freshInstall: freshInstall, current: current, policy: policy, catalog: catalog)
        var wrote = false
        let outcome: UpgradeOutcome
        if let terminal = decided.terminalOutcome {
            outcome = terminal
        } else {
            var machine = LaunchMachine(pending: decided.pending, current: current, policy: policy, catalog: catalog)
            launching: while true {
                switch machine.next(&state) {
                case .finished(let end):
                    outcome = end
                    break launching
                case .abandon(let index, _, _):
                    wrote = true
                    launch.abandoned.append(index)
                case .run(let index, let context):
                    wrote = true
                    launch.ran.append(index)
                    switch perform(index, context) {
                    case .ok:
                        machine.succeeded(&state)
                        launch.finished.append(index)
                    case .fail:
                        let end = machine.failed(&state)
                        if end.abandoned { launch.abandoned.append(index) }
                    case .crash:
                        // The process dies with the inProgress record just saved.
                        launch.outcome = nil
                        launch.upgradedThrough = state.upgradedThrough
                        launch.wrote = true
                        return state
                    }
                }
            }
        }
        // The launch's final write, as `run` makes it.
        guard LaunchPreparation.needsFinalWrite(loaded: loaded, state: state, wroteDuringLaunch: wrote) else {
            launch.outcome = outcome
            launch.upgradedThrough = state.upgradedThrough
            return nil
        }
        launch.outcome = outcome
        launch.upgradedThrough = state.upgradedThrough
        launch.wrote = true
        return state
    }
}
