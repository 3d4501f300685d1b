import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import VersionKit

/// What one history has done so far, as far as the guarantees care, and the check of each launch
/// against it. A value: `explore` copies it at every branch of its walk.
///
/// The tracker is an independent model of what must be true, not a second engine: it records what
/// finished, what was abandoned and where the fresh-install baseline lies, and judges each launch's
/// observation against that. With builds that differ (steps' `since` and `until`), it judges each
/// launch against its own build, as <doc:/UpgradeCore/LaunchAlgorithm>, "Guarantees", states them,
/// and reports late and lost steps as findings (``Finding``).
struct GuaranteeTracker {
    /// The steps in run order (ascending version, declaration order within a version, a floor first
    /// within its version).
    let catalog: ExplorationCatalog
    /// The policy of the history (the naive engine is judged as under `keep`).
    let policy: UpgradePolicy
    let rewinds: Bool

    private(set) var finished: StepSet
    private(set) var abandoned: StepSet
    /// What only builds that differ need; `nil` for a fixture with one build, so that copying the
    /// tracker at every branch of the walk costs nothing more there.
    private(set) var builds: BuildTracking?

    /// What the tracker keeps about builds, when they differ.
    struct BuildTracking {
        /// Steps found late or lost on this device, and a floor that the mark passed in a build
        /// without it.
        var lateOrLost: StepSet
        /// The steps that every build launched so far contains.
        var common: StepSet
        /// The steps a floor that finished or was abandoned stands in for: those at or below it (a
        /// rewind forgets those above its version, as it forgets finished steps).
        var floorCovered: StepSet
    }
    /// Steps at or below this count as done without running (a `skip` or `upgradeFrom` fresh install).
    private(set) var baseline: Version?
    private(set) var mark: Version?
    /// The run index of the last step that finished, for the run-order check.
    private(set) var lastFinished = -1
    /// The run index of the step whose failure ended the last launch that handled a step.
    private(set) var pendingFailure: Int?
    private(set) var launches = 0
    /// Under `giveUpAfter` n (the standard engine), each step's failed or crashed attempts without an
    /// interruption since the engine last forgot them (the step finished or was abandoned, the mark
    /// passed it, a rewind dropped it), by run index, cut off at n: all that
    /// ``Guarantee/abandonedOnlyAfterCountedFailures`` reads. Empty otherwise.
    private(set) var counted: [UInt8] = []

    init(catalog: ExplorationCatalog, policy: UpgradePolicy, engine: ExplorationOptions.Engine) {
        self.catalog = catalog
        self.policy = policy
        self.rewinds = engine == .standard && policy.downgrade == .rewind
        finished = StepSet(count: catalog.count)
        abandoned = StepSet(count: catalog.count)
        if engine == .standard, let limit = policy.giveUpAfter, limit > 0 {
            counted = Array(repeating: 0, count: catalog.count)
        }
        if catalog.hasReleases {
            builds = BuildTracking(
                lateOrLost: StepSet(count: catalog.count), common: StepSet(count: catalog.count, full: true),
                floorCovered: StepSet(count: catalog.count))
        }
    }

    /// Checks one launch at `version` and takes it into account.
    ///
    /// - Returns: The guarantees the launch broke, each with a sentence saying how, and the findings
    ///   it made (kind, step id, sentence).
    mutating func record(
        _ observation: LaunchObservation, at version: Version, engine: ExplorationOptions.Engine,
        condition: ExplorationMove.Condition = .plain, wrote: Bool = false
    ) -> (broken: [(Guarantee, String)], findings: [(FindingKind, String, String)]) {
        var findings: [(FindingKind, Int, String)] = []
        let broken = record(
            IndexedObservation(observation, catalog: catalog), at: version, build: catalog.releases.build(at: version),
            engine: engine, findings: &findings, condition: condition, wrote: wrote)
        return (broken, findings.map { ($0.0, catalog.ids[$0.1], $0.2) })
    }

    /// Checks one launch, given by run indices, at `version` with the build of that version (its index
    /// in ``Releases/builds``), and takes it into account.
    ///
    /// - Parameters:
    ///   - findings: Receives the findings the launch made: kind, run index, sentence.
    ///   - condition: The device's condition at the launch.
    ///   - wrote: Whether the launch wrote the state (read for a locked launch, which must not).
    /// - Returns: The guarantees the launch broke, each with a sentence saying how.
    mutating func record(
        _ observation: IndexedObservation, at version: Version, build: Int, engine: ExplorationOptions.Engine,
        findings: inout [(FindingKind, Int, String)], condition: ExplorationMove.Condition = .plain,
        wrote: Bool = false
    ) -> [(Guarantee, String)] {
        var broken: [(Guarantee, String)] = []
        if condition == .locked {
            // A locked launch decides nothing: when it changed nothing, there is nothing to take into
            // account (not even that a launch happened: a fresh install's baseline is set by the first
            // launch that could read its data). One that changed something is judged as any launch too.
            if observation.outcome != .deferred || !observation.ran.isEmpty || !observation.abandoned.isEmpty
                || wrote
            {
                var what: [String] = []
                if observation.outcome != .deferred { what.append("ended \(observation.outcome)") }
                if !observation.ran.isEmpty {
                    what.append("ran \(observation.ran.map { catalog.ids[$0] }.joined(separator: ", "))")
                }
                if !observation.abandoned.isEmpty {
                    what.append("abandoned \(observation.abandoned.map { catalog.ids[$0] }.joined(separator: ", "))")
                }
                if wrote { what.append("wrote the state") }
                broken.append(
                    (
                        .lockedLaunchChangesNothing,
                        "a launch at \(version) without protected data \(what.joined(separator: ", "))"
                    ))
            }
            if !wrote && observation.ran.isEmpty && observation.abandoned.isEmpty { return broken }
        }
        let first = launches == 0
        launches += 1
        let releases = catalog.hasReleases
        if releases { builds!.common.formIntersection(catalog.builds[build]) }
        if first && engine == .standard {
            switch policy.freshInstall {
            case .skip: baseline = version
            case .runAll: baseline = nil
            case .upgradeFrom(let from): baseline = from
            }
            // The launch starts from the baseline as its mark, so that a first launch below an
            // `upgradeFrom` baseline is judged as the downgrade it is.
            mark = baseline
        }
        // Each step started: not above the running version, not finished before.
        for index in observation.ran {
            let stepVersion = catalog.versions[index]
            if stepVersion > version {
                broken.append(
                    (.noStepAboveRunningVersion, "\(catalog.ids[index]) (\(stepVersion)) ran at \(version)"))
            }
            if finished.contains(index) {
                broken.append(
                    (
                        .finishedStepNeverRunsAgain,
                        "\(catalog.ids[index]) ran again at \(version) after it had finished"
                    ))
            }
        }
        // Finishing order: within the launch, and across launches (with builds that differ: among the
        // steps that every build of the history contains).
        if releases {
            let common = builds!.common
            let limit = finished.highest(in: common)
            var lastInLaunch = -1
            for index in observation.finished {
                let before =
                    index < lastInLaunch ? lastInLaunch : (common.contains(index) && index < limit ? limit : -1)
                if before >= 0 {
                    broken.append(
                        (
                            .stepsFinishInRunOrder,
                            "\(catalog.ids[index]) finished at \(version) after \(catalog.ids[before]), which comes"
                                + " later in run order"
                        ))
                }
                lastInLaunch = max(lastInLaunch, index)
                finished.insert(index)
            }
        } else {
            for index in observation.finished {
                if index < lastFinished {
                    broken.append(
                        (
                            .stepsFinishInRunOrder,
                            "\(catalog.ids[index]) finished at \(version) after \(catalog.ids[lastFinished]), which"
                                + " comes later in run order"
                        ))
                }
                lastFinished = max(lastFinished, index)
                finished.insert(index)
            }
        }
        for index in observation.abandoned { abandoned.insert(index) }
        if !counted.isEmpty { countAttempts(observation, at: version, into: &broken) }
        let floor = catalog.floorIndex
        if releases && floor >= 0 && !builds!.floorCovered.contains(floor)
            && (finished.contains(floor) || abandoned.contains(floor))
        {
            for index in 0..<catalog.firstIndex(above: catalog.versions[floor]) { builds!.floorCovered.insert(index) }
        }
        // A failed step comes first in the next launch that handles any step (after the floor, which
        // runs before every other pending step). With builds that differ, only among the steps that
        // every build of the history contains (<doc:/UpgradeFixtures/UpgradeFixtures>, "Releases: builds that add and
        // remove steps"): a step a later build adds below the failed one rightly runs before it, and a
        // build without the failed step cannot retry it.
        let skipping = pendingFailure == floor ? -1 : floor
        if let failed = pendingFailure, let firstHandled = firstHandledInRunOrder(observation, skipping: skipping) {
            let judged =
                releases
                ? (builds!.common.contains(failed)
                    ? firstHandledInRunOrder(observation, skipping: skipping, among: builds!.common) : nil)
                : firstHandled
            if let judged, judged != failed {
                broken.append(
                    (
                        .failedStepIsRetriedFirst,
                        "\(catalog.ids[failed]) had failed, but the next launch to handle a step (at \(version))"
                            + " handled \(catalog.ids[judged]) first"
                    ))
            }
            pendingFailure = nil
        }
        if observation.outcome == .failed, let last = observation.ran.last {
            pendingFailure = last
        }
        // The mark.
        let newMark = observation.upgradedThrough
        if releases && observation.outcome != .crashed, let newMark, mark.map({ $0 < newMark }) ?? true {
            findSteps(passedFrom: mark, to: newMark, at: version, build: build, into: &findings)
        }
        if !rewinds, let old = mark, newMark.map({ $0 < old }) ?? true {
            broken.append(
                (
                    .markNeverGoesDown,
                    "the mark went from \(old) to \(newMark.map { "\($0)" } ?? "nothing") at \(version)"
                ))
        }
        if rewinds && observation.outcome == .downgraded, let old = mark, version < old {
            rewind(to: version)
        }
        // Rule 5 forgets the attempts of the steps at or below the mark it sets.
        if !counted.isEmpty, let newMark, mark.map({ $0 < newMark }) ?? true {
            for index in 0..<catalog.firstIndex(above: newMark) { counted[index] = 0 }
        }
        mark = newMark
        // Completeness after a launch that says it is done: the catalog is in version order, so the
        // steps at or below C and above the baseline are one run of indices. With builds that differ,
        // only the steps of the running build count, and late and lost steps, and steps a floor that
        // ran stands in for, are exempt.
        if observation.outcome == .upgraded || observation.outcome == .upToDate {
            let start = baseline.map(catalog.firstIndex(above:)) ?? 0
            let end = catalog.firstIndex(above: version)
            var index = start
            while index < end {
                if !finished.contains(index) && !abandoned.contains(index)
                    && (!releases
                        || (catalog.builds[build].contains(index) && !builds!.lateOrLost.contains(index)
                            && !coveredByFloor(index)))
                {
                    broken.append(
                        (
                            .everyStepAtOrBelowCurrentIsDone,
                            "\(catalog.ids[index]) (\(catalog.versions[index])) is neither finished nor abandoned"
                                + " after an \(observation.outcome) launch at \(version)"
                        ))
                    break
                }
                index += 1
            }
        }
        return broken
    }

    /// Appends what the tracker remembers to a state key (the search to a fixpoint): whatever can
    /// change how a later launch is judged. That is every member but the launch counter, of which
    /// only one fact is ever read: whether a launch has happened (the first launch sets the
    /// fresh-install baseline). The catalog and the policy are the same for every state of a search.
    ///
    /// - Parameters:
    ///   - words: The key.
    ///   - reduced: Whether to fold what tells the future no better than what it is folded with
    ///     (``StateKey``): abandoned steps as the union of finished and abandoned (every check reads
    ///     them so), and the mark as one word when it is `storedMark`.
    ///   - storedMark: The mark of the stored state the key holds too (`.some(nil)` for none), or
    ///     `nil` when the key holds no such mark (the naive engine).
    func appendKey(to words: inout [UInt32], reduced: Bool = false, storedMark: Version?? = nil) {
        words.append(launches == 0 ? 0 : 1)
        finished.appendWords(to: &words)
        if reduced {
            abandoned.appendWords(union: finished, to: &words)
        } else {
            abandoned.appendWords(to: &words)
        }
        if let builds {
            // The findings' memory: late or lost steps, the steps every build so far has, and the steps
            // a floor that ran stands in for.
            builds.lateOrLost.appendWords(to: &words)
            builds.common.appendWords(to: &words)
            builds.floorCovered.appendWords(to: &words)
        }
        StateKey.append(baseline, to: &words)
        if reduced, let storedMark, storedMark == mark {
            words.append(0)
        } else {
            if reduced { words.append(1) }
            StateKey.append(mark, to: &words)
        }
        words.append(UInt32(bitPattern: Int32(truncatingIfNeeded: lastFinished)))
        words.append(pendingFailure.map { UInt32($0) } ?? .max)
        // The counted attempts, four to a word (each at most giveUpAfter, cut off at 255).
        var word: UInt32 = 0
        for (index, count) in counted.enumerated() {
            word |= UInt32(count) << (8 * UInt32(index % 4))
            if index % 4 == 3 || index == counted.count - 1 {
                words.append(word)
                word = 0
            }
        }
    }

    /// Counts the launch's failed and crashed attempts (not an interrupted one), and checks that each
    /// step it abandoned had `giveUpAfter` of them: one abandoned without running (rule 4a) before
    /// this launch, one abandoned as it failed (rule 4d) with this failure.
    private mutating func countAttempts(
        _ observation: IndexedObservation, at version: Version, into broken: inout [(Guarantee, String)]
    ) {
        let limit = policy.giveUpAfter ?? 0
        let cap = UInt8(clamping: limit)
        let last = observation.ran.last
        for index in observation.ran where !observation.finished.contains(index) {
            // The last step of a cancelled launch had its time expire (or the launch was cancelled):
            // an interruption, never an attempt.
            if index == last && observation.outcome == .cancelled { continue }
            counted[index] = min(counted[index] &+ 1, cap)
        }
        for index in observation.abandoned {
            if Int(counted[index]) < limit {
                broken.append(
                    (
                        .abandonedOnlyAfterCountedFailures,
                        "\(catalog.ids[index]) was abandoned at \(version) after \(counted[index]) failed or crashed"
                            + " attempt\(counted[index] == 1 ? "" : "s") without an interruption; giveUpAfter is"
                            + " \(limit)"
                    ))
            }
            counted[index] = 0
        }
        for index in observation.finished { counted[index] = 0 }
    }

    /// Whether a floor that ran stands in for the step at `index`: the floor is at or above it.
    private func coveredByFloor(_ index: Int) -> Bool { builds?.floorCovered.contains(index) ?? false }

    /// The late and lost steps of a launch at `version` that moved the mark from `old` to `new`: the
    /// steps in between, above the baseline and not done, that the launch's build lacks.
    private mutating func findSteps(
        passedFrom old: Version?, to new: Version, at version: Version, build: Int,
        into findings: inout [(FindingKind, Int, String)]
    ) {
        let start = old.map(catalog.firstIndex(above:)) ?? 0
        let end = catalog.firstIndex(above: new)
        guard start < end else { return }
        let members = catalog.builds[build]
        for index in start..<end
        where !members.contains(index) && !finished.contains(index) && !abandoned.contains(index) {
            // A floor that a build without it passed is never a finding: the steps it stands in for were
            // in the builds that moved the mark past them (or are findings of their own).
            if index == catalog.floorIndex {
                builds!.lateOrLost.insert(index)
                continue
            }
            let stepVersion = catalog.versions[index]
            if let baseline, stepVersion <= baseline { continue }
            let passed = "the mark moved from \(old.map { "\($0)" } ?? "nothing") to \(new) at \(version)"
            if let since = catalog.since[index], version < since {
                builds!.lateOrLost.insert(index)
                findings.append(
                    (
                        .late, index,
                        "\(passed), whose build does not yet contain \(catalog.ids[index]) (\(stepVersion), since"
                            + " \(since)); it never runs on this device"
                    ))
            } else if !coveredByFloor(index) {
                builds!.lateOrLost.insert(index)
                let until = catalog.until[index].map { "until \($0)" } ?? "not in this build"
                let floorNote =
                    catalog.floorIndex < 0
                    ? ""
                    : coveredByFloor(catalog.floorIndex)
                        ? "; the floor is below it" : "; the floor had not run on this device"
                findings.append(
                    (
                        .lost, index,
                        "\(passed), whose build no longer contains \(catalog.ids[index]) (\(stepVersion), \(until)),"
                            + " which had not finished\(floorNote)"
                    ))
            }
        }
    }

    /// A rewinding downgrade to `version`: steps above it are forgotten and will run again.
    private mutating func rewind(to version: Version) {
        let keep = catalog.firstIndex(above: version)
        finished.removeAll(from: keep)
        abandoned.removeAll(from: keep)
        if builds != nil {
            builds!.lateOrLost.removeAll(from: keep)
            builds!.floorCovered.removeAll(from: keep)
        }
        if let current = baseline, version < current { baseline = version }
        if !counted.isEmpty { for index in keep..<counted.count { counted[index] = 0 } }
        lastFinished = min(lastFinished, keep - 1)
        if let failed = pendingFailure, failed >= keep { pendingFailure = nil }
    }

    /// The first step the launch handled (ran or abandoned) in run order, leaving out the step at
    /// `skipped` (-1 for none), and with `members` the steps outside it.
    private func firstHandledInRunOrder(
        _ observation: IndexedObservation, skipping skipped: Int, among members: StepSet? = nil
    ) -> Int? {
        if members == nil && observation.abandoned.isEmpty && (skipped < 0 || observation.ran.first != skipped) {
            return observation.ran.first
        }
        var first = Int.max
        for index in observation.ran where index < first && index != skipped && members?.contains(index) != false {
            first = index
        }
        for index in observation.abandoned
        where index < first && index != skipped && members?.contains(index) != false {
            first = index
        }
        return first == Int.max ? nil : first
    }
}
