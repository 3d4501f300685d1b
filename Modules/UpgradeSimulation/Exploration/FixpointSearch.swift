import UpgradeCore
import VersionKit

/// The search to a fixpoint: breadth-first over the states that histories reach, with a visited
/// set of ``StateKey``s, one per exploration, mutable as it goes.
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
struct FixpointSearch {
    let fixture: Fixture
    let versions: [Version]
    let engine: ExplorationOptions.Engine
    let allowed: Set<Finding.Kind>
    let fault: PlantedFault?
    let progress: (@Sendable (Int) -> Void)?
    let catalog: ExplorationCatalog
    let naive: NaiveUpgrader
    /// The build of each version, by its index in `versions`.
    private let buildOfVersion: [Int]

    /// Reachable states, over every policy searched.
    private(set) var states = 0
    /// Launches simulated: every reachable state times every version.
    private(set) var transitions = 0
    /// The longest of the shortest histories that reach a state, over every policy.
    private(set) var longestShortestPath = 0
    private(set) var shortest: [Guarantee: Violation] = [:]
    private(set) var violatingTransitions: [Guarantee: Int] = [:]
    /// The shortest history of each finding, by kind and step: `kind * catalog.count + run index`.
    private(set) var shortestFindings: [Int: Finding] = [:]
    private(set) var findingTransitions: [Finding.Kind: Int] = [:]

    private var policy = UpgradePolicy()
    /// The stored states whose encoding was checked, by the stored state's part of their key: the
    /// same under every policy, so kept from one policy's search to the next (as is the encoder, so
    /// that a state has the same words under every policy).
    private var encoded: Set<StateKey> = []
    private var encoder: StateKeyEncoder
    /// The parent state and the version (its index) of the launch that first reached each state, by
    /// the state's number (the order in which the search found them); -1 for the fresh install.
    private var parents: [Int32] = []
    private var via: [Int32] = []
    /// The findings of the transition being checked; reused.
    private var launchFindings: [(Finding.Kind, Int, String)] = []
    private var observation = IndexedObservation(outcome: .upToDate, upgradedThrough: nil)

    init(
        fixture: Fixture, versions: [Version], engine: ExplorationOptions.Engine, allowed: Set<Finding.Kind>,
        fault: PlantedFault?, progress: (@Sendable (Int) -> Void)?
    ) {
        self.fixture = fixture
        self.versions = versions
        self.engine = engine
        self.allowed = allowed
        self.fault = fault
        self.progress = progress
        catalog = ExplorationCatalog(steps: fixture.steps, floor: fixture.floor)
        naive = NaiveUpgrader(steps: fixture.steps, floor: fixture.floor)
        buildOfVersion = versions.map(catalog.releases.build(at:))
        encoder = StateKeyEncoder(catalog: catalog)
    }

    /// A state of the frontier: what the search continues from, and its number.
    private struct Node<State> {
        var state: State
        var tracker: GuaranteeTracker
        var number: Int32
    }

    mutating func explore(policy: UpgradePolicy) throws {
        self.policy = policy
        let tracker = GuaranteeTracker(catalog: catalog, policy: policy, engine: engine)
        parents = [-1]
        via = [0]
        switch engine {
        case .standard:
            let launcher = ExplorationLauncher(
                app: SimulatedApp(steps: fixture.steps, floor: fixture.floor, policy: policy), catalog: catalog,
                fault: fault)
            let cutoff = AttemptCutoff(
                steps: fixture.steps, floor: fixture.floor, giveUpAfter: policy.giveUpAfter, fault: fault)
            try searchStandard(launcher, cutoff: cutoff, tracker: tracker)
        case .naive:
            let cutoff = AttemptCutoff(steps: fixture.steps, floor: fixture.floor, giveUpAfter: nil, fault: nil)
            searchNaive(cutoff: cutoff, tracker: tracker)
        }
    }

    private mutating func searchStandard(
        _ launcher: ExplorationLauncher, cutoff: AttemptCutoff, tracker: GuaranteeTracker
    ) throws {
        var visited: Set<StateKey> = []
        var stateKey = StateKey(words: [])
        var key = StateKey(words: [])
        encoder.append(nil, to: &key.words)
        tracker.appendKey(to: &key.words)
        visited.insert(key)
        var frontier = [Node<UpgradeState?>(state: nil, tracker: tracker, number: 0)]
        var depth = 0
        while !frontier.isEmpty {
            var next: [Node<UpgradeState?>] = []
            for node in frontier {
                for (position, version) in versions.enumerated() {
                    let build = buildOfVersion[position]
                    let written = try launcher.launch(at: version, build: build, from: node.state, into: &observation)
                    var tracker = node.tracker
                    var broken = tracker.record(
                        observation, at: version, build: build, engine: .standard, findings: &launchFindings)
                    var state = written ?? node.state
                    if state != nil { cutoff.apply(to: &state!) }
                    key.words.removeAll(keepingCapacity: true)
                    encoder.append(state, to: &key.words)
                    // Whether the state survives encoding and decoding depends on the stored state
                    // alone: checked once for each state written under any policy (the costly check,
                    // so not once per state of the search, which adds the checker's memory).
                    var checkEncoding = false
                    if written != nil {
                        stateKey.words.removeAll(keepingCapacity: true)
                        stateKey.words.append(contentsOf: key.words)
                        checkEncoding = encoded.insert(stateKey).inserted
                    }
                    tracker.appendKey(to: &key.words)
                    let isNew = visited.insert(key).inserted
                    broken += Self.stateProblems(
                        written: written, from: node.state, at: version, crashed: observation.outcome == .crashed,
                        checkEncoding: checkEncoding)
                    transitions += 1
                    if transitions & 0xFFFF == 0 { progress?(transitions) }
                    if !broken.isEmpty || !launchFindings.isEmpty {
                        try keep(broken, from: node.number, at: position, length: depth + 1)
                    }
                    if isNew {
                        next.append(Node(state: state, tracker: tracker, number: Int32(parents.count)))
                        parents.append(node.number)
                        via.append(Int32(position))
                    }
                }
            }
            if !next.isEmpty { depth += 1 }
            frontier = next
        }
        states += visited.count
        longestShortestPath = max(longestShortestPath, depth)
    }

    private mutating func searchNaive(cutoff: AttemptCutoff, tracker: GuaranteeTracker) {
        var visited: Set<StateKey> = []
        var key = StateKey(words: [])
        let initial = NaiveUpgrader.State.initial(stepCount: naive.steps.count)
        encoder.append(initial, to: &key.words)
        tracker.appendKey(to: &key.words)
        visited.insert(key)
        var frontier = [Node(state: initial, tracker: tracker, number: 0)]
        var depth = 0
        while !frontier.isEmpty {
            var next: [Node<NaiveUpgrader.State>] = []
            for node in frontier {
                for (position, version) in versions.enumerated() {
                    var (launch, state) = naive.launch(at: version, from: node.state)
                    observation = IndexedObservation(launch, catalog: catalog)
                    var tracker = node.tracker
                    let broken = tracker.record(
                        observation, at: version, build: buildOfVersion[position], engine: .naive,
                        findings: &launchFindings)
                    cutoff.apply(to: &state)
                    key.words.removeAll(keepingCapacity: true)
                    encoder.append(state, to: &key.words)
                    tracker.appendKey(to: &key.words)
                    let isNew = visited.insert(key).inserted
                    transitions += 1
                    if transitions & 0xFFFF == 0 { progress?(transitions) }
                    if !broken.isEmpty || !launchFindings.isEmpty {
                        // The naive engine throws nothing.
                        try? keep(broken, from: node.number, at: position, length: depth + 1)
                    }
                    if isNew {
                        next.append(Node(state: state, tracker: tracker, number: Int32(parents.count)))
                        parents.append(node.number)
                        via.append(Int32(position))
                    }
                }
            }
            if !next.isEmpty { depth += 1 }
            frontier = next
        }
        states += visited.count
        longestShortestPath = max(longestShortestPath, depth)
    }

    /// Counts the transition's broken guarantees and findings (in `launchFindings`, emptied), and
    /// keeps the history of each that is shorter than any known: the launches to state `parent`,
    /// then the one at `versions[position]`.
    private mutating func keep(_ broken: [(Guarantee, String)], from parent: Int32, at position: Int, length: Int)
        throws
    {
        var replayed: Replayed?
        var counted: Set<Guarantee> = []
        for (guarantee, detail) in broken {
            if counted.insert(guarantee).inserted { violatingTransitions[guarantee, default: 0] += 1 }
            if let known = shortest[guarantee], known.launches.count <= length { continue }
            if replayed == nil { replayed = try replay(history(to: parent, then: position)) }
            let history = replayed!
            Self.confirm(history.broken.contains(guarantee), guarantee.rawValue, history.launches)
            shortest[guarantee] = Violation(
                guarantee: guarantee, detail: detail, policy: policy, launches: history.launches,
                observations: history.observations)
        }
        var countedKinds: Set<Finding.Kind> = []
        for (kind, index, detail) in launchFindings {
            if countedKinds.insert(kind).inserted { findingTransitions[kind, default: 0] += 1 }
            let key = (kind == .late ? 0 : catalog.count) + index
            if let known = shortestFindings[key], known.launches.count <= length { continue }
            if replayed == nil { replayed = try replay(history(to: parent, then: position)) }
            let history = replayed!
            Self.confirm(
                history.findings.contains { $0.0 == kind && $0.1 == index }, "\(kind) \(catalog.ids[index])",
                history.launches)
            shortestFindings[key] = Finding(
                kind: kind, stepID: catalog.ids[index], stepVersion: catalog.versions[index],
                allowed: allowed.contains(kind) || catalog.allowed[index].contains(kind), detail: detail,
                policy: policy, launches: history.launches, observations: history.observations)
        }
        launchFindings.removeAll(keepingCapacity: true)
    }

    /// The launches of the shortest history the search found to state `state`, then the one at
    /// `versions[position]`.
    private func history(to state: Int32, then position: Int) -> [Version] {
        var positions = [position]
        var state = state
        while state > 0 {
            positions.append(Int(via[Int(state)]))
            state = parents[Int(state)]
        }
        return positions.reversed().map { versions[$0] }
    }

    /// Stops when a counterexample, replayed from a fresh install with the real attempt numbers, does
    /// not end as the search saw it end: the state key or the attempt cut-off would have merged states
    /// that behave differently, and the search would not be sound.
    private static func confirm(_ holds: Bool, _ shown: @autoclosure () -> String, _ launches: [Version]) {
        precondition(
            holds,
            "explore: the history \(launches.map(\.description).joined(separator: " -> ")), replayed from a fresh"
                + " install, does not show \(shown()) as the search to a fixpoint saw it")
    }

    /// A history replayed from a fresh install.
    private struct Replayed {
        var launches: [Version]
        /// What each launch did.
        var observations: [LaunchObservation]
        /// What the last launch broke and found (kind and run index).
        var broken: Set<Guarantee>
        var findings: [(Finding.Kind, Int)]
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
    private func replay(_ launches: [Version]) throws -> Replayed {
        var observations: [LaunchObservation] = []
        var observation = IndexedObservation(outcome: .upToDate, upgradedThrough: nil)
        var tracker = GuaranteeTracker(catalog: catalog, policy: policy, engine: engine)
        var broken: [(Guarantee, String)] = []
        var findings: [(Finding.Kind, Int, String)] = []
        switch engine {
        case .standard:
            let launcher = ExplorationLauncher(
                app: SimulatedApp(steps: fixture.steps, floor: fixture.floor, policy: policy), catalog: catalog,
                fault: fault)
            var state: UpgradeState?
            for version in launches {
                let build = catalog.releases.build(at: version)
                let written = try launcher.launch(at: version, build: build, from: state, into: &observation)
                findings.removeAll()
                broken = tracker.record(observation, at: version, build: build, engine: engine, findings: &findings)
                broken += Self.stateProblems(
                    written: written, from: state, at: version, crashed: observation.outcome == .crashed,
                    checkEncoding: true)
                if let written { state = written }
                observations.append(observation.observation(catalog: catalog))
            }
        case .naive:
            var state = NaiveUpgrader.State.initial(stepCount: naive.steps.count)
            for version in launches {
                let launch: LaunchObservation
                (launch, state) = naive.launch(at: version, from: state)
                observation = IndexedObservation(launch, catalog: catalog)
                findings.removeAll()
                broken = tracker.record(
                    observation, at: version, build: catalog.releases.build(at: version), engine: engine,
                    findings: &findings)
                observations.append(observation.observation(catalog: catalog))
            }
        }
        return Replayed(
            launches: launches, observations: observations, broken: Set(broken.map(\.0)),
            findings: findings.map { ($0.0, $0.1) })
    }
}
