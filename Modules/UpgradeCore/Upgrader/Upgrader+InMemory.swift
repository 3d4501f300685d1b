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
        /// The background time ended while the action ran, and the process was then killed
        /// (<doc:LaunchAlgorithm>, "Interruptions").
        case expire
        /// The action said "not now" (``UpgradeStepNotNow``).
        case notNow
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

    /// Performs one launch synchronously in memory, with the same machine as ``run(currentVersion:)``
    /// but no store, lock, clock, report, events or history.
    ///
    /// - Parameters:
    ///   - loaded: The stored state before the launch; `nil` for a fresh install.
    ///   - current: The running version.
    ///   - launch: Receives what the launch did; reset first.
    ///   - perform: Runs the step at a catalog index with its context, and says how it ended.
    /// - Returns: The stored state after the launch (after a crash: as last saved), or `nil` when the
    ///   launch wrote nothing.
    /// - Throws: ``UpgradeError`` for a configuration mistake, before anything runs.
    package func launchInMemory(
        state loaded: UpgradeState?, at current: Version, into launch: inout InMemoryLaunch,
        perform: (Int, UpgradeContext) -> InMemoryStepResult
    ) throws(UpgradeError) -> UpgradeState? {
        try launchInMemory(state: loaded, at: current, locked: false, into: &launch, perform: perform)
    }

    /// Performs one launch in memory as ``launchInMemory(state:at:into:perform:)`` does, with
    /// protected data available or not.
    ///
    /// - Parameters:
    ///   - loaded: The stored state before the launch; `nil` for a fresh install.
    ///   - current: The running version.
    ///   - locked: Whether protected data is unavailable (<doc:LaunchAlgorithm>, "Protected data").
    ///   - launch: Receives what the launch did; reset first.
    ///   - perform: Runs the step at a catalog index with its context, and says how it ended.
    /// - Returns: As the other form returns.
    /// - Throws: ``UpgradeError`` for a configuration mistake, before anything runs.
    package func launchInMemory(
        state loaded: UpgradeState?, at current: Version, locked: Bool, into launch: inout InMemoryLaunch,
        perform: (Int, UpgradeContext) -> InMemoryStepResult
    ) throws(UpgradeError) -> UpgradeState? {
        try validate()
        launch.reset()
        if locked {
            launch.outcome = .deferred
            launch.upgradedThrough = loaded?.upgradedThrough
            return nil
        }
        // A crash leaves the state as last written: `state` as it was when the announced step started.
        var (state, freshInstall) = LaunchRules.startingState(loaded)
        var machine = LaunchMachine(
            state: &state, freshInstall: freshInstall, from: nil, current: current, policy: policy, catalog: catalog)
        while true {
            switch machine.next(&state) {
            case .abandon(let index, _, _):
                launch.abandoned.append(index)
            case .saveAndRun(let index, let context):
                launch.wrote = true
                launch.ran.append(index)
                switch perform(index, context) {
                case .ok:
                    machine.succeeded(&state)
                    launch.finished.append(index)
                case .fail:
                    if machine.failed(&state) { launch.abandoned.append(index) }
                case .crash:
                    // The process dies with the inProgress record just written.
                    launch.outcome = nil
                    launch.upgradedThrough = state.upgradedThrough
                    return state
                case .expire:
                    // The expiry handler writes the interruption; the process is then killed.
                    machine.interrupted(&state)
                    launch.outcome = .cancelled
                    launch.upgradedThrough = state.upgradedThrough
                    return state
                case .notNow:
                    machine.notNow(&state)
                }
            case .finish(let outcome, let writes):
                launch.outcome = outcome
                launch.upgradedThrough = state.upgradedThrough
                guard writes else { return launch.wrote ? state : nil }
                launch.wrote = true
                return state
            }
        }
    }
}
