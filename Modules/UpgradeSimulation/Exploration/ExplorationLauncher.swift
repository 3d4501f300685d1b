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

    /// Copies another observation into this one, reusing this one's buffers.
    mutating func assign(_ other: IndexedObservation) {
        outcome = other.outcome
        upgradedThrough = other.upgradedThrough
        ran.removeAll(keepingCapacity: true)
        ran.append(contentsOf: other.ran)
        abandoned.removeAll(keepingCapacity: true)
        abandoned.append(contentsOf: other.abandoned)
        finished.removeAll(keepingCapacity: true)
        finished.append(contentsOf: other.finished)
    }

    /// The public observation, with step ids.
    func observation(catalog: ExplorationCatalog) -> LaunchObservation {
        LaunchObservation(
            outcome: outcome, ran: ran.map { catalog.ids[$0] }, abandoned: abandoned.map { catalog.ids[$0] },
            upgradedThrough: upgradedThrough, finished: finished.map { catalog.ids[$0] })
    }
}

/// Launches a simulated app in memory from chosen states, as ``InMemoryLauncher`` does, for the
/// explorer's walk: through the same UpgradeCore `Upgrader.run`, but the steps' actions reach the
/// launcher's one probe through a captured reference (no task-local value per launch) and record run
/// indices rather than ids. Use it from one task at a time.
final class ExplorationLauncher {
    /// What the running launch has done so far; reset at each launch.
    final class Probe: @unchecked Sendable {
        let store = InMemoryUpgradeStore()
        let catalog: ExplorationCatalog
        var observation = IndexedObservation(outcome: .upToDate, upgradedThrough: nil)
        var crashed = false

        init(catalog: ExplorationCatalog) {
            self.catalog = catalog
            observation.ran.reserveCapacity(catalog.count)
            observation.finished.reserveCapacity(catalog.count)
            observation.abandoned.reserveCapacity(catalog.count)
        }

        func reset(to state: UpgradeState?) {
            store.reset(to: state)
            observation.ran.removeAll(keepingCapacity: true)
            observation.finished.removeAll(keepingCapacity: true)
            observation.abandoned.removeAll(keepingCapacity: true)
            crashed = false
        }

        /// The action of the scripted step at run index `index`, as ``LaunchProbe`` performs it in
        /// simulated-crash mode.
        func perform(_ step: ScriptedStep, index: Int, attempt: Int) throws {
            observation.ran.append(index)
            switch step.behavior.result(forAttempt: attempt) {
            case .ok:
                observation.finished.append(index)
            case .fail:
                throw ScriptedFailure(stepID: step.id, attempt: attempt)
            case .crash:
                crashed = true
                store.simulateProcessDeath()
                throw SimulatedCrash(stepID: step.id, attempt: attempt)
            }
        }
    }

    let catalog: ExplorationCatalog
    private let probe: Probe
    private let upgrader: Upgrader

    /// Prepares the launcher for an app's steps and policy.
    init(app: SimulatedApp, catalog: ExplorationCatalog) {
        self.catalog = catalog
        let probe = Probe(catalog: catalog)
        self.probe = probe
        let steps = app.steps.map { step in
            let index = catalog.index(of: step.id) ?? -1
            return UpgradeStep(step.version, id: step.id) { (context: UpgradeContext) in
                try probe.perform(step, index: index, attempt: context.attempt)
            }
        }
        var upgrader = Upgrader(store: probe.store, policy: app.policy) { steps }
        upgrader.observer = { [probe] event in
            if case .stepAbandoned(let id, _, _) = event, let index = probe.catalog.index(of: id) {
                probe.observation.abandoned.append(index)
            }
        }
        self.upgrader = upgrader
    }

    /// What the last launch did; read it (or copy it out) before the next launch.
    var observation: IndexedObservation { probe.observation }

    /// Performs one launch from a given state; ``observation`` then says what it did.
    ///
    /// - Returns: The stored state after the launch (for a crash: as the dead process left it).
    /// - Throws: An engine error other than a simulated crash.
    func launch(at version: Version, from state: UpgradeState?) async throws -> UpgradeState? {
        probe.reset(to: state)
        var report: UpgradeReport?
        do {
            report = try await upgrader.run(currentVersion: version)
        } catch {
            // After a simulated crash the engine's next write fails, as it would in the dead process.
            guard probe.crashed else { throw error }
        }
        let stored = probe.store.state
        if probe.crashed {
            probe.observation.outcome = .crashed
            probe.observation.upgradedThrough = stored?.upgradedThrough
        } else {
            guard let report, let outcome = LaunchOutcome(report.outcome) else { throw CancellationError() }
            probe.observation.outcome = outcome
            probe.observation.upgradedThrough = report.upgradedThrough
        }
        return stored
    }
}
