import VersionKit

/// What a step's action is told about the attempt it is making.
public struct UpgradeContext: Sendable, Hashable {
    /// The id of the step being run.
    public let stepID: String
    /// The version of the step being run.
    public let stepVersion: Version
    /// The version of the app that is running now.
    public let currentVersion: Version
    /// The attempt number: 1 for the first try, one more for each earlier attempt that failed or
    /// was interrupted since the step last finished.
    public let attempt: Int
    /// Whether the previous attempt of this step ended with the process dying inside it, so that the
    /// step may find its own work half done.
    public let previousAttemptInterrupted: Bool

    /// Creates a context; the engine makes these, tests may too.
    ///
    /// - Parameters:
    ///   - stepID: The id of the step being run.
    ///   - stepVersion: The version of the step being run.
    ///   - currentVersion: The version of the app that is running now.
    ///   - attempt: The attempt number, from 1.
    ///   - previousAttemptInterrupted: Whether the previous attempt died inside the step.
    public init(
        stepID: String, stepVersion: Version, currentVersion: Version, attempt: Int, previousAttemptInterrupted: Bool
    ) {
        self.stepID = stepID
        self.stepVersion = stepVersion
        self.currentVersion = currentVersion
        self.attempt = attempt
        self.previousAttemptInterrupted = previousAttemptInterrupted
    }
}
