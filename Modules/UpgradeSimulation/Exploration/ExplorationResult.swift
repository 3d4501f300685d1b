import UpgradeCore
import VersionKit

/// A broken guarantee and the shortest history found that shows it.
public struct Violation: Sendable {
    /// The guarantee broken.
    public let guarantee: Guarantee
    /// How the last launch of the history broke it.
    public let detail: String
    /// The policy the history ran under.
    public let policy: UpgradePolicy
    /// The versions launched, the last one breaking the guarantee.
    public let launches: [Version]
    /// What each launch did.
    public let observations: [LaunchObservation]
    /// The device's condition at some launches, by position in ``launches``: `locked`, or an expiry.
    public var conditions: [Int: LaunchCondition] = [:]

    /// The history in words: `1.0 -> 2.0 (locked) -> 2.0 (expire reindex)`.
    public var historyText: String { LaunchCondition.history(launches, conditions: conditions) }
}

/// What a search to a fixpoint covered: the states histories reach and the launches between them.
public struct StateSpace: Sendable, Hashable {
    /// The distinct states reachable from a fresh install (the fresh install's "no state" included),
    /// summed over the policies searched.
    public let states: Int
    /// The launches simulated: one from each reachable state at each version.
    public let transitions: Int
    /// The longest of the shortest histories that reach each state, in launches, over the policies
    /// searched: the depth a bounded search would have needed to reach every state (every history
    /// beyond it only revisits states).
    public let longestShortestPath: Int

    /// Creates the figures of a search.
    ///
    /// - Parameters:
    ///   - states: The reachable states.
    ///   - transitions: The launches simulated.
    ///   - longestShortestPath: The longest shortest history to a state, in launches.
    package init(states: Int, transitions: Int, longestShortestPath: Int) {
        self.states = states
        self.transitions = transitions
        self.longestShortestPath = longestShortestPath
    }
}

/// What an exploration checked and found.
public struct ExplorationResult: Sendable {
    /// The fixture explored.
    public let fixture: Fixture
    /// The options it ran with.
    public let options: ExplorationOptions
    /// The versions launched at.
    package let versions: [Version]
    /// The policies explored.
    package let policies: [UpgradePolicy]
    /// How many distinct histories were checked (every one of length 1 to the depth); 0 for a
    /// search to a fixpoint, which covers every history of any length (see ``stateSpace``).
    package let histories: Int
    /// How many launches were simulated; with prefix sharing, one per history; for a search to a
    /// fixpoint, one per transition.
    public let launches: Int
    /// How many launches replaying each history from scratch would have taken; 0 for a search to a
    /// fixpoint.
    package let launchesWithoutSharing: Int
    /// What a search to a fixpoint covered; `nil` for a bounded exploration.
    public let stateSpace: StateSpace?
    /// How long the exploration took.
    public let duration: Duration
    /// Each broken guarantee with its shortest history, in the order of `Guarantee.allCases`.
    public let violations: [Violation]
    /// How many launches broke each guarantee (for a search to a fixpoint: how many transitions).
    package let violatingLaunches: [Guarantee: Int]
    /// Each late or lost step with its shortest history: the late ones, then the lost ones, each in
    /// run order.
    public let findings: [Finding]
    /// How many launches made a finding of each kind (for a search to a fixpoint: how many transitions).
    package let findingLaunches: [Finding.Kind: Int]

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
        violatingLaunches: [Guarantee: Int], findings: [Finding] = [], findingLaunches: [Finding.Kind: Int] = [:],
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

extension Violation {
    /// The history as a fixture that `upgrade-sim run` reads: the steps and policy explored, one
    /// history with these launches, and what each launch did as its expectations.
    ///
    /// Replayed with `run`, a history of the standard engine matches exactly; one found with the naive
    /// engine shows, as mismatches, where the standard engine does otherwise.
    ///
    /// - Parameters:
    ///   - fixture: The fixture explored.
    ///   - engine: The engine that produced the history.
    /// - Returns: The fixture.
    public func fixture(from fixture: Fixture, engine: ExplorationOptions.Engine) -> Fixture {
        let launchList = historyText
        let summary =
            "Found by upgrade-sim explore (\(engine) engine): \(guarantee) — broken at launch \(launches.count):"
            + " \(detail). The expectations are what the \(engine) engine did."
        return Fixture(
            name: "\(fixture.name)-\(guarantee.rawValue)", summary: summary, policy: policy, steps: fixture.steps,
            floor: fixture.floor,
            histories: [
                FixtureHistory(
                    name: launchList, launches: launches, expect: observations.map(LaunchExpectation.init(exactly:)),
                    conditions: conditions)
            ])
    }
}
