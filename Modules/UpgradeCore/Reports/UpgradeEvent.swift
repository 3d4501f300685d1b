import VersionKit

/// Something that happened during a launch, delivered to the observer an app passes to ``Upgrader``.
///
/// Use events for logging and metrics; the engine never logs on its own.
public enum UpgradeEvent: Sendable {
    /// A launch that has something to do is about to start, holding the store's exclusive access.
    case launchWillStart(currentVersion: Version, upgradedThrough: Version?)
    /// A step's action is about to run.
    case stepWillStart(UpgradeContext)
    /// A step's action finished.
    case stepFinished(UpgradeContext, duration: Duration)
    /// A step's action failed; `willRetry` is false when the failure made the step abandoned.
    case stepFailed(UpgradeContext, error: any Error, duration: Duration, willRetry: Bool)
    /// A step was given up on after `failedAttempts` failed or crashed attempts.
    case stepAbandoned(stepID: String, version: Version, failedAttempts: Int)
    /// The launch ended with a report.
    case launchFinished(UpgradeReport)
    /// The launch stopped because the store failed; `partialReport` says what had happened until then.
    case launchAborted(error: any Error, partialReport: UpgradeReport)
}

/// Receives the events of a launch; called on the launching task, so it should return quickly.
public typealias UpgradeObserver = @Sendable (UpgradeEvent) -> Void
