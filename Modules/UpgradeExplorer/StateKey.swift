import UpgradeCore
import UpgradeFixtures
import VersionKit

/// How the search to a fixpoint writes a state's key: the words of the stored state and the words of
/// what the checker remembers, each interned (``WordInterner``) to a number, so that the visited set
/// keeps two 32-bit numbers per state. The encoders are ``StateKeyEncoder`` (the stored state) and
/// ``GuaranteeTracker/appendKey(to:reduced:storedMark:)`` (the checker's memory).
///
/// The reduced key (the default) holds only what decides the future: two histories that reach the
/// same key run the same steps, break the same guarantees and make the same findings, launch for
/// launch, for ever. The full key (``ExplorationOptions/fullStateKey``) holds the stored state
/// exactly and the checker's memory member by member. The reduced key leaves out `lastLaunched`
/// (no rule reads it to decide what runs, only whether a launch that changes nothing else writes),
/// keys `completed`, `abandoned` and `attempts` as sorted multisets (every rule and check reads
/// membership and counts), writes the checker's mark as one word when it is the stored mark, and
/// keeps the checker's abandoned steps as the union of finished and abandoned (every check reads
/// them so).
///
/// `StateKeyPropertyTests` checks this over generated fixtures: every two reachable states with one
/// reduced key launch alike by every move and reach states with one reduced key again, which by
/// induction is the claim. `ReducedKeyTests` checks that both keys give the same verdicts.
enum StateKey {
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

    /// No cut-off: every count is kept as it is (the bounded walk's).
    static let none = AttemptCutoff(value: .max)

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
