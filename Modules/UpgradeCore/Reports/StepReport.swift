import VersionKit

/// What became of one step in one launch.
public struct StepReport: Sendable {
    /// The result of the step's action in this launch.
    public enum Result: Sendable {
        /// The action finished.
        case completed
        /// The action failed, by returning `false` or throwing this error.
        case failed(any Error)
        /// The action was not run: the step was abandoned because its earlier attempts had reached
        /// the policy's `giveUpAfter`.
        case notRun
        /// The launch was interrupted while the action ran (its background time ran out, the task
        /// was cancelled, ``Upgrader/interruptLaunch()``): the attempt is not counted, and the step
        /// is told at its next attempt that this one was interrupted.
        case interrupted
        /// The action said "not now" (``UpgradeStepNotNow``, with this reason): the attempt is not
        /// counted, and the launch ended ``UpgradeOutcome/deferred``.
        case notNow(reason: String)

        /// The result without its error, as history records it.
        public enum Kind: String, Sendable, Hashable {
            /// The action finished.
            case completed
            /// The action failed.
            case failed
            /// The action was not run.
            case notRun
            /// The action was interrupted; no attempt counted.
            case interrupted
            /// The action said "not now"; no attempt counted.
            case notNow
        }

        /// The result without its error.
        public var kind: Kind {
            switch self {
            case .completed: .completed
            case .failed: .failed
            case .notRun: .notRun
            case .interrupted: .interrupted
            case .notNow: .notNow
            }
        }
    }

    /// The step's id.
    public var id: String
    /// The step's version.
    public var version: Version
    /// The attempt number of this run, from 1; for a step abandoned without running, the number of
    /// attempts that had failed.
    public var attempt: Int
    /// Whether the previous attempt had died inside the step.
    public var previousAttemptInterrupted: Bool
    /// What the action did.
    public var result: Result
    /// Whether the step was abandoned in this launch, after this failure or without running.
    public var abandoned: Bool
    /// How long the action ran, measured with the upgrader's clock.
    public var duration: Duration

    /// Creates a report of a step.
    ///
    /// - Parameters:
    ///   - id: The step's id.
    ///   - version: The step's version.
    ///   - attempt: The attempt number.
    ///   - previousAttemptInterrupted: Whether the previous attempt died inside the step.
    ///   - result: What the action did.
    ///   - abandoned: Whether the step was abandoned in this launch.
    ///   - duration: How long the action ran.
    public init(
        id: String, version: Version, attempt: Int, previousAttemptInterrupted: Bool, result: Result,
        abandoned: Bool, duration: Duration
    ) {
        self.id = id
        self.version = version
        self.attempt = attempt
        self.previousAttemptInterrupted = previousAttemptInterrupted
        self.result = result
        self.abandoned = abandoned
        self.duration = duration
    }

    /// Whether the action was started in this launch (finished, failed, interrupted, or said "not now").
    public var ran: Bool {
        if case .notRun = result { return false }
        return true
    }
}
