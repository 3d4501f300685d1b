import UpgradeCore
import UpgradeStorage
import VersionKit

/// What one launch did, by run index in an ``ExplorationCatalog``: the walk's own form of a
/// ``LaunchObservation``, made into one only when a violation is reported.
struct IndexedObservation {
    var outcome: LaunchOutcome
    /// The run indices of the steps started, in order.
    var ran: [Int]
    /// The run indices of the steps abandoned, in order.
    var abandoned: [Int]
    /// The run indices of the steps that finished, in order.
    var finished: [Int]
    var upgradedThrough: Version?

    init(
        outcome: LaunchOutcome, ran: [Int] = [], abandoned: [Int] = [], finished: [Int] = [], upgradedThrough: Version?
    ) {
        self.outcome = outcome
        self.ran = ran
        self.abandoned = abandoned
        self.finished = finished
        self.upgradedThrough = upgradedThrough
    }

    /// The observation by index; ids the catalog does not know are left out.
    init(_ observation: LaunchObservation, catalog: ExplorationCatalog) {
        self.init(
            outcome: observation.outcome, ran: observation.ran.compactMap(catalog.index(of:)),
            abandoned: observation.abandoned.compactMap(catalog.index(of:)),
            finished: observation.finished.compactMap(catalog.index(of:)), upgradedThrough: observation.upgradedThrough)
    }

    /// The public observation, with step ids.
    func observation(catalog: ExplorationCatalog) -> LaunchObservation {
        LaunchObservation(
            outcome: outcome, ran: ran.map { catalog.ids[$0] }, abandoned: abandoned.map { catalog.ids[$0] },
            upgradedThrough: upgradedThrough, finished: finished.map { catalog.ids[$0] })
    }
}

/// Launches a simulated app in memory from chosen states, for the explorer's walk: through
/// UpgradeCore's own launch rules (`Upgrader.launchInMemory`, which drives the same preparation and
/// launch machine as `Upgrader.run`), synchronously and without a store, with the scripted
/// behaviours applied as ``LaunchProbe`` applies them in simulated-crash mode. Use it from one task
/// at a time.
final class ExplorationLauncher {
    let catalog: ExplorationCatalog
    private let upgrader: Upgrader
    /// The scripted behaviour of each step, by the upgrader's catalog index.
    private let behaviors: [StepBehavior]
    /// The explorer's run index of each step, by the upgrader's catalog index.
    private let runIndices: [Int]
    private var launch = Upgrader.InMemoryLaunch()
    /// Whether the last launch wrote the state.
    private(set) var wrote = false

    /// Prepares the launcher for an app's steps and policy.
    init(app: SimulatedApp, catalog: ExplorationCatalog) {
        self.catalog = catalog
        let steps = app.steps.map { step in
            UpgradeStep(step.version, id: step.id) { (_: UpgradeContext) in }
        }
        upgrader = Upgrader(store: InMemoryUpgradeStore(), policy: app.policy) { steps }
        let byID = Dictionary(app.steps.map { ($0.id, $0.behavior) }, uniquingKeysWith: { first, _ in first })
        behaviors = upgrader.steps.map { byID[$0.id] ?? .succeed }
        runIndices = upgrader.steps.map { catalog.index(of: $0.id) ?? -1 }
        launch.ran.reserveCapacity(catalog.count)
        launch.finished.reserveCapacity(catalog.count)
        launch.abandoned.reserveCapacity(catalog.count)
    }

    /// Performs one launch from a given state, and says what it did in `observation`.
    ///
    /// - Returns: The stored state after the launch (for a crash: as the dead process left it), or
    ///   `nil` when the launch wrote nothing (``wrote`` is `false`) and `state` stands as it was.
    /// - Throws: An engine error (a configuration mistake).
    func launch(at version: Version, from state: UpgradeState?, into observation: inout IndexedObservation) throws
        -> UpgradeState?
    {
        let behaviors = behaviors
        let stored = try upgrader.launchInMemory(state: state, at: version, into: &launch) { index, context in
            switch behaviors[index].result(forAttempt: context.attempt) {
            case .ok: .ok
            case .fail: .fail
            case .crash: .crash
            }
        }
        if let outcome = launch.outcome {
            guard let known = LaunchOutcome(outcome) else { throw CancellationError() }
            observation.outcome = known
        } else {
            observation.outcome = .crashed
        }
        observation.upgradedThrough = launch.upgradedThrough
        wrote = launch.wrote
        observation.ran.clearKeepingCapacity()
        observation.finished.clearKeepingCapacity()
        observation.abandoned.clearKeepingCapacity()
        for index in launch.ran { observation.ran.append(runIndices[index]) }
        for index in launch.finished { observation.finished.append(runIndices[index]) }
        for index in launch.abandoned { observation.abandoned.append(runIndices[index]) }
        return stored
    }
}
