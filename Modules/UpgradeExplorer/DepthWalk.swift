import UpgradeCore
import UpgradeFixtures
import VersionKit

/// The bounded walk (``ExplorationOptions/depth``): every sequence of 1 to `depth` launches from a
/// fresh install, on the same ``ExplorationStepper`` as the search to a fixpoint, with no attempt
/// cut-off.
///
/// Histories that share a prefix share its simulation: the walk is depth-first and continues from
/// the state each launch leaves, so the cost grows with the number of distinct launches, not with
/// histories times their length. Each launch is checked as the search to a fixpoint checks it, and
/// counted in the same ``ExplorationTally``.
struct DepthWalk {
    let versions: [Version]
    let depth: Int
    let engine: ExplorationOptions.Engine
    let catalog: ExplorationCatalog
    /// Whether each version is also launched locked, and with an expiry in each step a launch runs.
    let deviceConditions: Bool
    let progress: (@Sendable (Int) -> Void)?

    /// One launch in this many also checks that its state survives encoding and decoding.
    static let encodingSample = 257

    private(set) var tally: ExplorationTally
    private(set) var launches = 0
    private(set) var launchesWithoutSharing = 0
    /// The build of each version, by its index in `versions`.
    private let buildOfVersion: [Int]
    /// The findings of the launch being checked; reused.
    private var launchFindings: [(FindingKind, Int, String)] = []
    private var path: [ExplorationMove] = []
    /// What each launch of the path did, by depth; the slots beyond the path keep their buffers for
    /// reuse, so that a launch allocates nothing here.
    private var observations: [IndexedObservation] = []
    private var policy = UpgradePolicy()

    init(
        versions: [Version], depth: Int, engine: ExplorationOptions.Engine, catalog: ExplorationCatalog,
        allowed: Set<FindingKind>, deviceConditions: Bool, progress: (@Sendable (Int) -> Void)?
    ) {
        self.versions = versions
        self.depth = depth
        self.engine = engine
        self.catalog = catalog
        self.deviceConditions = deviceConditions
        self.progress = progress
        tally = ExplorationTally(catalog: catalog, allowed: allowed)
        buildOfVersion = versions.map(catalog.releases.build(at:))
        path.reserveCapacity(max(depth, 0))
        observations = Array(
            repeating: IndexedObservation(outcome: .upToDate, upgradedThrough: nil), count: max(depth, 0))
    }

    /// Walks every history of one policy, from the stepper's fresh install.
    mutating func explore<Stepper: ExplorationStepper>(
        _ stepper: Stepper, policy: UpgradePolicy, tracker: GuaranteeTracker
    ) throws {
        self.policy = policy
        guard depth > 0 else { return }
        try walk(stepper, stepper.makeWorker(), from: stepper.initial, tracker: tracker)
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

    private mutating func walk<Stepper: ExplorationStepper>(
        _ stepper: Stepper, _ worker: Stepper.Worker, from state: Stepper.State, tracker: GuaranteeTracker
    ) throws {
        let slot = path.count
        for position in versions.indices {
            // The deeper launches use the slots after this one: the plain launch's steps stay here.
            try launch(stepper, worker, ExplorationMove(position: position), from: state, tracker: tracker)
            for move in moves(at: position, plainRan: observations[slot].ran) {
                try launch(stepper, worker, move, from: state, tracker: tracker)
            }
        }
    }

    /// One launch by `move` from `state`, checked and counted, then the walk on from the state it
    /// leaves.
    private mutating func launch<Stepper: ExplorationStepper>(
        _ stepper: Stepper, _ worker: Stepper.Worker, _ move: ExplorationMove, from state: Stepper.State,
        tracker: GuaranteeTracker
    ) throws {
        let slot = path.count
        let version = versions[move.position]
        let launched = try stepper.launch(
            worker, from: state, at: move.position, condition: move.condition, into: &observations[slot])
        var tracker = tracker
        var broken = tracker.record(
            observations[slot], at: version, build: buildOfVersion[move.position], engine: engine,
            findings: &launchFindings, condition: move.condition, wrote: launched.wrote)
        // A locked launch must write nothing, even on a fresh install (the tracker checks that).
        if move.condition != .locked || launched.written != nil {
            broken += stepper.problems(
                written: launched.written, from: state, at: version, crashed: observations[slot].outcome == .crashed,
                checkEncoding: launches % Self.encodingSample == 0)
        }
        path.append(move)
        launches += 1
        launchesWithoutSharing += path.count
        if launches & 0xFFFF == 0 { progress?(launches) }
        if !broken.isEmpty || !launchFindings.isEmpty {
            let path = path
            let observations = observations
            let catalog = catalog
            let versions = versions
            tally.count(broken, launchFindings, length: path.count, policy: policy) {
                let history = MoveHistory(path, versions: versions, catalog: catalog)
                return ExplorationTally.History(
                    launches: history.launches, conditions: history.conditions,
                    observations: observations[0..<path.count].map { $0.observation(catalog: catalog) })
            }
            launchFindings.removeAll(keepingCapacity: true)
        }
        if path.count < depth { try walk(stepper, worker, from: launched.next, tracker: tracker) }
        path.removeLast()
    }
}
