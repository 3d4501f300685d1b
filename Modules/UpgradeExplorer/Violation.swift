import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import VersionKit

/// A broken guarantee and the shortest history found that shows it.
public struct Violation: Sendable {
    /// The guarantee broken.
    public let guarantee: Guarantee
    /// How the last launch of the history broke it.
    public let detail: String
    /// The policy the history ran under.
    package let policy: UpgradePolicy
    /// The versions launched, the last one breaking the guarantee.
    package let launches: [Version]
    /// What each launch did.
    package let observations: [LaunchObservation]
    /// The device's condition at some launches, by position in ``launches``: `locked`, or an expiry.
    package var conditions: [Int: LaunchCondition] = [:]

    /// The history in words: `1.0 -> 2.0 (locked) -> 2.0 (expire reindex)`.
    public var historyText: String { LaunchCondition.history(launches, conditions: conditions) }
}
