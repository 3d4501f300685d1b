import UpgradeCore
import VersionKit

/// What one launch of a history is expected to do; each part is checked only when present.
public struct LaunchExpectation: Sendable, Hashable {
    /// The outcome, or `nil` to not check it.
    public var outcome: SimulatedOutcome?
    /// The ids of the steps whose action was started, in order, or `nil` to not check them.
    public var ran: [String]?
    /// The ids of the steps abandoned in the launch, in order, or `nil` to not check them.
    public var abandoned: [String]?
    /// The upgraded-through mark after the launch: `nil` to not check it, `.some(nil)` to expect
    /// none. Compared as a version, so `2.0` matches `2.0.0`.
    public var upgradedThrough: Version??
    /// The version the launch adopts from its history's legacy key (`"adoptedFrom": "9.0.1"`): `nil`
    /// to not check it, `.some(nil)` (`null`) to expect no adoption. Compared as a version.
    public var adoptedFrom: Version??

    /// Creates an expectation.
    ///
    /// - Parameters:
    ///   - outcome: The outcome, or `nil` to not check it.
    ///   - ran: The steps started, or `nil` to not check them.
    ///   - abandoned: The steps abandoned, or `nil` to not check them.
    ///   - upgradedThrough: The mark after the launch: `nil` to not check, `.some(nil)` for none.
    public init(
        outcome: SimulatedOutcome? = nil, ran: [String]? = nil, abandoned: [String]? = nil,
        upgradedThrough: Version?? = nil
    ) {
        self.outcome = outcome
        self.ran = ran
        self.abandoned = abandoned
        self.upgradedThrough = upgradedThrough
    }
}
