import UpgradeCore
import VersionKit

/// A fault planted in the standard engine's launches as `explore` makes them, for the tests that
/// show the search to a fixpoint sound: a test-only switch (``ExplorationOptions/plantedFault``), on
/// the simulator's side of the engine. UpgradeCore itself is never changed; the fault wraps what a
/// launch loads, as a faulty engine would read it.
package enum PlantedFault: Sendable, Hashable {
    /// An engine with a hard-coded retry limit that, instead of abandoning a step, records it as
    /// completed without running it: at a launch whose loaded state counts `attempts` or more failed
    /// or crashed attempts of a step (a step the last process died in counts that attempt too, as
    /// rule 0 will), the step is listed as completed and its attempts dropped before the launch goes
    /// on. The next launch that moves the mark past it ends `upgraded` with a step that neither
    /// finished nor was abandoned: ``Guarantee/everyStepAtOrBelowCurrentIsDone`` breaks.
    ///
    /// With 4 attempts it takes at least five launches to show (four that fail or crash the step, each
    /// ending its launch, then the faulty one): out of reach of the bounded search at its old default
    /// depth of 4, within reach at depth 6 (and at any depth of the fixpoint).
    case retryLimitMarksDone(attempts: Int)
    /// An engine that counts an expiry as an attempt: it reads the mark an expiry leaves (an
    /// `attempts` entry with no failed attempt and its last attempt interrupted) as one failed,
    /// interrupted attempt, as a crash inside the step would have left it. Under `giveUpAfter: 1` the
    /// step is then abandoned at the next launch without ever failing:
    /// ``Guarantee/abandonedOnlyAfterCountedFailures`` breaks.
    case expiryCountsAsAttempt

    /// The smallest failed-attempt count the fault reacts to: the attempt cut-off of the search to a
    /// fixpoint must not lie below it, since the fault tells counts below it from counts at or above it.
    var attemptThreshold: Int {
        switch self {
        case .retryLimitMarksDone(let attempts): attempts
        case .expiryCountsAsAttempt: 1
        }
    }

    /// The state as the faulty engine reads it: `state` itself when the fault does not apply, else
    /// the state with each step at the limit recorded as completed. `nil` stays `nil`.
    ///
    /// - Parameter state: The loaded state.
    /// - Returns: The state the faulty engine starts from, and whether the fault changed it (the faulty
    ///   engine then writes the launch's state even when the launch itself changes nothing).
    func apply(to state: UpgradeState?) -> (state: UpgradeState?, changed: Bool) {
        guard var state else { return (nil, false) }
        switch self {
        case .retryLimitMarksDone(let limit):
            var changed = false
            if let running = state.inProgress, running.attempt >= limit {
                state.inProgress = nil
                state.attempts.removeAll { $0.id == running.id }
                state.completed.append(StepRecord(id: running.id, version: running.version))
                changed = true
            }
            for entry in state.attempts where entry.failed >= limit {
                state.attempts.removeAll { $0.id == entry.id }
                state.completed.append(StepRecord(id: entry.id, version: entry.version))
                changed = true
            }
            return (state, changed)
        case .expiryCountsAsAttempt:
            guard state.attempts.contains(where: { $0.failed == 0 && $0.lastAttemptInterrupted }) else {
                return (state, false)
            }
            for index in state.attempts.indices where state.attempts[index].failed == 0 {
                state.attempts[index].failed = 1
            }
            return (state, true)
        }
    }
}
