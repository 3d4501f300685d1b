import UpgradeCore
import VersionKit

/// How one launch ended, as the simulator sees it: the engine's outcomes plus ``crashed``.
public enum SimulatedOutcome: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No state was stored and the `skip` policy recorded the running version.
    case freshInstall
    /// Nothing was pending.
    case upToDate
    /// Every pending step finished or was abandoned.
    case upgraded
    /// A step failed and the launch stopped there.
    case failed
    /// The process died inside a step.
    case crashed
    /// The running version is below the upgraded-through mark.
    case downgraded
    /// Nothing ran and nothing was written: a follower launch found no state or steps pending (the
    /// app's next launch does the work), or protected data was unavailable (a `locked` launch).
    case deferred
    /// The background time expired while a step ran (an `expire` launch): the attempt is not counted.
    case cancelled

    /// The raw name, such as `upgraded`.
    public var description: String { rawValue }

    /// The simulator's name for an engine outcome.
    ///
    /// - Parameter outcome: The engine's outcome.
    package init?(_ outcome: UpgradeOutcome) {
        switch outcome {
        case .freshInstall: self = .freshInstall
        case .upToDate: self = .upToDate
        case .upgraded: self = .upgraded
        case .failed: self = .failed
        case .downgraded: self = .downgraded
        case .deferred: self = .deferred
        case .cancelled: self = .cancelled
        }
    }
}
