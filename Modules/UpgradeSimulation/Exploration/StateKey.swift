import UpgradeCore
import VersionKit

/// A state of the search to a fixpoint, as the visited set keeps it: 32-bit words that hold
/// everything that can change what a later launch does or how it is judged, and nothing else.
///
/// For the standard engine the words hold the stored state (`nil`, "no state", is told from an
/// empty one), with each step named by its run index and each attempt number cut off
/// (``AttemptCutoff``), then what the guarantee checker remembers (``GuaranteeTracker``: finished and
/// abandoned steps, the fresh-install baseline, the mark, the last step finished, a pending failure,
/// whether a launch has happened, and the findings' memory). For the naive engine they hold its
/// stored version, as the list of numbers it was written with, its attempt counts, cut off the same
/// way, and the checker's memory.
///
/// Two histories that reach the same key behave the same from there on, launch for launch, and are
/// judged the same: every launch is a function of the stored state and the running version (and the
/// scripted behaviours, which read attempt numbers only up to the cut-off), and every judgement a
/// function of the checker's memory and the launch. So a search that expands each key once, with
/// every version, covers every history of any length.
struct StateKey: Hashable {
    var words: [UInt32]

    /// The words' bytes in one call: far cheaper than a word at a time, the synthesized way.
    func hash(into hasher: inout Hasher) {
        words.withUnsafeBytes { hasher.combine(bytes: $0) }
    }

    /// Appends a version, or `nil`, as three words (a component is at most 2^31 - 1, so all ones in
    /// the first word never names a version). The component count is left out: it changes no
    /// comparison (`8.8 == 8.8.0`), and the versions a search launches are distinct by value.
    static func append(_ version: Version?, to words: inout [UInt32]) {
        guard let version else {
            words.append(.max)
            words.append(0)
            words.append(0)
            return
        }
        words.append(UInt32(version.major))
        words.append(UInt32(version.minor))
        words.append(UInt32(version.patch))
    }

    /// Appends a count (of attempts, so never negative) and a flag as two words, exactly.
    static func append(count: Int, flag: Bool = false, to words: inout [UInt32]) {
        words.append(UInt32(truncatingIfNeeded: count))
        words.append(UInt32(truncatingIfNeeded: count >> 32) << 1 | (flag ? 1 : 0))
    }
}

/// Where the search to a fixpoint cuts attempt numbers off: every count of failed or crashed
/// attempts at or above ``value`` is stored as ``value``.
///
/// Attempt numbers grow without bound for a step that always fails or crashes and is never given
/// up on, so without a cut-off the states would never stop being new. The cut-off is safe because
/// of who reads a step's count f of failed or crashed attempts (0 when the state has no entry):
/// - its scripted behaviour, for the next attempt f + 1: `fail`, `crash` and `succeed` do the same
///   on every attempt; `failTimes n` and `crashTimes n` the same on every attempt after the n-th (f
///   at least n); a script of m entries repeats its last entry from attempt m on (f at least m - 1);
/// - `giveUpAfter n`: rule 4a abandons when f >= n, and rule 4d when f + 1 >= n: both the same for
///   every f >= n;
/// - a planted fault of the soundness tests (``PlantedFault``), from its threshold on;
/// - no guarantee: the checker never sees attempt numbers; the state's validity needs f >= 1 only,
///   and any count encodes and decodes alike.
///
/// With K the largest of these (and at least 1, so that "no entry" stays told from "one failure"),
/// counts at or above K are told apart by nothing. Nor does any launch bring such a count back
/// below K: a failure or a crash turns f into f + 1 (rule 4d; rule 0 turns the `inProgress` attempt
/// f + 1 into the count), and finishing, abandoning, a rewind and rule 5 drop the entry. So a state
/// whose counts at or above K (and an `inProgress` attempt at or above K, which rule 0 turns into
/// such a count) are replaced by K behaves exactly as the state itself, launch after launch, and
/// the observations and judgements of every history are the same. The search replays each
/// counterexample it prints from a fresh install with the real counts, as the fixture it prints
/// will be replayed.
struct AttemptCutoff {
    /// The smallest count that stands for every count at or above it.
    let value: Int

    /// The cut-off for a fixture's steps and floor under a policy.
    ///
    /// - Parameters:
    ///   - steps: The steps of every build.
    ///   - floor: The floor, if any.
    ///   - giveUpAfter: The policy's `giveUpAfter` (`nil` for none, and for the naive engine).
    ///   - fault: A planted fault, if any.
    init(steps: [ScriptedStep], floor: ScriptedStep?, giveUpAfter: Int?, fault: PlantedFault?) {
        var value = 1
        for step in steps + (floor.map { [$0] } ?? []) { value = max(value, step.behavior.settledAfter) }
        if let giveUpAfter { value = max(value, giveUpAfter) }
        if let fault { value = max(value, fault.attemptThreshold) }
        self.value = value
    }

    /// A cut-off at a given count (at least 1); for the tests that show a lower one unsafe.
    init(value: Int) { self.value = max(value, 1) }

    /// Cuts a state's attempt numbers off, in place; a state with none to cut is left untouched (and
    /// so not copied).
    func apply(to state: inout UpgradeState) {
        if state.attempts.contains(where: { $0.failed > value }) {
            for index in state.attempts.indices where state.attempts[index].failed > value {
                state.attempts[index].failed = value
            }
        }
        if let running = state.inProgress, running.attempt > value { state.inProgress!.attempt = value }
    }

    /// Cuts the naive engine's attempt counts off, in place.
    func apply(to state: inout NaiveUpgrader.State) {
        if state.failedAttempts.contains(where: { $0 > value }) {
            for index in state.failedAttempts.indices where state.failedAttempts[index] > value {
                state.failedAttempts[index] = value
            }
        }
    }
}

extension StepBehavior {
    /// The count of failed attempts from which every further attempt does the same: 0 for `succeed`,
    /// `fail` and `crash`, n for `failTimes n` and `crashTimes n`, one less than the length of a script.
    var settledAfter: Int {
        switch self {
        case .succeed, .fail, .crash: 0
        case .failTimes(let count), .crashTimes(let count): max(count, 0)
        case .script(let entries): max(entries.count - 1, 0)
        }
    }
}

/// Writes the keys of the search to a fixpoint: the stored state by run index, then the checker's
/// memory. One per search; it names the rare record the catalog does not know by a number of its own.
struct StateKeyEncoder {
    let catalog: ExplorationCatalog
    /// Records that name no step of the catalog by id and version (never made by a fixture's steps;
    /// kept so that the key stays exact whatever a state holds), numbered from the catalog's count.
    private var otherRecords: [StepRecord: UInt32] = [:]

    init(catalog: ExplorationCatalog) { self.catalog = catalog }

    /// The number of the step with this id and version: its run index, found among the steps of its
    /// version by a binary search and a few id comparisons.
    private mutating func number(_ id: String, _ version: Version) -> UInt32 {
        var index = catalog.firstIndex(above: version) - 1
        while index >= 0 && catalog.versions[index] == version {
            if catalog.ids[index] == id { return UInt32(index) }
            index -= 1
        }
        let record = StepRecord(id: id, version: version)
        if let known = otherRecords[record] { return known }
        let number = UInt32(catalog.count + otherRecords.count)
        otherRecords[record] = number
        return number
    }

    /// Appends the standard engine's stored state, whose attempt numbers are already cut off.
    mutating func append(_ state: UpgradeState?, to words: inout [UInt32]) {
        guard let state else {
            words.append(0)
            return
        }
        words.append(1)
        StateKey.append(state.upgradedThrough, to: &words)
        StateKey.append(state.lastLaunched, to: &words)
        // The lists in their stored order: what the state is, exactly.
        words.append(UInt32(state.completed.count))
        for record in state.completed { words.append(number(record.id, record.version)) }
        words.append(UInt32(state.abandoned.count))
        for record in state.abandoned { words.append(number(record.id, record.version)) }
        words.append(UInt32(state.attempts.count))
        for entry in state.attempts {
            words.append(number(entry.id, entry.version))
            StateKey.append(count: entry.failed, flag: entry.lastAttemptInterrupted, to: &words)
        }
        if let running = state.inProgress {
            words.append(number(running.id, running.version) + 1)
            StateKey.append(count: running.attempt, to: &words)
        } else {
            words.append(0)
        }
    }

    /// Appends the naive engine's state, whose attempt counts are already cut off.
    func append(_ state: NaiveUpgrader.State, to words: inout [UInt32]) {
        if let stored = state.storedVersion {
            words.append(UInt32(stored.count + 1))
            for component in stored { words.append(UInt32(component)) }
        } else {
            words.append(0)
        }
        for count in state.failedAttempts { StateKey.append(count: count, to: &words) }
    }
}
