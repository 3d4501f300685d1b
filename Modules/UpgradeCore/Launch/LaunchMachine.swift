import VersionKit

/// One launch (<doc:LaunchAlgorithm>, rules 0 to 5, "Writes") as a pure, synchronous state machine
/// that decides every effect of the launch. It does no input or output.
///
/// The driver keeps the ``UpgradeState`` and lends it to each call. It starts the machine with
/// ``start(loaded:current:policy:catalog:recordingAt:)``, asks ``next(_:isCancelled:)`` what to do,
/// carries the effect out, and feeds a step's result back (``succeeded(_:milliseconds:)``,
/// ``failed(_:milliseconds:)``, ``notNow(_:milliseconds:)``, ``interrupted(_:)``). `run`, the plan
/// and the explorer's in-memory launch all drive this one machine.
struct LaunchMachine: Sendable {
    /// What the driver must do next.
    enum Effect {
        /// 4a: the step at catalog index `stepIndex` was given up on before running, after
        /// `failedAttempts` failed attempts, the last of them interrupted when `interrupted` is set.
        /// The state records it as abandoned; it is written with the next write.
        case abandon(stepIndex: Int, failedAttempts: Int, interrupted: Bool)
        /// 4b: write the state (which records the step in progress, with every change since the last
        /// write), then run the step at catalog index `stepIndex` with `context` and report the result.
        case saveAndRun(stepIndex: Int, context: UpgradeContext)
        /// The launch is over with this outcome. When `write` is set, the driver writes the state as
        /// the launch's last write, with ``record`` for the history.
        case finish(UpgradeOutcome, write: Bool)
    }

    private let steps: [UpgradeStep]
    private let pending: [Int]
    private let current: Version
    private let giveUpAfter: Int?
    /// The outcome of rules 1 and 2 when the launch stops before any step.
    let terminalOutcome: UpgradeOutcome?
    /// The mark the launch started from, after the fresh-install policy.
    let startingMark: Version?
    private var position = 0
    /// Whether a step was run or abandoned, for the outcome of rule 5.
    private var handledAny = false
    /// The catalog index of the step running now, or -1.
    private var runningIndex = -1
    private var runningAttempt = 0
    /// The id of the step running now, as the state writes it: the text of an `attempts` entry that
    /// is `==` to the step's id when there is one (a store keeps an id's text as first written),
    /// otherwise the step's id.
    private var runningID = ""
    private var unsaved: Bool
    /// Whether rule 5 was applied already (at the start, when nothing was pending).
    private var settled = false
    /// Set when the launch ends: the next call returns `finish` with it.
    private var ending: UpgradeOutcome?
    private var finished = false
    /// The launch's record for the history, when the driver keeps one: its time and the version
    /// launched before; the steps are added as they are handled.
    private var recording: (time: Double, from: Version?)?
    private var recordedSteps: [LaunchRecord.RecordedStep] = []

    /// Applies rules 0 to 3 to the loaded state and starts the launch; with `recordingAt` (seconds
    /// since 1970) the machine keeps the launch's record for the history.
    ///
    /// - Returns: The machine and the launch's state, which the driver keeps and lends to each call.
    static func start(
        loaded: UpgradeState?, current: Version, policy: UpgradePolicy, catalog: StepCatalog,
        recordingAt time: Double? = nil
    ) -> (machine: LaunchMachine, state: UpgradeState) {
        var (state, freshInstall) = LaunchRules.startingState(loaded)
        let machine = LaunchMachine(
            state: &state, freshInstall: freshInstall, from: loaded?.lastLaunched, current: current, policy: policy,
            catalog: catalog, recordingAt: time)
        return (machine, state)
    }

    /// Applies rules 0 to 3 to a state in place and starts the launch; ``start(loaded:current:policy:catalog:recordingAt:)``
    /// for a driver that keeps the one state it changes (the explorer).
    init(
        state: inout UpgradeState, freshInstall: Bool, from: Version?, current: Version, policy: UpgradePolicy,
        catalog: StepCatalog, recordingAt time: Double? = nil
    ) {
        let decision = LaunchRules.apply(
            to: &state, freshInstall: freshInstall, current: current, policy: policy, catalog: catalog)
        steps = catalog.steps
        pending = decision.pending
        self.current = current
        giveUpAfter = policy.giveUpAfter
        terminalOutcome = decision.terminalOutcome
        startingMark = decision.startingMark
        unsaved = decision.changed
        recording = time.map { ($0, from) }
        if decision.terminalOutcome == nil && decision.pending.isEmpty {
            // Nothing pending: rule 5 now, so that `hasNothingToDo` can tell whether it changes anything.
            if LaunchRules.finish(&state, at: current) { unsaved = true }
            settled = true
        }
    }

    /// Whether the launch would change nothing, and so ends without a write
    /// (<doc:LaunchAlgorithm>, "The fast path").
    var hasNothingToDo: Bool { pending.isEmpty && !unsaved }

    /// How a launch that has nothing to do ends: as rule 1 or 2 decided, or up to date.
    var outcomeWithNothingToDo: UpgradeOutcome { terminalOutcome ?? .upToDate }

    /// The launch's record for the history, once it ended with a write; `nil` before, or when the
    /// machine was started without `recordingAt`.
    var record: LaunchRecord? {
        guard finished, let recording, let ending else { return nil }
        return LaunchRecord(
            time: Self.recorded(recording.time), from: recording.from, to: current, outcome: ending,
            steps: recordedSteps)
    }

    /// A time or duration as the launch's record holds it: to the thousandth (a millisecond of the
    /// time, a microsecond of a step's milliseconds), all a diagnostic record needs.
    ///
    /// - Parameter value: The time in seconds, or the duration in milliseconds.
    /// - Returns: The value rounded to the thousandth; a value that is not finite, or too large to
    ///   have thousandths (2^52 / 1000 or more), as it is.
    static func recorded(_ value: Double) -> Double {
        guard value.isFinite, value.magnitude < 0x1p52 / 1000 else { return value }
        return (value * 1000).rounded() / 1000
    }

    /// The catalog indices of the pending steps, in run order (rule 3).
    var pendingSteps: [Int] { pending }

    /// Makes room, once, for what the launch adds to its state's `completed` list and to its record:
    /// grown a step at a time, each list would be copied to larger memory a few times in a launch of
    /// ten steps.
    ///
    /// A function of its own, called only by a driver that runs steps: a launch with nothing to do
    /// reserves nothing.
    ///
    /// - Parameter state: The launch's state.
    @inline(never)
    mutating func reserveRoom(in state: inout UpgradeState) {
        guard !pending.isEmpty else { return }
        if recording != nil { recordedSteps.reserveCapacity(pending.count) }
        state.completed.reserveCapacity(state.completed.count + pending.count)
    }

    /// What to do next.
    ///
    /// - Returns: The next effect; after `finish`, every further call returns `finish` without a write.
    mutating func next(_ state: inout UpgradeState, isCancelled: Bool = false) -> Effect {
        precondition(runningIndex < 0, "LaunchMachine.next() called while a step is running")
        if finished { return .finish(ending!, write: false) }
        if ending == nil, let terminalOutcome { ending = terminalOutcome }
        if let ending { return end(ending) }
        guard position < pending.count else {
            if !settled, LaunchRules.finish(&state, at: current) { unsaved = true }
            settled = true
            return end(handledAny ? .upgraded : .upToDate)
        }
        if isCancelled { return end(.cancelled) }
        let index = pending[position]
        position += 1
        handledAny = true
        let stepID = steps[index].id
        let version = steps[index].version
        let (failedSoFar, interrupted) = state.attemptSummary(of: stepID)
        let id = state.writtenID(of: stepID)
        // 4a: given up on before running; written with the next write.
        if let limit = giveUpAfter, failedSoFar >= limit {
            state.recordPendingAbandoned(StepRecord(id: id, version: version))
            unsaved = true
            addToRecord(id: stepID, attempt: failedSoFar, result: .notRun, abandoned: true, milliseconds: 0)
            return .abandon(stepIndex: index, failedAttempts: failedSoFar, interrupted: interrupted)
        }
        // 4b
        let attempt = failedSoFar + 1
        state.inProgress = StepInProgress(id: id, version: version, attempt: attempt)
        unsaved = false
        runningIndex = index
        runningAttempt = attempt
        runningID = id
        return .saveAndRun(
            stepIndex: index,
            context: UpgradeContext(
                stepID: stepID, stepVersion: version, currentVersion: current, attempt: attempt,
                previousAttemptInterrupted: interrupted))
    }

    /// 4c: the running step finished. Its completion is written with the next write.
    mutating func succeeded(_ state: inout UpgradeState, milliseconds: Double = 0) {
        let index = runningIndex
        precondition(index >= 0, "no step is running")
        runningIndex = -1
        state.inProgress = nil
        state.recordPendingCompleted(StepRecord(id: runningID, version: steps[index].version))
        unsaved = true
        addToRecord(
            id: steps[index].id, attempt: runningAttempt, result: .completed, abandoned: false,
            milliseconds: milliseconds)
    }

    /// 4d: the running step failed; it is abandoned when `giveUpAfter` is reached, otherwise the
    /// launch ends with `failed`.
    ///
    /// - Returns: Whether the step was abandoned.
    @discardableResult
    mutating func failed(_ state: inout UpgradeState, milliseconds: Double = 0) -> Bool {
        let index = runningIndex
        precondition(index >= 0, "no step is running")
        runningIndex = -1
        let attempt = runningAttempt
        state.inProgress = nil
        let id = runningID
        let version = steps[index].version
        state.setFailedAttempts(attempt, of: id, version: version, interrupted: false)
        unsaved = true
        let abandoned = giveUpAfter.map { attempt >= $0 } ?? false
        addToRecord(
            id: steps[index].id, attempt: attempt, result: .failed, abandoned: abandoned, milliseconds: milliseconds)
        if abandoned {
            state.recordPendingAbandoned(StepRecord(id: id, version: version))
        } else {
            ending = .failed
        }
        return abandoned
    }

    /// The running step was interrupted (<doc:LaunchAlgorithm>, "Interruptions"): the attempt is not
    /// counted, and the launch ends with `cancelled`, writing ``interruptedState(_:)``.
    mutating func interrupted(_ state: inout UpgradeState) {
        let index = runningIndex
        precondition(index >= 0, "no step is running")
        state = interruptedState(state)
        runningIndex = -1
        unsaved = true
        ending = .cancelled
        addToRecord(
            id: steps[index].id, attempt: runningAttempt, result: .interrupted, abandoned: false, milliseconds: 0)
    }

    /// The running step was cancelled; ``interrupted(_:)``, under the name of the task's cancellation.
    mutating func cancelled(_ state: inout UpgradeState) { interrupted(&state) }

    /// The state to write when the launch is interrupted now: with a step running, its `inProgress`
    /// record turned into an uncounted interruption; otherwise the state as it is.
    ///
    /// - Returns: The state to write.
    func interruptedState(_ state: UpgradeState) -> UpgradeState {
        guard runningIndex >= 0 else { return state }
        return state.interruptingStepInProgress()
    }

    /// The running step said "not now" (<doc:LaunchAlgorithm>, "Interruptions"): the attempt is not
    /// counted, and the launch ends with `deferred`.
    mutating func notNow(_ state: inout UpgradeState, milliseconds: Double = 0) {
        let index = runningIndex
        precondition(index >= 0, "no step is running")
        runningIndex = -1
        state.inProgress = nil
        unsaved = true
        ending = .deferred
        addToRecord(
            id: steps[index].id, attempt: runningAttempt, result: .notNow, abandoned: false,
            milliseconds: milliseconds)
    }

    /// The launch was interrupted between steps, or after a step it went on to record: it runs no
    /// further step and ends with `cancelled`.
    mutating func stop() {
        precondition(runningIndex < 0, "a step is running; call interrupted(_:)")
        if !finished { ending = .cancelled }
    }

    /// The step announced by the last `saveAndRun` did not start: the launch was interrupted before
    /// the write that announces it. The launch ends with `cancelled`, with nothing left to write.
    mutating func announcementRefused(_ state: inout UpgradeState) {
        precondition(runningIndex >= 0, "no step was announced")
        runningIndex = -1
        position -= 1
        state.inProgress = nil
        unsaved = false
        ending = .cancelled
    }

    /// Ends the launch: `finish` with a write when anything is unwritten.
    private mutating func end(_ outcome: UpgradeOutcome) -> Effect {
        ending = outcome
        finished = true
        return .finish(outcome, write: unsaved)
    }

    /// Adds a step to the history record, when the machine keeps one.
    private mutating func addToRecord(
        id: String, attempt: Int, result: StepReport.Result.Kind, abandoned: Bool, milliseconds: Double
    ) {
        guard recording != nil else { return }
        recordedSteps.append(
            LaunchRecord.RecordedStep(
                id: id, attempt: attempt, result: result, abandoned: abandoned,
                milliseconds: Self.recorded(milliseconds)))
    }
}
