import UpgradeCore
import VersionKit

/// What one attempt of a scripted step does.
public enum AttemptResult: String, Sendable, Hashable, CaseIterable {
    /// The action returns normally.
    case ok
    /// The action throws.
    case fail
    /// The process dies inside the action.
    case crash
}
