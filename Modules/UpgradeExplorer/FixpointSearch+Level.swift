import Dispatch
import UpgradeCore
import UpgradeFixtures
import VersionKit

/// A state of the frontier: the full state the search continues from (the checks read it), what
/// the checker remembers, and the state's number.
struct FrontierNode<State> {
    var state: State
    var tracker: GuaranteeTracker
    var number: Int32
}

extension FrontierNode: Sendable where State: Sendable {}

/// What one core found while it expanded its part of a level, in the order of the frontier and the
/// versions: the transitions to states that may be new, and those that broke a guarantee or made a
/// finding.
struct LevelChunk<State: Sendable>: Sendable {
    /// A transition to a state that the tables did not hold when the level began (or held only in
    /// part): its key's parts, by number when a table held the part, else as words in `words`.
    struct Candidate: Sendable {
        var node: Int32
        /// The launch's ``ExplorationMove``, as its code.
        var move: Int32
        var stored: Int32
        var checker: Int32
        var storedWords: Range<Int>
        var checkerWords: Range<Int>
        var state: State
        var tracker: GuaranteeTracker
    }

    /// A transition that broke a guarantee or made a finding.
    struct Event: Sendable {
        var node: Int32
        /// The launch's ``ExplorationMove``, as its code.
        var move: Int32
        var broken: [(Guarantee, String)]
        var findings: [(FindingKind, Int, String)]
    }

    var candidates: [Candidate] = []
    var events: [Event] = []
    /// The new parts' words, end to end.
    var words: [UInt32] = []
    var transitions = 0
    /// The engine error that stopped this part of the level, after the transitions before it.
    var error: (any Error)?
}

/// What the cores of a level read: the frontier, the engine, and the tables as they were when the
/// level began (no one inserts while the cores read them).
struct LevelInput<Stepper: ExplorationStepper>: Sendable {
    var frontier: [FrontierNode<Stepper.State>]
    var stepper: Stepper
    var encoder: StateKeyEncoder
    var reduced: Bool
    var engine: ExplorationOptions.Engine
    var versions: [Version]
    var buildOfVersion: [Int]
    var storedParts: WordInterner
    var checkerParts: WordInterner
    var visited: WordInterner
    /// The fewest launches worth spreading over several cores.
    var parallelLaunches: Int
    /// Whether each version is also launched locked, and with an expiry in each step a plain launch runs.
    var deviceConditions: Bool
    /// How many steps the catalog has (for the moves' codes).
    var stepCount: Int
}

/// One slot a part of a level, read and written by the cores under a lock: each part takes its
/// worker and leaves its output, once, so the lock costs nothing next to the part's launches.
final class PartSlots<Element>: @unchecked Sendable {
    private let lock = PlatformMutex()
    /// Read and written only while holding `lock`.
    private var slots: [Element]

    init(_ slots: [Element]) { self.slots = slots }

    subscript(part: Int) -> Element {
        get { lock.withLock { slots[part] } }
        set { lock.withLock { slots[part] = newValue } }
    }

    /// The slots, in order.
    var all: [Element] { lock.withLock { slots } }
}

/// The launches counted by every core, for the progress reports: cores add to it now and then,
/// under a lock, and the report is made under the same lock, so reports never overlap.
final class ProgressCounter: @unchecked Sendable {
    private let lock = PlatformMutex()
    /// Read and written only while holding `lock`.
    private var transitions = 0
    let report: @Sendable (Int) -> Void

    init(report: @escaping @Sendable (Int) -> Void) { self.report = report }

    func add(_ count: Int) {
        lock.withLock {
            transitions += count
            report(transitions)
        }
    }
}

extension LevelInput {
    /// Expands the frontier's nodes in `range` at every version (and, with ``deviceConditions``, under
    /// every device condition), with one core's worker.
    func expand(_ range: Range<Int>, worker: Stepper.Worker, counter: ProgressCounter?) -> LevelChunk<Stepper.State> {
        var chunk = LevelChunk<Stepper.State>()
        var observation = IndexedObservation(outcome: .upToDate, upgradedThrough: nil)
        var findings: [(FindingKind, Int, String)] = []
        var stored: [UInt32] = []
        var checker: [UInt32] = []
        // What this part has already checked and kept: a stored part whose encoding it checked, and
        // the keys of its candidates (a later transition to the same state is no candidate: the
        // merge would keep the first one).
        var encodingChecked = WordInterner()
        var kept = WordInterner()
        var uncounted = 0
        defer { counter?.add(uncounted) }
        var plainRan: [Int] = []
        /// One launch from the node at `nodeIndex` by `move`: checked, keyed, and kept as a candidate
        /// when its state may be new.
        func visit(_ nodeIndex: Int, _ node: FrontierNode<Stepper.State>, _ move: ExplorationMove) throws {
            let version = versions[move.position]
            let launched = try stepper.launch(
                worker, from: node.state, at: move.position, condition: move.condition, into: &observation)
            var tracker = node.tracker
            var broken = tracker.record(
                observation, at: version, build: buildOfVersion[move.position], engine: engine,
                findings: &findings, condition: move.condition, wrote: launched.wrote)
            stored.removeAll(keepingCapacity: true)
            stepper.appendKey(launched.next, encoder: encoder, to: &stored)
            let storedNumber = storedParts.find(stored)
            // Whether a state survives encoding and decoding depends on its stored part alone: the
            // costly check runs once in a part for each stored part that no earlier level (or policy)
            // had.
            let checkEncoding =
                launched.written != nil && storedNumber == nil
                && encodingChecked.insert(stored).inserted
            // A locked launch must write nothing, even on a fresh install (the tracker checks that).
            if move.condition != .locked || launched.written != nil {
                broken += stepper.problems(
                    written: launched.written, from: node.state, at: version,
                    crashed: observation.outcome == .crashed, checkEncoding: checkEncoding)
            }
            checker.removeAll(keepingCapacity: true)
            tracker.appendKey(
                to: &checker, reduced: reduced,
                storedMark: stepper.foldsMark ? .some(stepper.mark(of: launched.next)) : nil)
            let checkerNumber = checkerParts.find(checker)
            var seen = false
            if let storedNumber, let checkerNumber {
                seen = visited.find([UInt32(storedNumber), UInt32(checkerNumber)]) != nil
            }
            let code = move.code(steps: stepCount)
            if !broken.isEmpty || !findings.isEmpty {
                chunk.events.append(.init(node: Int32(nodeIndex), move: code, broken: broken, findings: findings))
                findings.removeAll(keepingCapacity: true)
            }
            if !seen {
                seen = !kept.insert(stored + checker).inserted
            }
            if !seen {
                let storedStart = chunk.words.count
                if storedNumber == nil { chunk.words.append(contentsOf: stored) }
                let checkerStart = chunk.words.count
                if checkerNumber == nil { chunk.words.append(contentsOf: checker) }
                chunk.candidates.append(
                    .init(
                        node: Int32(nodeIndex), move: code, stored: Int32(storedNumber ?? -1),
                        checker: Int32(checkerNumber ?? -1), storedWords: storedStart..<checkerStart,
                        checkerWords: checkerStart..<chunk.words.count, state: launched.next, tracker: tracker))
            }
            chunk.transitions += 1
            uncounted += 1
            if uncounted == 4096, let counter {
                counter.add(uncounted)
                uncounted = 0
            }
        }
        do {
            for nodeIndex in range {
                let node = frontier[nodeIndex]
                for position in versions.indices {
                    try visit(nodeIndex, node, ExplorationMove(position: position))
                    guard deviceConditions else { continue }
                    // The device's conditions: a locked launch, and an expiry in each step the plain
                    // launch ran (the launch runs as the plain one up to that step). The naive pattern
                    // has no expiry handler: its expiry would be a crash that writes nothing, which its
                    // crashes show already, so it gets the locked launch only.
                    plainRan.removeAll(keepingCapacity: true)
                    if engine == .standard { plainRan.append(contentsOf: observation.ran) }
                    try visit(nodeIndex, node, ExplorationMove(position: position, condition: .locked))
                    for index in plainRan {
                        try visit(nodeIndex, node, ExplorationMove(position: position, condition: .expire(index)))
                    }
                }
            }
        } catch {
            chunk.error = error
        }
        return chunk
    }

    /// Expands the whole frontier, on every core when it is large enough: the frontier is cut into
    /// consecutive parts, a few per core, and the parts come back in the frontier's order, so that
    /// what follows is the same as one core expanding the nodes one after the other.
    ///
    /// - Parameters:
    ///   - workers: One worker per part, made as needed.
    ///   - cores: How many cores to use.
    func expandAll(workers: inout [Stepper.Worker], cores: Int, counter: ProgressCounter?) -> [LevelChunk<
        Stepper.State
    >] {
        // Small levels (and one core) are expanded here: a part costs a dispatch, and a wake-up of a
        // thread, which on a loaded machine can take longer than thousands of launches.
        let launches = frontier.count * versions.count
        let parts =
            cores <= 1 || launches < parallelLaunches ? 1 : min(cores * 4, frontier.count, max(launches / 2048, 2))
        while workers.count < parts { workers.append(stepper.makeWorker()) }
        if parts == 1 { return [expand(frontier.indices, worker: workers[0], counter: counter)] }
        let outputs = PartSlots<LevelChunk<Stepper.State>?>(Array(repeating: nil, count: parts))
        let pool = PartSlots(Array(workers.prefix(parts)))
        let count = frontier.count
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = (count * part / parts)..<(count * (part + 1) / parts)
            outputs[part] = expand(range, worker: pool[part], counter: counter)
        }
        return outputs.all.map { $0! }
    }
}
