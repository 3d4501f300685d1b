/// A guarantee of <doc:/UpgradeCore/LaunchAlgorithm> that `explore` checks after every launch.
public enum Guarantee: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No step above the running version ran.
    case noStepAboveRunningVersion
    /// A step that finished never ran again (unless a rewinding downgrade forgot it).
    case finishedStepNeverRunsAgain
    /// Steps finished in run order: ascending version, declaration order within a version.
    case stepsFinishInRunOrder
    /// After a launch that ends `upgraded` or `upToDate` at C, every step at or below C finished, was
    /// abandoned, or lies at or below the fresh-install baseline.
    case everyStepAtOrBelowCurrentIsDone
    /// The upgraded-through mark never went down (under the `keep` downgrade policy).
    case markNeverGoesDown
    /// A step that failed is the first step handled (run or abandoned) by the next launch that
    /// handles any step.
    case failedStepIsRetriedFirst
    /// The state written is valid: it encodes and decodes to itself and its parts agree.
    case stateIsValid
    /// A launch that cannot read protected data (a `locked` launch) ends `deferred`, runs and abandons
    /// nothing, and writes nothing (<doc:/UpgradeCore/LaunchAlgorithm>, "Protected data").
    case lockedLaunchChangesNothing
    /// No step is abandoned unless it failed or crashed `giveUpAfter` times without an interruption:
    /// an attempt whose background time expired is no attempt (<doc:/UpgradeCore/LaunchAlgorithm>,
    /// "Interruptions").
    case abandonedOnlyAfterCountedFailures

    /// The guarantee in a sentence.
    public var description: String {
        switch self {
        case .noStepAboveRunningVersion: "no step above the running version runs"
        case .finishedStepNeverRunsAgain: "a finished step never runs again"
        case .stepsFinishInRunOrder: "steps finish in run order"
        case .everyStepAtOrBelowCurrentIsDone:
            "after an upgraded or upToDate launch at C, every step at or below C is done"
        case .markNeverGoesDown: "the upgraded-through mark never goes down"
        case .failedStepIsRetriedFirst: "a failed step is the first one the next launch handles"
        case .stateIsValid: "the state written is valid"
        case .lockedLaunchChangesNothing: "a locked launch changes nothing and runs nothing"
        case .abandonedOnlyAfterCountedFailures:
            "no step is abandoned unless it failed or crashed giveUpAfter times without an interruption"
        }
    }
}
