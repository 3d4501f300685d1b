import VersionKit

/// Rules 4 and 5 of a launch (SPEC section 5) as a pure, synchronous state machine: what to do with
/// each pending step, and how the state changes as steps are abandoned, started, finished or fail.
///
/// The machine keeps the position in ``LaunchPreparation/pending``; the driver keeps the
/// ``UpgradeState`` and lends it to each call, so that the state lives in one place and is never
/// copied for the machine's sake. The machine does no input or output. A driver asks
/// ``next(_:isCancelled:)`` what to do, performs it (saving the state when told, running the step's
/// action), and feeds the result back with ``succeeded(_:)``, ``failed(_:)`` or ``cancelled(_:)``.
/// The running launch (`runPending`) and the in-memory launch of the explorer both drive this one
/// machine, so that there is one model of the rules.
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

    private let steps: [UpgradeStep]
    private let pending: [Int]
    private let current: Version
    private let giveUpAfter: Int?
    /// The next position in `pending`.
    private var position = 0
    /// Whether a step was run or abandoned, for the outcome of rule 5.
    private var handledAny = false
    /// The catalog index of the step running now, or -1. (Plain integers rather than an optional
    /// tuple holding the context: an optional of a non-trivial tuple is copied and destroyed through
    /// generic witnesses, a measurable cost in `explore`.)
    private var runningIndex = -1
    /// The attempt number of the step running now.
    private var runningAttempt = 0
    /// Set when the launch ended early (`failed` or `cancelled`).
    private var ended: UpgradeOutcome?

    /// Starts the steps pending after rules 0 to 3.
    ///
    /// - Parameters:
    ///   - pending: The catalog indices of the pending steps, in run order
    ///     (``LaunchPreparation/pending``).
    ///   - current: The running version.
    ///   - policy: The launch's policy (for `giveUpAfter`).
    ///   - catalog: The catalog the indices refer to.
    init(pending: [Int], current: Version, policy: UpgradePolicy, catalog: StepCatalog) {
        steps = catalog.steps
        self.pending = pending
        self.current = current
        giveUpAfter = policy.giveUpAfter
    }

    /// What to do next.
    ///
    /// - Parameters:
    ///   - state: The launch's state (after rules 0 to 2 and the machine's earlier changes); changed
    ///     as the action requires (the step recorded as abandoned or in progress, or rule 5).
    ///   - isCancelled: Whether the launch's task is cancelled; checked only before a step.
    /// - Returns: The next action; after `finished`, every further call returns the same.
    mutating func next(_ state: inout UpgradeState, isCancelled: Bool = false) -> Action {
        precondition(runningIndex < 0, "LaunchMachine.next() called while a step is running")
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
        // The step's fields are read in place: copying the step would retain its action and texts.
        let id = steps[index].id
        let version = steps[index].version
        let (failedSoFar, interrupted) = state.attemptSummary(of: id)
        // 4a: given up on before running.
        if let limit = giveUpAfter, failedSoFar >= limit {
            state.recordPendingAbandoned(StepRecord(id: id, version: version))
            return .abandon(stepIndex: index, failedAttempts: failedSoFar, interrupted: interrupted)
        }
        // 4b: record the attempt before it starts.
        let attempt = failedSoFar + 1
        state.inProgress = StepInProgress(id: id, version: version, attempt: attempt)
        runningIndex = index
        runningAttempt = attempt
        return .run(
            stepIndex: index,
            context: UpgradeContext(
                stepID: id, stepVersion: version, currentVersion: current, attempt: attempt,
                previousAttemptInterrupted: interrupted))
    }

    /// 4c: the running step finished; the driver saves the state.
    ///
    /// - Parameter state: The launch's state; the step is recorded as completed.
    /// - Returns: What became of the step (always saved, never abandoned).
    @discardableResult
    mutating func succeeded(_ state: inout UpgradeState) -> StepEnd {
        let index = runningIndex
        precondition(index >= 0, "no step is running")
        runningIndex = -1
        state.inProgress = nil
        state.recordPendingCompleted(StepRecord(id: steps[index].id, version: steps[index].version))
        return StepEnd(save: true, abandoned: false)
    }

    /// 4d: the running step failed. Unless `giveUpAfter` is reached, the launch ends with `failed`
    /// (saved by the launch's final write); otherwise the step is abandoned, the driver saves the
    /// state and the launch goes on.
    ///
    /// - Parameter state: The launch's state; the failed attempt is counted, and the step recorded
    ///   as abandoned when it is given up on.
    /// - Returns: What became of the step.
    mutating func failed(_ state: inout UpgradeState) -> StepEnd {
        let index = runningIndex
        precondition(index >= 0, "no step is running")
        runningIndex = -1
        let attempt = runningAttempt
        state.inProgress = nil
        let id = steps[index].id
        let version = steps[index].version
        state.setFailedAttempts(attempt, of: id, version: version, interrupted: false)
        guard let limit = giveUpAfter, attempt >= limit else {
            ended = .failed
            return StepEnd(save: false, abandoned: false)
        }
        state.recordPendingAbandoned(StepRecord(id: id, version: version))
        return StepEnd(save: true, abandoned: true)
    }

    /// The running step was cancelled: no attempt is counted and the launch ends with `cancelled`.
    ///
    /// - Parameter state: The launch's state; its `inProgress` record is cleared.
    /// - Returns: What became of the step (not saved here: the launch's final write stores it).
    @discardableResult
    mutating func cancelled(_ state: inout UpgradeState) -> StepEnd {
        precondition(runningIndex >= 0, "no step is running")
        runningIndex = -1
        state.inProgress = nil
        ended = .cancelled
        return StepEnd(save: false, abandoned: false)
    }
}
