import Dispatch
import Foundation
import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import VersionKit

/// Explores the upgrade histories over a fixture's versions and checks the guarantees of
/// <doc:/UpgradeCore/LaunchAlgorithm> after every launch: to a fixpoint (every history of any
/// length), or every history up to a depth.
///
/// Every launch is made from a fresh install's state onwards through the chosen engine, at each
/// version of `Fixture/explorationVersions`, under each policy explored.
///
/// - To a fixpoint (``ExplorationOptions/depth`` `nil`, the default): a breadth-first search over
///   the states histories reach, with a visited set. A state holds everything that can change what
///   a later launch does or how it is judged (the stored state, attempt numbers cut off where
///   nothing tells them apart, and what the guarantee checker remembers), so the search ends when
///   no new state appears, and then every history of any length has been checked. Breadth-first
///   order finds each counterexample's shortest history. See <doc:ExploringToAFixpoint>.
/// - To a depth: every sequence of 1 to `depth` launches (`DepthWalk`), depth-first on the same
///   stepper, checks and tally as the search to a fixpoint. Histories that share a prefix share its
///   simulation, so the cost grows with the number of distinct launches, not with histories times
///   their length.
public struct Explorer: Sendable {
    /// The fixture explored.
    public let fixture: Fixture
    /// What is explored, how far, and with which engine.
    public let options: ExplorationOptions

    /// Creates an explorer.
    ///
    /// - Parameters:
    ///   - fixture: The fixture whose steps, behaviours and versions to explore.
    ///   - options: Depth (or a fixpoint), policies and engine.
    public init(fixture: Fixture, options: ExplorationOptions = ExplorationOptions()) {
        self.fixture = fixture
        self.options = options
    }

    /// How many plain launches (one per history of plain launches, with prefix sharing) a bounded
    /// exploration will simulate, the least it simulates: with the device's conditions it also
    /// launches locked and with expiries, as many as the steps run decide. 0 for a search to a
    /// fixpoint, whose size is what it finds.
    package var plannedLaunches: Int {
        guard let depth = options.depth else { return 0 }
        let versions = fixture.explorationVersions.count
        var total = 0
        var level = 1
        for _ in 0..<max(depth, 0) {
            let (next, overflow) = level.multipliedReportingOverflow(by: versions)
            if overflow { return .max }
            level = next
            total = total.addingReportingOverflow(level).overflow ? .max : total + level
        }
        let policies = fixture.explorationPolicies(all: options.allPolicies).count
        return total.multipliedReportingOverflow(by: policies).overflow ? .max : total * policies
    }

    /// Runs the exploration.
    ///
    /// A search to a fixpoint runs off the caller's task, on a thread of its own, and expands each
    /// level of its breadth-first search on every core; what it finds, and in which order, is the
    /// same as on one core.
    ///
    /// - Returns: What was checked and every guarantee broken and finding made, each with its
    ///   shortest history.
    /// - Throws: An engine error that is not a simulated crash (a bug worth reporting).
    public func run() async throws -> ExplorationResult { try await run(reporting: nil) }

    /// Runs the exploration, reporting its progress now and then (`upgrade-sim explore`'s progress
    /// line). The callback may be called from any thread, never from two at once.
    ///
    /// - Parameter reporting: Called now and then with how far the search has come (for a bounded
    ///   search, the launches simulated so far, as `ExplorationProgress.transitions`).
    /// - Returns: What `run()` returns.
    /// - Throws: What `run()` throws.
    package func run(reporting: (@Sendable (ExplorationProgress) -> Void)?) async throws -> ExplorationResult {
        let clock = ContinuousClock()
        let start = clock.now
        let policies = fixture.explorationPolicies(all: options.allPolicies)
        guard let depth = options.depth else {
            let fixture = fixture
            let options = options
            // Off the cooperative pool: the search keeps its thread busy, and waits for the cores of
            // each level.
            return try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(
                        with: Result {
                            try Self.searchToFixpoint(
                                fixture, options: options, policies: policies, progress: reporting, start: start)
                        })
                }
            }
        }
        var progress: (@Sendable (Int) -> Void)?
        if let reporting {
            progress = { count in reporting(ExplorationProgress(level: 0, states: 0, transitions: count)) }
        }
        let catalog = ExplorationCatalog(steps: fixture.steps, floor: fixture.floor)
        let versions = fixture.explorationVersions
        var walk = DepthWalk(
            versions: versions, depth: depth, engine: options.engine, catalog: catalog, allowed: options.allow,
            deviceConditions: options.deviceConditions, progress: progress)
        for policy in policies {
            let tracker = GuaranteeTracker(catalog: catalog, policy: policy, engine: options.engine)
            switch options.engine {
            case .standard:
                let stepper = StandardStepper(
                    app: SimulatedApp(steps: fixture.steps, floor: fixture.floor, policy: policy), catalog: catalog,
                    fault: options.plantedFault, cutoff: .none, versions: versions,
                    buildOfVersion: versions.map(catalog.releases.build(at:)))
                try walk.explore(stepper, policy: policy, tracker: tracker)
            case .naive:
                let stepper = NaiveStepper(
                    naive: NaiveUpgrader(steps: fixture.steps, floor: fixture.floor), catalog: catalog, cutoff: .none,
                    versions: versions)
                try walk.explore(stepper, policy: policy, tracker: tracker)
            }
        }
        return walk.tally.result(
            fixture: fixture, options: options, versions: versions, policies: policies, histories: walk.launches,
            launches: walk.launches, launchesWithoutSharing: walk.launchesWithoutSharing,
            duration: start.duration(to: clock.now), stateSpace: nil)
    }

    /// The search to a fixpoint of every policy, on the calling thread (and every core).
    private static func searchToFixpoint(
        _ fixture: Fixture, options: ExplorationOptions, policies: [UpgradePolicy],
        progress: (@Sendable (ExplorationProgress) -> Void)?, start: ContinuousClock.Instant
    ) throws -> ExplorationResult {
        var search = FixpointSearch(
            fixture: fixture, versions: fixture.explorationVersions, engine: options.engine, allowed: options.allow,
            fault: options.plantedFault, reduced: !options.fullStateKey, deviceConditions: options.deviceConditions,
            cores: options.cores ?? ProcessInfo.processInfo.activeProcessorCount,
            parallelLaunches: options.parallelLaunches, policies: policies.count,
            progress: progress)
        for policy in policies { try search.explore(policy: policy) }
        return search.tally.result(
            fixture: fixture, options: options, versions: search.versions, policies: policies, histories: 0,
            launches: search.transitions, launchesWithoutSharing: 0, duration: start.duration(to: .now),
            stateSpace: StateSpace(
                states: search.states, transitions: search.transitions,
                longestShortestPath: search.longestShortestPath))
    }
}
