import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeExplorer
@testable import UpgradeFixtures
@testable import UpgradeReplay

/// The argument of ``StateKey`` as a property: states the reduced key merges must behave alike, launch
/// for launch, for ever. It holds for ever when it holds for one launch: if every two reachable states
/// with one reduced key, launched by the same move, show the same launch, break the same guarantees,
/// make the same findings and again reach states with one reduced key, then by induction every history
/// from either shows the same, and the search to a fixpoint, which expands one of them only, loses
/// nothing. So this test collects the reachable states of generated fixtures by their full key, groups
/// them by their reduced key, and launches every group's members by every move.
@Suite("explore: states with one reduced key behave alike (the state key's argument, checked)")
struct StateKeyPropertyTests {
    /// A state reached, as the search keeps it: the engine's state (attempt numbers cut off) and what
    /// the checker remembers.
    struct Node<State> {
        var state: State
        var tracker: GuaranteeTracker
    }

    /// The reduced (or full) key of a node, as the search to a fixpoint writes it.
    static func key<Stepper: ExplorationStepper>(
        _ node: Node<Stepper.State>, _ stepper: Stepper, reduced: Bool, catalog: ExplorationCatalog
    ) -> [UInt32] {
        var words: [UInt32] = []
        stepper.appendKey(node.state, encoder: StateKeyEncoder(catalog: catalog, reduced: reduced), to: &words)
        words.append(.max)
        node.tracker.appendKey(
            to: &words, reduced: reduced, storedMark: stepper.foldsMark ? .some(stepper.mark(of: node.state)) : nil)
        return words
    }

    /// Every move from a node (as the drivers make them) with what it shows: the launch, the
    /// guarantees broken, the findings, and the reduced key of the node it leads to.
    static func launches<Stepper: ExplorationStepper>(
        from node: Node<Stepper.State>, _ stepper: Stepper, worker: Stepper.Worker, engine: ExplorationOptions.Engine,
        catalog: ExplorationCatalog, versions: [Version]
    ) throws -> (shown: [String], next: [Node<Stepper.State>]) {
        var shown: [String] = []
        var next: [Node<Stepper.State>] = []
        var observation = IndexedObservation(outcome: .upToDate, upgradedThrough: nil)
        func launch(_ move: ExplorationMove) throws {
            let version = versions[move.position]
            let launched = try stepper.launch(
                worker, from: node.state, at: move.position, condition: move.condition, into: &observation)
            var tracker = node.tracker
            var findings: [(FindingKind, Int, String)] = []
            var broken = tracker.record(
                observation, at: version, build: catalog.releases.build(at: version), engine: engine,
                findings: &findings, condition: move.condition, wrote: launched.wrote)
            if move.condition != .locked || launched.written != nil {
                broken += stepper.problems(
                    written: launched.written, from: node.state, at: version,
                    crashed: observation.outcome == .crashed, checkEncoding: false)
            }
            let after = Node(state: launched.next, tracker: tracker)
            shown.append(
                "\(move): \(observation.outcome) ran \(observation.ran) abandoned \(observation.abandoned)"
                    + " finished \(observation.finished) through \(observation.upgradedThrough.map(\.description) ?? "-")"
                    + " broke \(Set(broken.map(\.0)).sorted { $0.rawValue < $1.rawValue })"
                    + " found \(findings.map { "\($0.0) \($0.1)" }) key \(key(after, stepper, reduced: true, catalog: catalog))"
            )
            next.append(after)
        }
        for position in versions.indices {
            try launch(ExplorationMove(position: position))
            let ran = engine == .standard ? observation.ran : []
            try launch(ExplorationMove(position: position, condition: .locked))
            for index in ran { try launch(ExplorationMove(position: position, condition: .expire(index))) }
        }
        return (shown, next)
    }

    /// Collects up to `limit` reachable nodes, distinct by their full key, breadth-first, and checks
    /// that the members of every group of one reduced key launch alike. Returns how many nodes shared
    /// a reduced key with another (the cases the property is about).
    static func check<Stepper: ExplorationStepper>(
        _ stepper: Stepper, tracker: GuaranteeTracker, engine: ExplorationOptions.Engine, catalog: ExplorationCatalog,
        versions: [Version], limit: Int, fixture: String
    ) throws -> Int {
        let worker = stepper.makeWorker()
        var seen: Set<[UInt32]> = []
        var groups: [[UInt32]: [Node<Stepper.State>]] = [:]
        var frontier = [Node(state: stepper.initial, tracker: tracker)]
        var count = 0
        while !frontier.isEmpty && count < limit {
            var following: [Node<Stepper.State>] = []
            for node in frontier where count < limit {
                guard seen.insert(key(node, stepper, reduced: false, catalog: catalog)).inserted else { continue }
                count += 1
                groups[key(node, stepper, reduced: true, catalog: catalog), default: []].append(node)
                following += try launches(
                    from: node, stepper, worker: worker, engine: engine, catalog: catalog, versions: versions
                ).next
            }
            frontier = following
        }
        var merged = 0
        for group in groups.values where group.count > 1 {
            let first = try launches(
                from: group[0], stepper, worker: worker, engine: engine, catalog: catalog, versions: versions
            ).shown
            for other in group.dropFirst() {
                let shown = try launches(
                    from: other, stepper, worker: worker, engine: engine, catalog: catalog, versions: versions
                ).shown
                let difference = zip(first, shown).first { $0 != $1 }
                #expect(difference == nil, "\(fixture), \(engine): one reduced key, two behaviours: \(difference!)")
                if difference != nil { return merged }
            }
            merged += group.count
        }
        return merged
    }

    @Test(
        "generated fixtures, both engines: every two reachable states with one reduced key launch alike at every version and condition, and reach states with one reduced key"
    )
    func reducedKeyMergesOnlyAlikeStates() throws {
        var merged = 0
        for seed in 0..<80 as Range<UInt64> {
            let fixture = RandomFixtures.make(seed: 5000 + seed)
            let policy = fixture.policy
            let catalog = ExplorationCatalog(steps: fixture.steps, floor: fixture.floor)
            let versions = fixture.explorationVersions
            let fault: PlantedFault? = seed % 5 == 1 ? .retryLimitMarksDone(attempts: 2) : nil
            let standard = StandardStepper(
                app: SimulatedApp(steps: fixture.steps, floor: fixture.floor, policy: policy), catalog: catalog,
                fault: fault,
                cutoff: AttemptCutoff(
                    steps: fixture.steps, floor: fixture.floor, giveUpAfter: policy.giveUpAfter, fault: fault),
                versions: versions, buildOfVersion: versions.map(catalog.releases.build(at:)))
            merged += try Self.check(
                standard, tracker: GuaranteeTracker(catalog: catalog, policy: policy, engine: .standard),
                engine: .standard, catalog: catalog, versions: versions, limit: 150, fixture: fixture.name)
            guard seed % 4 == 0 else { continue }
            let naive = NaiveStepper(
                naive: NaiveUpgrader(steps: fixture.steps, floor: fixture.floor), catalog: catalog,
                cutoff: AttemptCutoff(steps: fixture.steps, floor: fixture.floor, giveUpAfter: nil, fault: nil),
                versions: versions)
            merged += try Self.check(
                naive, tracker: GuaranteeTracker(catalog: catalog, policy: policy, engine: .naive), engine: .naive,
                catalog: catalog, versions: versions, limit: 150, fixture: fixture.name)
        }
        // The reduced key merges states in most fixtures: the check is about something.
        #expect(merged > 500)
    }
}
