import UpgradeCore
import UpgradeFixtures
import VersionKit

/// What an exploration checked and found.
public struct ExplorationResult: Sendable {
    /// The fixture explored.
    public let fixture: Fixture
    /// The options it ran with.
    package let options: ExplorationOptions
    /// The versions launched at.
    package let versions: [Version]
    /// The policies explored.
    package let policies: [UpgradePolicy]
    /// How many distinct histories were checked (every one of length 1 to the depth); 0 for a
    /// search to a fixpoint, which covers every history of any length (see ``stateSpace``).
    package let histories: Int
    /// How many launches were simulated; with prefix sharing, one per history; for a search to a
    /// fixpoint, one per transition.
    package let launches: Int
    /// How many launches replaying each history from scratch would have taken; 0 for a search to a
    /// fixpoint.
    package let launchesWithoutSharing: Int
    /// What a search to a fixpoint covered; `nil` for a bounded exploration.
    package let stateSpace: StateSpace?
    /// How long the exploration took.
    package let duration: Duration
    /// Each broken guarantee with its shortest history, in the order of `Guarantee.allCases`.
    public let violations: [Violation]
    /// How many launches broke each guarantee (for a search to a fixpoint: how many transitions).
    package let violatingLaunches: [Guarantee: Int]
    /// Each late or lost step with its shortest history: the late ones, then the lost ones, each in
    /// run order.
    public let findings: [Finding]
    /// How many launches made a finding of each kind (for a search to a fixpoint: how many transitions).
    package let findingLaunches: [FindingKind: Int]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - fixture: The fixture explored.
    ///   - options: The options it ran with.
    ///   - versions: The versions launched at.
    ///   - policies: The policies explored.
    ///   - histories: How many histories were checked.
    ///   - launches: How many launches were simulated.
    ///   - launchesWithoutSharing: How many launches replaying each history from scratch would take.
    ///   - duration: How long it took.
    ///   - violations: Each broken guarantee with its shortest history.
    ///   - violatingLaunches: How many launches broke each guarantee.
    ///   - findings: Each late or lost step with its shortest history.
    ///   - findingLaunches: How many launches made a finding of each kind.
    ///   - stateSpace: What a search to a fixpoint covered; `nil` (the default) for a bounded one.
    package init(
        fixture: Fixture, options: ExplorationOptions, versions: [Version], policies: [UpgradePolicy], histories: Int,
        launches: Int, launchesWithoutSharing: Int, duration: Duration, violations: [Violation],
        violatingLaunches: [Guarantee: Int], findings: [Finding] = [], findingLaunches: [FindingKind: Int] = [:],
        stateSpace: StateSpace? = nil
    ) {
        self.fixture = fixture
        self.options = options
        self.versions = versions
        self.policies = policies
        self.histories = histories
        self.launches = launches
        self.launchesWithoutSharing = launchesWithoutSharing
        self.duration = duration
        self.violations = violations
        self.violatingLaunches = violatingLaunches
        self.findings = findings
        self.findingLaunches = findingLaunches
        self.stateSpace = stateSpace
    }

    /// Whether every guarantee held.
    package var guaranteesHeld: Bool { violations.isEmpty }

    /// The findings that neither `--allow` nor the step's `allow` list accepts.
    package var unallowedFindings: [Finding] { findings.filter { !$0.allowed } }

    /// Whether every guarantee held and every finding is allowed: what exit status 0 means.
    public var passed: Bool { violations.isEmpty && findings.allSatisfy(\.allowed) }

    /// Launches simulated per second.
    package var launchesPerSecond: Double {
        let seconds = self.seconds
        return seconds > 0 ? Double(launches) / seconds : 0
    }

    /// Reachable states found per second by a search to a fixpoint; 0 for a bounded one.
    package var statesPerSecond: Double {
        let seconds = self.seconds
        return seconds > 0 ? Double(stateSpace?.states ?? 0) / seconds : 0
    }

    private var seconds: Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
