import UpgradeCore
import VersionKit

/// What a scripted step's attempts do.
///
/// Attempt numbers are those of the engine (rule 4 of <doc:/UpgradeCore/LaunchAlgorithm>): they count the failed and crashed
/// attempts since the step last finished, across launches, from 1.
public enum StepBehavior: Sendable, Hashable {
    /// Every attempt succeeds.
    case succeed
    /// Every attempt fails.
    case fail
    /// Every attempt kills the process.
    case crash
    /// The first n attempts fail; later ones succeed.
    case failTimes(Int)
    /// The first n attempts kill the process; later ones succeed.
    case crashTimes(Int)
    /// Attempt k does entry k; past the end, the last entry repeats. Never empty.
    case script([AttemptResult])

    /// What the given attempt does.
    ///
    /// - Parameter attempt: The attempt number, from 1.
    /// - Returns: Its result.
    package func result(forAttempt attempt: Int) -> AttemptResult {
        switch self {
        case .succeed: return .ok
        case .fail: return .fail
        case .crash: return .crash
        case .failTimes(let count): return attempt <= count ? .fail : .ok
        case .crashTimes(let count): return attempt <= count ? .crash : .ok
        case .script(let entries):
            guard let last = entries.last else { return .ok }
            return attempt >= 1 && attempt <= entries.count ? entries[attempt - 1] : last
        }
    }
}
