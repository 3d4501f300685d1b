import UpgradeCore
import VersionKit

/// What one history has done so far, as far as the guarantees care, and the check of each launch
/// against it. A value: `explore` copies it at every branch of its walk.
///
/// The tracker is an independent model of what must be true, not a second engine: it records what
/// finished, what was abandoned and where the fresh-install baseline lies, and judges each launch's
/// observation against that.
struct GuaranteeTracker {
    /// The steps in run order (ascending version, declaration order within a version).
    let catalog: ExplorationCatalog
    /// The policy of the history (the naive engine is judged as under `keep`).
    let policy: UpgradePolicy
    let rewinds: Bool

    private(set) var finished: StepSet
    private(set) var abandoned: StepSet
    /// Steps at or below this count as done without running (a `skip` or `upgradeFrom` fresh install).
    private(set) var baseline: Version?
    private(set) var mark: Version?
    /// The run index of the last step that finished, for the run-order check.
    private(set) var lastFinished = -1
    /// The run index of the step whose failure ended the last launch that handled a step.
    private(set) var pendingFailure: Int?
    private(set) var launches = 0

    init(catalog: ExplorationCatalog, policy: UpgradePolicy, engine: ExplorationOptions.Engine) {
        self.catalog = catalog
        self.policy = policy
        self.rewinds = engine == .standard && policy.downgrade == .rewind
        finished = StepSet(count: catalog.count)
        abandoned = StepSet(count: catalog.count)
    }

    /// Checks one launch at `version` and takes it into account.
    ///
    /// - Returns: The guarantees the launch broke, each with a sentence saying how.
    mutating func record(
        _ observation: LaunchObservation, at version: Version, engine: ExplorationOptions.Engine
    ) -> [(Guarantee, String)] {
        record(IndexedObservation(observation, catalog: catalog), at: version, engine: engine)
    }

    /// Checks one launch, given by run indices, at `version` and takes it into account.
    ///
    /// - Returns: The guarantees the launch broke, each with a sentence saying how.
    mutating func record(
        _ observation: IndexedObservation, at version: Version, engine: ExplorationOptions.Engine
    ) -> [(Guarantee, String)] {
        var broken: [(Guarantee, String)] = []
        let first = launches == 0
        launches += 1
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
        // Finishing order.
        for index in observation.finished {
            if index < lastFinished {
                broken.append(
                    (
                        .stepsFinishInRunOrder,
                        "\(catalog.ids[index]) finished at \(version) after \(catalog.ids[lastFinished]), which comes"
                            + " later in run order"
                    ))
            }
            lastFinished = max(lastFinished, index)
            finished.insert(index)
        }
        for index in observation.abandoned { abandoned.insert(index) }
        // A failed step comes first in the next launch that handles any step.
        if let failed = pendingFailure, let firstHandled = firstHandledInRunOrder(observation) {
            if firstHandled != failed {
                broken.append(
                    (
                        .failedStepIsRetriedFirst,
                        "\(catalog.ids[failed]) had failed, but the next launch to handle a step (at \(version))"
                            + " handled \(catalog.ids[firstHandled]) first"
                    ))
            }
            pendingFailure = nil
        }
        if observation.outcome == .failed, let last = observation.ran.last {
            pendingFailure = last
        }
        // The mark.
        let newMark = observation.upgradedThrough
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
        mark = newMark
        // Completeness after a launch that says it is done: the catalog is in version order, so the
        // steps at or below C and above the baseline are one run of indices.
        if observation.outcome == .upgraded || observation.outcome == .upToDate {
            let start = baseline.map(catalog.firstIndex(above:)) ?? 0
            let end = catalog.firstIndex(above: version)
            var index = start
            while index < end {
                if !finished.contains(index) && !abandoned.contains(index) {
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

    /// A rewinding downgrade to `version`: steps above it are forgotten and will run again.
    private mutating func rewind(to version: Version) {
        let keep = catalog.firstIndex(above: version)
        finished.removeAll(from: keep)
        abandoned.removeAll(from: keep)
        if let current = baseline, version < current { baseline = version }
        lastFinished = min(lastFinished, keep - 1)
        if let failed = pendingFailure, failed >= keep { pendingFailure = nil }
    }

    /// The first step the launch handled (ran or abandoned) in run order.
    private func firstHandledInRunOrder(_ observation: IndexedObservation) -> Int? {
        if observation.abandoned.isEmpty { return observation.ran.first }
        var first = Int.max
        for index in observation.ran where index < first { first = index }
        for index in observation.abandoned where index < first { first = index }
        return first
    }
}

/// The fixture's steps in run order, with their ids and versions by run index. A class, so that the
/// trackers the walk copies at every branch share it for one reference count.
final class ExplorationCatalog: Sendable {
    let ids: [String]
    let versions: [Version]
    private let indexByID: [String: Int]

    init(steps: [ScriptedStep]) {
        let order = steps.indices.sorted { a, b in
            steps[a].version != steps[b].version ? steps[a].version < steps[b].version : a < b
        }
        ids = order.map { steps[$0].id }
        versions = order.map { steps[$0].version }
        indexByID = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    }

    var count: Int { ids.count }

    func index(of id: String) -> Int? { indexByID[id] }

    /// The index of the first step above `version`, by binary search (the versions are sorted).
    func firstIndex(above version: Version) -> Int { versions.firstIndex(above: version) }
}

/// A set of step indices as bits: cheap to copy at every branch of the walk.
struct StepSet: Hashable {
    private var low: UInt64 = 0
    private var high: [UInt64]

    init(count: Int) {
        high = count > 64 ? Array(repeating: 0, count: (count - 64 + 63) / 64) : []
    }

    func contains(_ index: Int) -> Bool {
        index < 64 ? low & (1 << UInt64(index)) != 0 : high[(index - 64) / 64] & (1 << UInt64(index % 64)) != 0
    }

    mutating func insert(_ index: Int) {
        if index < 64 { low |= 1 << UInt64(index) } else { high[(index - 64) / 64] |= 1 << UInt64(index % 64) }
    }

    /// Removes every index at or above `start`.
    mutating func removeAll(from start: Int) {
        for index in start..<(64 + high.count * 64) where contains(index) {
            if index < 64 {
                low &= ~(1 << UInt64(index))
            } else {
                high[(index - 64) / 64] &= ~(1 << UInt64(index % 64))
            }
        }
    }
}
