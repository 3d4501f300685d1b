import Dispatch
import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Explores the upgrade histories over a fixture's versions and checks the guarantees of
/// <doc:/UpgradeCore/LaunchAlgorithm> after every launch: to a fixpoint (every history of any
/// length), or every history up to a depth.
///
/// Every launch is made from a fresh install's state onwards through the chosen engine, at each
/// version of ``Fixture/explorationVersions``, under each policy explored.
///
/// - To a fixpoint (``ExplorationOptions/depth`` `nil`, the default): a breadth-first search over
///   the states histories reach, with a visited set. A state holds everything that can change what
///   a later launch does or how it is judged (the stored state, attempt numbers cut off where
///   nothing tells them apart, and what the guarantee checker remembers), so the search ends when
///   no new state appears, and then every history of any length has been checked. Breadth-first
///   order finds each counterexample's shortest history. See <doc:ExploringToAFixpoint>.
/// - To a depth: every sequence of 1 to `depth` launches. Histories that share a prefix share its
///   simulation: the walk is depth-first and copies the state at each branch, so the cost grows
///   with the number of distinct launches, not with histories times their length.
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

    /// How many histories (and so launches, with prefix sharing) a bounded exploration will
    /// simulate; 0 for a search to a fixpoint, whose size is what it finds.
    public var plannedLaunches: Int {
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
    /// - Parameter progress: Called now and then with the number of launches simulated so far.
    /// - Returns: What was checked and every guarantee broken and finding made, each with its
    ///   shortest history.
    /// - Throws: An engine error that is not a simulated crash (a bug worth reporting).
    public func run(progress: (@Sendable (Int) -> Void)? = nil) async throws -> ExplorationResult {
        guard let progress else { return try await run(reporting: nil) }
        return try await run(reporting: { @Sendable (report: ExplorationProgress) in progress(report.transitions) })
    }

    /// Runs the exploration, reporting the progress of a search to a fixpoint by level.
    ///
    /// A search to a fixpoint runs off the caller's task, on a thread of its own, and expands each
    /// level of its breadth-first search on every core; what it reports, and in which order, is the
    /// same as on one core. The callback may be called from any thread, never from two at once.
    ///
    /// - Parameter reporting: Called now and then with how far the search has come (for a bounded
    ///   search, the launches simulated so far, as ``ExplorationProgress/transitions``).
    /// - Returns: What was checked and every guarantee broken and finding made, each with its
    ///   shortest history.
    /// - Throws: An engine error that is not a simulated crash (a bug worth reporting).
    public func run(reporting: (@Sendable (ExplorationProgress) -> Void)?) async throws -> ExplorationResult {
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
        var walk = Walk(
            fixture: fixture, versions: fixture.explorationVersions, depth: depth, engine: options.engine,
            allowed: options.allow, fault: options.plantedFault, deviceConditions: options.deviceConditions,
            progress: progress)
        for policy in policies {
            try await walk.explore(policy: policy)
        }
        let findings = walk.shortestFindings.sorted { $0.key < $1.key }.map(\.value)
        return ExplorationResult(
            fixture: fixture, options: options, versions: walk.versions, policies: policies, histories: walk.launches,
            launches: walk.launches, launchesWithoutSharing: walk.launchesWithoutSharing,
            duration: start.duration(to: clock.now),
            violations: Guarantee.allCases.compactMap { walk.shortest[$0] },
            violatingLaunches: walk.violatingLaunches, findings: findings, findingLaunches: walk.findingLaunches)
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
        let findings = search.shortestFindings.sorted { $0.key < $1.key }.map(\.value)
        return ExplorationResult(
            fixture: fixture, options: options, versions: search.versions, policies: policies, histories: 0,
            launches: search.transitions, launchesWithoutSharing: 0, duration: start.duration(to: .now),
            violations: Guarantee.allCases.compactMap { search.shortest[$0] },
            violatingLaunches: search.violatingTransitions, findings: findings,
            findingLaunches: search.findingTransitions,
            stateSpace: StateSpace(
                states: search.states, transitions: search.transitions,
                longestShortestPath: search.longestShortestPath))
    }
}

/// The depth-first walk: one per exploration, mutable as it goes.
private struct Walk {
    let fixture: Fixture
    let versions: [Version]
    let depth: Int
    let engine: ExplorationOptions.Engine
    let fault: PlantedFault?
    let progress: (@Sendable (Int) -> Void)?
    let catalog: ExplorationCatalog
    let naive: NaiveUpgrader
    /// Whether each version is also launched locked, and with an expiry in each step a launch runs.
    let deviceConditions: Bool
    let naiveStepper: NaiveStepper

    /// One launch in this many also checks that its state survives encoding and decoding.
    static let encodingSample = 257

    var launches = 0
    var launchesWithoutSharing = 0
    var shortest: [Guarantee: Violation] = [:]
    var violatingLaunches: [Guarantee: Int] = [:]
    /// The shortest history of each finding, by kind and step: `kind * catalog.count + run index`.
    var shortestFindings: [Int: Finding] = [:]
    var findingLaunches: [Finding.Kind: Int] = [:]
    /// The findings kinds `--allow` accepts.
    let allowed: Set<Finding.Kind>
    /// The build of each version, by its index in `versions`.
    private let buildOfVersion: [Int]
    /// The findings of the launch being checked; reused.
    private var launchFindings: [(Finding.Kind, Int, String)] = []
    private var path: [ExplorationMove] = []
    /// What each launch of the path did, by depth; the slots beyond the path keep their buffers for
    /// reuse, so that a launch allocates nothing here.
    private var observations: [IndexedObservation] = []
    private var policy = UpgradePolicy()

    init(
        fixture: Fixture, versions: [Version], depth: Int, engine: ExplorationOptions.Engine,
        allowed: Set<Finding.Kind>, fault: PlantedFault?, deviceConditions: Bool,
        progress: (@Sendable (Int) -> Void)?
    ) {
        self.fixture = fixture
        self.deviceConditions = deviceConditions
        self.versions = versions
        self.depth = depth
        self.engine = engine
        self.fault = fault
        self.allowed = allowed
        self.progress = progress
        catalog = ExplorationCatalog(steps: fixture.steps, floor: fixture.floor)
        naive = NaiveUpgrader(steps: fixture.steps, floor: fixture.floor)
        naiveStepper = NaiveStepper(
            naive: naive, catalog: catalog, cutoff: AttemptCutoff(value: .max), versions: versions)
        buildOfVersion = versions.map(catalog.releases.build(at:))
        path.reserveCapacity(max(depth, 0))
        observations = Array(
            repeating: IndexedObservation(outcome: .upToDate, upgradedThrough: nil), count: max(depth, 0))
    }

    mutating func explore(policy: UpgradePolicy) async throws {
        self.policy = policy
        let tracker = GuaranteeTracker(catalog: catalog, policy: policy, engine: engine)
        switch engine {
        case .standard:
            let launcher = ExplorationLauncher(
                app: SimulatedApp(steps: fixture.steps, floor: fixture.floor, policy: policy), catalog: catalog,
                fault: fault)
            try walkStandard(launcher, state: nil, tracker: tracker)
        case .naive:
            walkNaive(state: .initial(stepCount: naive.steps.count), tracker: tracker)
        }
    }

    /// The moves from a state at one version after the plain launch: (with ``deviceConditions``) a
    /// locked one and, for the standard engine, an expiry in each step the plain launch ran, which
    /// `ran` gives (the naive pattern has no expiry handler; its expiry would be a crash that writes
    /// nothing, which its crashes show already).
    private func moves(at position: Int, plainRan ran: [Int]) -> [ExplorationMove] {
        guard deviceConditions else { return [] }
        let expiries = engine == .standard ? ran : []
        return [ExplorationMove(position: position, condition: .locked)]
            + expiries.map { ExplorationMove(position: position, condition: .expire($0)) }
    }

    private mutating func walkStandard(
        _ launcher: ExplorationLauncher, state: UpgradeState?, tracker: GuaranteeTracker
    ) throws {
        let slot = path.count
        for position in versions.indices {
            // The deeper launches use the slots after this one: the plain launch's steps stay here.
            try launchStandard(launcher, ExplorationMove(position: position), state: state, tracker: tracker)
            for move in moves(at: position, plainRan: observations[slot].ran) {
                try launchStandard(launcher, move, state: state, tracker: tracker)
            }
        }
    }

    /// One launch by `move` from `state`, checked, then the walk on from the state it leaves.
    private mutating func launchStandard(
        _ launcher: ExplorationLauncher, _ move: ExplorationMove, state: UpgradeState?, tracker: GuaranteeTracker
    ) throws {
        let slot = path.count
        let version = versions[move.position]
        let build = buildOfVersion[move.position]
        let written = try launcher.launch(
            at: version, build: build, from: state, into: &observations[slot], condition: move.condition)
        var tracker = tracker
        var broken = tracker.record(
            observations[slot], at: version, build: build, engine: .standard, findings: &launchFindings,
            condition: move.condition, wrote: written != nil)
        if let written {
            for problem in written.invariantViolations(
                writtenAt: version, crashed: observations[slot].outcome == .crashed,
                checkEncoding: launches % Walk.encodingSample == 0)
            {
                broken.append((.stateIsValid, problem))
            }
        } else if case .none = state, move.condition != .locked {
            broken.append((.stateIsValid, "nothing was written at \(version) on a fresh install"))
        }
        // A launch that wrote nothing left the state it found, already checked when it was written.
        visit(move, broken)
        if path.count < depth {
            if let written {
                try walkStandard(launcher, state: written, tracker: tracker)
            } else {
                try walkStandard(launcher, state: state, tracker: tracker)
            }
        }
        leave()
    }

    private mutating func walkNaive(state: NaiveUpgrader.State, tracker: GuaranteeTracker) {
        let slot = path.count
        for position in versions.indices {
            stepNaive(ExplorationMove(position: position), state: state, tracker: tracker)
            for move in moves(at: position, plainRan: observations[slot].ran) {
                stepNaive(move, state: state, tracker: tracker)
            }
        }
    }

    private mutating func stepNaive(_ move: ExplorationMove, state: NaiveUpgrader.State, tracker: GuaranteeTracker) {
        let slot = path.count
        let launched = naiveStepper.launch(
            (), from: state, at: move.position, condition: move.condition, into: &observations[slot])
        var tracker = tracker
        let broken = tracker.record(
            observations[slot], at: versions[move.position], build: buildOfVersion[move.position], engine: .naive,
            findings: &launchFindings, condition: move.condition, wrote: launched.wrote)
        visit(move, broken)
        if path.count < depth { walkNaive(state: launched.next, tracker: tracker) }
        leave()
    }

    /// Counts the launch just recorded in the next observation slot, and keeps the shortest history
    /// of each guarantee it broke and of each finding it made (in `launchFindings`, emptied).
    private mutating func visit(_ move: ExplorationMove, _ broken: [(Guarantee, String)]) {
        path.append(move)
        launches += 1
        launchesWithoutSharing += path.count
        if launches & 0xFFFF == 0 { progress?(launches) }
        if !launchFindings.isEmpty { keepFindings() }
        if broken.isEmpty { return }
        var counted: Set<Guarantee> = []
        for (guarantee, detail) in broken {
            if counted.insert(guarantee).inserted { violatingLaunches[guarantee, default: 0] += 1 }
            if let known = shortest[guarantee], known.launches.count <= path.count { continue }
            let history = MoveHistory(path, versions: versions, catalog: catalog)
            shortest[guarantee] = Violation(
                guarantee: guarantee, detail: detail, policy: policy, launches: history.launches,
                observations: observations[0..<path.count].map { $0.observation(catalog: catalog) },
                conditions: history.conditions)
        }
    }

    /// Keeps the shortest history of each finding of the launch just visited.
    private mutating func keepFindings() {
        var counted: Set<Finding.Kind> = []
        for (kind, index, detail) in launchFindings {
            if counted.insert(kind).inserted { findingLaunches[kind, default: 0] += 1 }
            let key = (kind == .late ? 0 : catalog.count) + index
            if let known = shortestFindings[key], known.launches.count <= path.count { continue }
            shortestFindings[key] = Finding(
                kind: kind, stepID: catalog.ids[index], stepVersion: catalog.versions[index],
                allowed: allowed.contains(kind) || catalog.allowed[index].contains(kind), detail: detail,
                policy: policy, launches: MoveHistory(path, versions: versions, catalog: catalog).launches,
                observations: observations[0..<path.count].map { $0.observation(catalog: catalog) },
                conditions: MoveHistory(path, versions: versions, catalog: catalog).conditions)
        }
        launchFindings.removeAll(keepingCapacity: true)
    }

    private mutating func leave() {
        path.removeLast()
    }
}
