import UpgradeCore
import VersionKit

/// A simulator fixture (its JSON format is in the module's overview): scripted steps, a policy, and the histories of launches one
/// device makes, each with what every launch is expected to do.
///
/// Read one with ``FixtureLoader``; write one back with ``jsonText``.
public struct Fixture: Sendable, Hashable {
    /// The fixture's name, shown in reports.
    public var name: String
    /// What the fixture shows: the `description` key; `nil` when absent.
    public var summary: String?
    /// The fresh-install, downgrade and give-up choices of every launch.
    public var policy: UpgradePolicy
    /// The steps of every build, in the order written; equal versions run in this order.
    public var steps: [ScriptedStep]
    /// The floor (the top-level `floor` key): a step of its own that stands in for every retired step at or
    /// below its version, in the builds between its ``ScriptedStep/since`` and ``ScriptedStep/until``; `nil`
    /// when absent. Its id defaults to `upgradeFloor_A_B[_C]`.
    public var floor: ScriptedStep?
    /// The histories to replay, each from a fresh install.
    public var histories: [FixtureHistory]
    /// Extra versions named by the top-level `versions` key, for `explore`; empty when absent.
    public var versions: [Version]
    /// The path the fixture was read from, as it was given; `nil` for a fixture made in code.
    public var file: String?

    /// Creates a fixture.
    ///
    /// - Parameters:
    ///   - name: The fixture's name.
    ///   - summary: What it shows.
    ///   - policy: The policy of every launch.
    ///   - steps: The scripted steps of every build, in registration order.
    ///   - floor: The floor, if any (make one with ``ScriptedStep/floor(_:id:behavior:durationMs:since:until:)``).
    ///   - histories: The histories to replay.
    ///   - versions: Extra versions for `explore`.
    ///   - file: Where it was read from.
    public init(
        name: String, summary: String? = nil, policy: UpgradePolicy = UpgradePolicy(), steps: [ScriptedStep],
        floor: ScriptedStep? = nil, histories: [FixtureHistory] = [], versions: [Version] = [], file: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.policy = policy
        self.steps = steps
        self.floor = floor
        self.histories = histories
        self.versions = versions
        self.file = file
    }

    /// Every version the fixture names, ascending, each value once (`8.8` and `8.8.0` count as one;
    /// the first written form is kept): its steps' and its floor's versions, every `since` and `until`,
    /// the version just above each `until` (the first build without the step, such as `2.0.1` above
    /// `2.0`), and its `versions` list.
    package var namedVersions: [Version] {
        var seen = Set<Version>()
        var result: [Version] = []
        var named: [Version] = []
        for step in allSteps {
            named.append(step.version)
            if let since = step.since { named.append(since) }
            if let until = step.until {
                named.append(until)
                if let next = until.successor { named.append(next) }
            }
        }
        for version in named + versions where seen.insert(version).inserted {
            result.append(version)
        }
        return result.sorted()
    }

    /// Whether any step or the floor carries `since` or `until`, so that builds differ.
    package var hasReleases: Bool { allSteps.contains { $0.since != nil || $0.until != nil } }

    /// The steps, then the floor if there is one.
    package var allSteps: [ScriptedStep] { floor.map { steps + [$0] } ?? steps }
}
