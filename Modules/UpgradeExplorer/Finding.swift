import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import VersionKit

/// A step that a fixture's release plan leaves undone on some device, and the shortest history found
/// that shows it: not a fault of the engine, but of the plan (which builds have which steps).
///
/// Both kinds concern a step s of version v above the device's fresh-install baseline, and a launch
/// at C in which the upgraded-through mark moved past v (from below v to v or above) while s was not
/// done (neither finished nor abandoned) and the build of C did not contain s:
/// - ``/UpgradeFixtures/FindingKind/late``: the build did not yet contain s (C is below its `since`): a step added in a later
///   release with a version older than releases the device already ran;
/// - ``/UpgradeFixtures/FindingKind/lost``: the build no longer contained s (C is above its `until`), and no floor at or
///   above v had run on the device (finished or abandoned): a step removed before every device ran it.
///
/// A floor itself is never a finding. A finding is *allowed* when `explore --allow KIND` or the
/// step's `"allow"` list accepts it; findings that are not allowed make `explore` exit with status 1.
public struct Finding: Sendable {
    /// The kind.
    public let kind: FindingKind
    /// The step's id.
    public let stepID: String
    /// The step's version.
    public let stepVersion: Version
    /// Whether `--allow` or the step's `allow` list accepts it.
    public let allowed: Bool
    /// How the last launch of the history made it.
    package let detail: String
    /// The policy the history ran under.
    package let policy: UpgradePolicy
    /// The versions launched, the last one making the finding.
    package let launches: [Version]
    /// What each launch did.
    package let observations: [LaunchObservation]
    /// The device's condition at some launches, by position in ``launches``: `locked`, or an expiry.
    package let conditions: [Int: LaunchCondition]

    /// The history in words: `1.0 -> 2.0 (locked) -> 2.0 (expire reindex)`.
    public var historyText: String { LaunchCondition.history(launches, conditions: conditions) }

    /// Creates a finding.
    ///
    /// - Parameters:
    ///   - kind: The kind.
    ///   - stepID: The step's id.
    ///   - stepVersion: The step's version.
    ///   - allowed: Whether it is accepted.
    ///   - detail: How the last launch made it.
    ///   - policy: The policy of the history.
    ///   - launches: The versions launched.
    ///   - observations: What each launch did.
    ///   - conditions: The device's condition at some launches, by position; none by default.
    package init(
        kind: FindingKind, stepID: String, stepVersion: Version, allowed: Bool, detail: String, policy: UpgradePolicy,
        launches: [Version], observations: [LaunchObservation], conditions: [Int: LaunchCondition] = [:]
    ) {
        self.conditions = conditions
        self.kind = kind
        self.stepID = stepID
        self.stepVersion = stepVersion
        self.allowed = allowed
        self.detail = detail
        self.policy = policy
        self.launches = launches
        self.observations = observations
    }

    /// The history as a fixture that `upgrade-sim run` reads: the steps, floor and policy explored, one
    /// history with these launches, and what each launch did as its expectations.
    ///
    /// - Parameters:
    ///   - fixture: The fixture explored.
    ///   - engine: The engine that produced the history.
    /// - Returns: The fixture.
    public func fixture(from fixture: Fixture, engine: ExplorationOptions.Engine) -> Fixture {
        let launchList = historyText
        let summary =
            "Found by upgrade-sim explore (\(engine) engine): \(kind) step \(stepID) (\(stepVersion)) at launch"
            + " \(launches.count): \(detail). The expectations are what the \(engine) engine did."
        return Fixture(
            name: "\(fixture.name)-\(kind)-\(stepID)", summary: summary, policy: policy, steps: fixture.steps,
            floor: fixture.floor,
            histories: [
                FixtureHistory(
                    name: launchList, launches: launches, expect: observations.map(LaunchExpectation.init(exactly:)),
                    conditions: conditions)
            ])
    }
}
