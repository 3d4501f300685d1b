/// What kind of finding `explore` reports (`Finding` in UpgradeExplorer): a step that a fixture's
/// release plan leaves undone on some device; a step's `"allow"` list names the kinds it accepts.
public enum FindingKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The mark passed the step in a launch whose build did not yet contain it.
    case late
    /// The mark passed the step, not done, in a launch whose build no longer contained it, and no
    /// floor at or above it had run.
    case lost

    /// The raw name, `late` or `lost`.
    public var description: String { rawValue }

    /// The finding in a sentence.
    package var meaning: String {
        switch self {
        case .late: "the mark passed the step in a launch whose build did not yet contain it"
        case .lost:
            "the mark passed the step, not done, in a launch whose build no longer contained it,"
                + " and no floor at or above it had run"
        }
    }
}
