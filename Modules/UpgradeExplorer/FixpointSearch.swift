import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import VersionKit

/// The search to a fixpoint: breadth-first over the states that histories reach, with a visited
/// set of keys (``StateKey``: two interned numbers a state), one per exploration, mutable as it goes.
///
/// From each state not seen before, one launch at each version; each launch is checked as the
/// bounded walk checks it (every guarantee, the state written, the findings), and leads to a state
/// that is expanded in its turn if it is new. The search ends when a whole level brings no new
/// state. Since a state's key determines every later launch and judgement (see ``StateKey``), every
/// history of any length passes through expanded states only, and is covered.
///
/// Breadth-first order reaches each state first by a shortest history, so the first launch that
/// breaks a guarantee (or makes a finding) in a policy ends a shortest history that does: a history
/// of n launches that does it has a prefix of n - 1 launches whose state was reached in at most
/// n - 1, and the same launch from there does the same. Each counterexample is rebuilt from the
/// states' parents and replayed from a fresh install with the real attempt numbers.
///
/// Each level is expanded on every core (``LevelInput/expandAll(workers:cores:counter:)``) and
/// merged in the frontier's order, so what it finds, and in which order, is what one core finds.
struct FixpointSearch {
    let fixture: Fixture
    let versions: [Version]
    let engine: ExplorationOptions.Engine
    let allowed: Set<FindingKind>
    let fault: PlantedFault?
    /// Whether states are keyed by what decides their future only (``StateKey``), or exactly.
    let reduced: Bool
    /// Whether each version is also launched locked, and with an expiry in each step a launch runs.
    let deviceConditions: Bool
    /// How many cores expand a level, and the fewest launches of a level worth spreading over them.
    let cores: Int
    let parallelLaunches: Int
    let progress: (@Sendable (ExplorationProgress) -> Void)?
    let catalog: ExplorationCatalog
    let naive: NaiveUpgrader
    let encoder: StateKeyEncoder
    /// The build of each version, by its index in `versions`.
    private let buildOfVersion: [Int]

    /// Reachable states, over every policy searched.
    private(set) var states = 0
    /// Launches simulated: every reachable state times every version.
    private(set) var transitions = 0
    /// The longest of the shortest histories that reach a state, over every policy.
    private(set) var longestShortestPath = 0
    /// What the launches broke and found, with their shortest histories.
    private(set) var tally: ExplorationTally

    private var policy = UpgradePolicy()
    /// The policy being searched, from 1, and how many there are (for the progress reports).
    private var policyNumber = 0
    private let policyCount: Int
    /// The stored states' and the checker's parts of the keys, numbered: the same under every
    /// policy, so kept from one policy's search to the next. A part's number is its key's word.
    private var storedParts = WordInterner()
    private var checkerParts = WordInterner()
    /// The parent state and the move (its code, ``ExplorationMove/code(steps:)``) of the launch that
    /// first reached each state, by the state's number (the order in which the search found them); -1
    /// for the fresh install.
    private var parents: [Int32] = []
    private var via: [Int32] = []

    init(
        fixture: Fixture, versions: [Version], engine: ExplorationOptions.Engine, allowed: Set<FindingKind>,
        fault: PlantedFault?, reduced: Bool = true, deviceConditions: Bool = true, cores: Int = 1,
        parallelLaunches: Int = 4096, policies: Int = 1, progress: (@Sendable (ExplorationProgress) -> Void)?
    ) {
        self.deviceConditions = deviceConditions
        self.fixture = fixture
        self.versions = versions
        self.engine = engine
        self.allowed = allowed
        self.fault = fault
        self.reduced = reduced
        self.cores = max(cores, 1)
        self.parallelLaunches = parallelLaunches
        self.progress = progress
        policyCount = policies
        catalog = ExplorationCatalog(steps: fixture.steps, floor: fixture.floor)
        naive = NaiveUpgrader(steps: fixture.steps, floor: fixture.floor)
        buildOfVersion = versions.map(catalog.releases.build(at:))
        encoder = StateKeyEncoder(catalog: catalog, reduced: reduced)
        tally = ExplorationTally(catalog: catalog, allowed: allowed)
    }

    mutating func explore(policy: UpgradePolicy) throws {
        self.policy = policy
        policyNumber += 1
        let tracker = GuaranteeTracker(catalog: catalog, policy: policy, engine: engine)
        switch engine {
        case .standard:
            let cutoff = AttemptCutoff(
                steps: fixture.steps, floor: fixture.floor, giveUpAfter: policy.giveUpAfter, fault: fault)
            let stepper = StandardStepper(
                app: SimulatedApp(steps: fixture.steps, floor: fixture.floor, policy: policy), catalog: catalog,
                fault: fault, cutoff: cutoff, versions: versions, buildOfVersion: buildOfVersion)
            try search(stepper, tracker: tracker)
        case .naive:
            let cutoff = AttemptCutoff(steps: fixture.steps, floor: fixture.floor, giveUpAfter: nil, fault: nil)
            try search(
                NaiveStepper(naive: naive, catalog: catalog, cutoff: cutoff, versions: versions), tracker: tracker)
        }
    }

    /// The breadth-first search of one policy: level by level, each level expanded on every core
    /// (``LevelInput/expandAll(workers:cores:counter:)``), then its new states numbered and its
    /// counterexamples kept in the frontier's order, as one core would.
    private mutating func search<Stepper: ExplorationStepper>(_ stepper: Stepper, tracker: GuaranteeTracker) throws {
        var visited = WordInterner()
        var words: [UInt32] = []
        stepper.appendKey(stepper.initial, encoder: encoder, to: &words)
        let stored = storedParts.insert(words).number
        words.removeAll()
        tracker.appendKey(
            to: &words, reduced: reduced, storedMark: stepper.foldsMark ? .some(stepper.mark(of: stepper.initial)) : nil
        )
        let checker = checkerParts.insert(words).number
        _ = visited.insert([UInt32(stored), UInt32(checker)])
        parents = [-1]
        via = [0]
        var frontier = [FrontierNode(state: stepper.initial, tracker: tracker, number: 0)]
        var workers: [Stepper.Worker] = []
        var depth = 0
        while !frontier.isEmpty {
            let input = LevelInput(
                frontier: frontier, stepper: stepper, encoder: encoder, reduced: reduced, engine: engine,
                versions: versions, buildOfVersion: buildOfVersion, storedParts: storedParts,
                checkerParts: checkerParts, visited: visited, parallelLaunches: parallelLaunches,
                deviceConditions: deviceConditions, stepCount: catalog.count)
            let counter = progressCounter(level: depth + 1, states: states + visited.count)
            let chunks = input.expandAll(workers: &workers, cores: cores, counter: counter)
            var next: [FrontierNode<Stepper.State>] = []
            for chunk in chunks {
                transitions += chunk.transitions
                for event in chunk.events {
                    try count(event, from: frontier[Int(event.node)].number, length: depth + 1)
                }
                if let error = chunk.error { throw error }
                for candidate in chunk.candidates {
                    let stored =
                        candidate.stored >= 0
                        ? Int(candidate.stored)
                        : storedParts.insert(Array(chunk.words[candidate.storedWords])).number
                    let checker =
                        candidate.checker >= 0
                        ? Int(candidate.checker)
                        : checkerParts.insert(Array(chunk.words[candidate.checkerWords])).number
                    let (number, isNew) = visited.insert([UInt32(stored), UInt32(checker)])
                    guard isNew else { continue }
                    next.append(FrontierNode(state: candidate.state, tracker: candidate.tracker, number: Int32(number)))
                    parents.append(frontier[Int(candidate.node)].number)
                    via.append(candidate.move)
                }
            }
            if !next.isEmpty { depth += 1 }
            frontier = next
        }
        states += visited.count
        longestShortestPath = max(longestShortestPath, depth)
    }

    /// The counter that reports the progress of a level, if anyone listens.
    private func progressCounter(level: Int, states: Int) -> ProgressCounter? {
        guard let progress else { return nil }
        let base = transitions
        let policy = policyNumber
        let policies = policyCount
        return ProgressCounter { count in
            progress(
                ExplorationProgress(
                    level: level, states: states, transitions: base + count, policy: policy, policies: policies))
        }
    }

    /// Counts a transition that broke a guarantee or made a finding; a history it keeps is replayed
    /// from a fresh install, to the state `parent` and then by the event's move.
    private mutating func count(_ event: LevelChunk<some Sendable>.Event, from parent: Int32, length: Int) throws {
        // The tally is taken out while the search replays histories for it.
        var tally = ExplorationTally(catalog: catalog, allowed: allowed)
        swap(&tally, &self.tally)
        defer { swap(&tally, &self.tally) }
        try tally.count(event.broken, event.findings, length: length, policy: policy) {
            try replay(history(to: parent, then: event.move))
        }
    }

    /// The launches of the shortest history the search found to state `state`, then the move `move`
    /// (its code).
    private func history(to state: Int32, then move: Int32) -> [ExplorationMove] {
        var codes = [move]
        var state = state
        while state > 0 {
            codes.append(via[Int(state)])
            state = parents[Int(state)]
        }
        return codes.reversed().map { ExplorationMove(code: $0, steps: catalog.count) }
    }

    /// The ways the state a launch wrote breaks the rules of the state (``Guarantee/stateIsValid``),
    /// as the bounded walk checks them: a launch that wrote nothing left the state it found, already
    /// checked when it was written, except on a fresh install, which must write.
    static func stateProblems(
        written: UpgradeState?, from state: UpgradeState?, at version: Version, crashed: Bool, checkEncoding: Bool
    ) -> [(Guarantee, String)] {
        if let written {
            return written.invariantViolations(writtenAt: version, crashed: crashed, checkEncoding: checkEncoding)
                .map { (.stateIsValid, $0) }
        }
        if case .none = state { return [(.stateIsValid, "nothing was written at \(version) on a fresh install")] }
        return []
    }

    /// Replays a history from a fresh install, with the real attempt numbers: what each launch did,
    /// and what the last one broke and found.
    private func replay(_ moves: [ExplorationMove]) throws -> ExplorationTally.History {
        let history = MoveHistory(moves, versions: versions, catalog: catalog)
        let launches = history.launches
        var observations: [LaunchObservation] = []
        var observation = IndexedObservation(outcome: .upToDate, upgradedThrough: nil)
        var tracker = GuaranteeTracker(catalog: catalog, policy: policy, engine: engine)
        var broken: [(Guarantee, String)] = []
        var findings: [(FindingKind, Int, String)] = []
        switch engine {
        case .standard:
            let launcher = ExplorationLauncher(
                app: SimulatedApp(steps: fixture.steps, floor: fixture.floor, policy: policy), catalog: catalog,
                fault: fault)
            var state: UpgradeState?
            for move in moves {
                let version = versions[move.position]
                let build = catalog.releases.build(at: version)
                let written = try launcher.launch(
                    at: version, build: build, from: state, into: &observation, condition: move.condition)
                findings.removeAll()
                broken = tracker.record(
                    observation, at: version, build: build, engine: engine, findings: &findings,
                    condition: move.condition, wrote: written != nil)
                if move.condition != .locked || written != nil {
                    broken += Self.stateProblems(
                        written: written, from: state, at: version, crashed: observation.outcome == .crashed,
                        checkEncoding: true)
                }
                if let written { state = written }
                observations.append(observation.observation(catalog: catalog))
            }
        case .naive:
            var state = NaiveUpgrader.State.initial(stepCount: naive.steps.count)
            let stepper = NaiveStepper(
                naive: naive, catalog: catalog, cutoff: .none, versions: versions)
            for move in moves {
                let version = versions[move.position]
                let launched = stepper.launch(
                    (), from: state, at: move.position, condition: move.condition, into: &observation)
                state = launched.next
                findings.removeAll()
                broken = tracker.record(
                    observation, at: version, build: catalog.releases.build(at: version), engine: engine,
                    findings: &findings, condition: move.condition, wrote: launched.wrote)
                observations.append(observation.observation(catalog: catalog))
            }
        }
        return ExplorationTally.History(
            launches: launches, conditions: history.conditions, observations: observations,
            broken: Set(broken.map(\.0)),
            findings: findings.map { ($0.0, $0.1) })
    }
}
