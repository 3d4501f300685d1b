import VersionKit

/// Rules 4 and 5 of a launch (SPEC section 5) as a pure, synchronous state machine: what to do with
/// each pending step, and how the state changes as steps are abandoned, started, finished or fail.
///
/// The machine owns the ``UpgradeState`` and the position in ``LaunchPreparation/pending``; it does no
/// input or output. A driver asks ``next(isCancelled:)`` what to do, performs it (saving the state
/// when told, running the step's action), and feeds the result back with ``succeeded()``,
/// ``failed()`` or ``cancelled()``. The running launch (`runPending`) and the in-memory launch of
/// the explorer both drive this one machine, so that there is one model of the rules.
struct LaunchMachine {
    /// What the driver must do next.
    enum Action {
        /// 4a: the step at catalog index `stepIndex` was given up on before running, after
        /// `failedAttempts` failed attempts, the last of them interrupted when `interrupted` is set.
        /// The state already records it as abandoned; the driver saves it.
        case abandon(stepIndex: Int, failedAttempts: Int, interrupted: Bool)
        /// 4b: the step at catalog index `stepIndex` is to run with `context`. The state already
        /// records it in progress; the driver saves it, then runs the step and reports the result.
        case run(stepIndex: Int, context: UpgradeContext)
        /// The launch is over with this outcome; for `upgraded` and `upToDate`, rule 5 is applied.
        case finished(UpgradeOutcome)
    }

    /// What became of a step that ran, once the machine has taken its result into account.
    struct StepEnd {
        /// Whether the driver must save the state now.
        var save: Bool
        /// Whether the step was abandoned (4d, with `giveUpAfter` reached).
        var abandoned: Bool
    }

    /// The state as the launch has made it so far.
    private(set) var state: UpgradeState
    private let steps: [UpgradeStep]
    private let pending: [Int]
    private let current: Version
    private let giveUpAfter: Int?
    /// The next position in `pending`.
    private var position = 0
    /// Whether a step was run or abandoned, for the outcome of rule 5.
    private var handledAny = false
    /// The step running now: its catalog index and context.
    private var running: (index: Int, context: UpgradeContext)?
    /// Set when the launch ended early (`failed` or `cancelled`).
    private var ended: UpgradeOutcome?

    /// Starts the steps pending after rules 0 to 3.
    ///
    /// - Parameters:
    ///   - preparation: The launch's preparation, without a terminal outcome.
    ///   - current: The running version.
    ///   - policy: The launch's policy (for `giveUpAfter`).
    ///   - catalog: The catalog the preparation's indices refer to.
    init(_ preparation: LaunchPreparation, current: Version, policy: UpgradePolicy, catalog: StepCatalog) {
        var preparation = preparation
        self.init(&preparation, current: current, policy: policy, catalog: catalog)
    }

    /// Starts the steps pending after rules 0 to 3, taking the preparation's state rather than
    /// copying it (the preparation's state is left empty).
    ///
    /// - Parameters:
    ///   - preparation: The launch's preparation, without a terminal outcome.
    ///   - current: The running version.
    ///   - policy: The launch's policy (for `giveUpAfter`).
    ///   - catalog: The catalog the preparation's indices refer to.
    init(_ preparation: inout LaunchPreparation, current: Version, policy: UpgradePolicy, catalog: StepCatalog) {
        state = preparation.takeState()
        steps = catalog.steps
        pending = preparation.pending
        self.current = current
        giveUpAfter = policy.giveUpAfter
    }

    /// Takes the state out of the machine, leaving an empty one, without copying it.
    ///
    /// - Returns: The state as the launch has made it so far.
    mutating func takeState() -> UpgradeState {
        var taken = UpgradeState()
        swap(&taken, &state)
        return taken
    }

    /// What to do next.
    ///
    /// - Parameter isCancelled: Whether the launch's task is cancelled; checked only before a step.
    /// - Returns: The next action; after `finished`, every further call returns the same.
    mutating func next(isCancelled: Bool = false) -> Action {
        precondition(running == nil, "LaunchMachine.next() called while a step is running")
        if let ended { return .finished(ended) }
        guard position < pending.count else {
            LaunchPreparation.finish(&state, at: current)
            let outcome: UpgradeOutcome = handledAny ? .upgraded : .upToDate
            ended = outcome
            return .finished(outcome)
        }
        if isCancelled {
            ended = .cancelled
            return .finished(.cancelled)
        }
        let index = pending[position]
        position += 1
        handledAny = true
        let step = steps[index]
        let failedSoFar = state.failedAttempts(of: step.id)
        let interrupted = state.lastAttemptInterrupted(of: step.id)
        // 4a: given up on before running.
        if let limit = giveUpAfter, failedSoFar >= limit {
            state.recordPendingAbandoned(StepRecord(id: step.id, version: step.version))
            return .abandon(stepIndex: index, failedAttempts: failedSoFar, interrupted: interrupted)
        }
        // 4b: record the attempt before it starts.
        let context = UpgradeContext(
            stepID: step.id, stepVersion: step.version, currentVersion: current, attempt: failedSoFar + 1,
            previousAttemptInterrupted: interrupted)
        state.inProgress = StepInProgress(id: step.id, version: step.version, attempt: context.attempt)
        running = (index, context)
        return .run(stepIndex: index, context: context)
    }

    /// 4c: the running step finished; the driver saves the state.
    ///
    /// - Returns: What became of the step (always saved, never abandoned).
    @discardableResult
    mutating func succeeded() -> StepEnd {
        guard let (index, _) = running else { preconditionFailure("no step is running") }
        running = nil
        state.inProgress = nil
        let step = steps[index]
        state.recordPendingCompleted(StepRecord(id: step.id, version: step.version))
        return StepEnd(save: true, abandoned: false)
    }

    /// 4d: the running step failed. Unless `giveUpAfter` is reached, the launch ends with `failed`
    /// (saved by the launch's final write); otherwise the step is abandoned, the driver saves the
    /// state and the launch goes on.
    ///
    /// - Returns: What became of the step.
    mutating func failed() -> StepEnd {
        guard let (index, context) = running else { preconditionFailure("no step is running") }
        running = nil
        state.inProgress = nil
        let step = steps[index]
        state.setFailedAttempts(context.attempt, of: step.id, version: step.version, interrupted: false)
        guard let limit = giveUpAfter, context.attempt >= limit else {
            ended = .failed
            return StepEnd(save: false, abandoned: false)
        }
        state.recordPendingAbandoned(StepRecord(id: step.id, version: step.version))
        return StepEnd(save: true, abandoned: true)
    }

    /// The running step was cancelled: no attempt is counted and the launch ends with `cancelled`.
    ///
    /// - Returns: What became of the step (not saved here: the launch's final write stores it).
    @discardableResult
    mutating func cancelled() -> StepEnd {
        guard running != nil else { preconditionFailure("no step is running") }
        running = nil
        state.inProgress = nil
        ended = .cancelled
        return StepEnd(save: false, abandoned: false)
    }
}
