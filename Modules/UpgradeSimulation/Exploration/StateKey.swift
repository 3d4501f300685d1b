import UpgradeCore
import VersionKit

/// How the search to a fixpoint writes a state's key: the words of the stored state and the words of
/// what the checker remembers, each interned (``WordInterner``) to a number, so that the visited set
/// keeps two 32-bit numbers per state. The encoders are ``StateKeyEncoder`` (the stored state) and
/// ``GuaranteeTracker/appendKey(to:reduced:storedMark:)`` (the checker's memory).
///
/// The reduced key (the default) holds only what decides the future: two histories that reach the
/// same key run the same steps, break the same guarantees and make the same findings, launch for
/// launch, at every version, for ever. The full key (``ExplorationOptions/fullStateKey``, for the tests
/// that show the two searches find the same) holds the stored state exactly and the checker's memory
/// member by member. What the reduced key leaves out or folds, and why each is exact:
///
/// - `lastLaunched`: no rule of the launch reads it to decide what runs, what is abandoned, the
///   outcome or the mark (rules 0 to 5 read the mark, the lists, the attempts and the step in
///   progress). It decides only whether a launch that changes nothing else writes, and the
///   report's "from". Every write sets it to the running version, so from two states that differ in
///   it alone a launch at C does the same and leaves two states that again differ at most in it (or
///   not at all: one wrote it as C, the other had C already and wrote nothing). The state checks
///   see the full state the launch wrote, whose `lastLaunched` is C either way.
/// - The order of `completed`, `abandoned` and `attempts`: rule 3 asks whether a list names a step,
///   rules 0, 4 and 5 find, add and drop entries by id, and every state check is about membership
///   and counts, so the lists are keyed as sorted multisets of run indices (a step listed twice stays
///   told apart from one listed once).
/// - The checker's mark, when it is the stored state's mark (always, for the standard engine as it
///   is): one word says so instead of three. Lossless.
/// - The checker's abandoned steps, as the union of finished and abandoned: every check reads
///   abandoned steps only through "finished or abandoned" (completeness, late and lost findings, what
///   a floor stands in for), and a rewind drops both from the same index on, so (finished, finished or
///   abandoned) tells the future as (finished, abandoned) does.
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
