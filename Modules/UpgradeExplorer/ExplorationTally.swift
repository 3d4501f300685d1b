import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import VersionKit

/// What both explore drivers (the bounded walk, `DepthWalk`, and the search to a fixpoint,
/// ``FixpointSearch``) count and keep as they launch: how many launches broke each guarantee or
/// made each kind of finding, and the shortest history of each broken guarantee and of each
/// finding (by kind and step). It also builds the ``ExplorationResult`` from them.
struct ExplorationTally {
    /// A history kept as a counterexample: its launches, what each did, and (for a history replayed
    /// from a fresh install) what its last launch broke and found, which must include what the
    /// driver saw.
    struct History {
        var launches: [Version]
        /// The device's condition at some launches, by position.
        var conditions: [Int: LaunchCondition]
        /// What each launch did.
        var observations: [LaunchObservation]
        /// What the last launch broke, when the history was replayed to confirm it; `nil` when the
        /// driver launched this very history.
        var broken: Set<Guarantee>?
        /// What the last launch found (kind and run index), as ``broken``.
        var findings: [(FindingKind, Int)]?

        /// The history in words.
        var text: String { LaunchCondition.history(launches, conditions: conditions) }
    }

    let catalog: ExplorationCatalog
    /// The findings kinds `--allow` accepts.
    let allowed: Set<FindingKind>

    private(set) var shortest: [Guarantee: Violation] = [:]
    private(set) var violatingLaunches: [Guarantee: Int] = [:]
    /// The shortest history of each finding, by kind and step: `kind * catalog.count + run index`.
    private(set) var shortestFindings: [Int: Finding] = [:]
    private(set) var findingLaunches: [FindingKind: Int] = [:]

    init(catalog: ExplorationCatalog, allowed: Set<FindingKind>) {
        self.catalog = catalog
        self.allowed = allowed
    }

    /// Counts one launch's broken guarantees and findings, and keeps the history of each that is
    /// shorter than any known.
    ///
    /// - Parameters:
    ///   - broken: The guarantees the launch broke, each with how.
    ///   - findings: The findings it made: kind, run index and sentence.
    ///   - length: The launches of the history it ends.
    ///   - policy: The policy it ran under.
    ///   - history: The history it ends; called at most once, and only when one is kept.
    mutating func count(
        _ broken: [(Guarantee, String)], _ findings: [(FindingKind, Int, String)], length: Int,
        policy: UpgradePolicy, history: () throws -> History
    ) rethrows {
        var kept: History?
        var counted: Set<Guarantee> = []
        for (guarantee, detail) in broken {
            if counted.insert(guarantee).inserted { violatingLaunches[guarantee, default: 0] += 1 }
            if let known = shortest[guarantee], known.launches.count <= length { continue }
            if kept == nil { kept = try history() }
            let history = kept!
            Self.confirm(history.broken?.contains(guarantee) ?? true, guarantee.rawValue, history.text)
            shortest[guarantee] = Violation(
                guarantee: guarantee, detail: detail, policy: policy, launches: history.launches,
                observations: history.observations, conditions: history.conditions)
        }
        var countedKinds: Set<FindingKind> = []
        for (kind, index, detail) in findings {
            if countedKinds.insert(kind).inserted { findingLaunches[kind, default: 0] += 1 }
            let key = (kind == .late ? 0 : catalog.count) + index
            if let known = shortestFindings[key], known.launches.count <= length { continue }
            if kept == nil { kept = try history() }
            let history = kept!
            Self.confirm(
                history.findings?.contains { $0.0 == kind && $0.1 == index } ?? true, "\(kind) \(catalog.ids[index])",
                history.text)
            shortestFindings[key] = Finding(
                kind: kind, stepID: catalog.ids[index], stepVersion: catalog.versions[index],
                allowed: allowed.contains(kind) || catalog.allowed[index].contains(kind), detail: detail,
                policy: policy, launches: history.launches, observations: history.observations,
                conditions: history.conditions)
        }
    }

    /// Stops when a counterexample, replayed from a fresh install with the real attempt numbers, does
    /// not end as the search saw it end: the state key or the attempt cut-off would have merged states
    /// that behave differently, and the search would not be sound.
    private static func confirm(_ holds: Bool, _ shown: @autoclosure () -> String, _ launches: String) {
        precondition(
            holds,
            "explore: the history \(launches), replayed from a fresh install, does not show \(shown()) as the search"
                + " to a fixpoint saw it")
    }

    /// The result of an exploration that kept this tally.
    ///
    /// - Parameters:
    ///   - launches: The launches simulated (for a search to a fixpoint, its transitions).
    ///   - histories: The histories checked by a bounded walk; 0 for a search to a fixpoint.
    ///   - launchesWithoutSharing: What replaying each history from scratch would take; 0 for a
    ///     search to a fixpoint.
    ///   - stateSpace: What a search to a fixpoint covered; `nil` for a bounded walk.
    func result(
        fixture: Fixture, options: ExplorationOptions, versions: [Version], policies: [UpgradePolicy], histories: Int,
        launches: Int, launchesWithoutSharing: Int, duration: Duration, stateSpace: StateSpace?
    ) -> ExplorationResult {
        ExplorationResult(
            fixture: fixture, options: options, versions: versions, policies: policies, histories: histories,
            launches: launches, launchesWithoutSharing: launchesWithoutSharing, duration: duration,
            violations: Guarantee.allCases.compactMap { shortest[$0] }, violatingLaunches: violatingLaunches,
            findings: shortestFindings.sorted { $0.key < $1.key }.map(\.value), findingLaunches: findingLaunches,
            stateSpace: stateSpace)
    }
}
