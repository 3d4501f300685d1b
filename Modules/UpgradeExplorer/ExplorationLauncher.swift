import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import UpgradeStorage
import VersionKit

/// Launches a simulated app in memory from chosen states, for the explorer's walk: through
/// UpgradeCore's own launch rules (`Upgrader.launchInMemory`, which drives the same preparation and
/// launch machine as `Upgrader.run`), synchronously and without a store, with the scripted
/// behaviours applied as ``LaunchProbe`` applies them in simulated-crash mode. Use it from one task
/// at a time.
final class ExplorationLauncher {
    let catalog: ExplorationCatalog
    /// Which build each version runs.
    let releases: Releases
    /// One upgrader per build, with what its catalog indices mean. A class, so that picking a build
    /// retains one reference rather than copying an upgrader.
    private final class Build {
        let upgrader: Upgrader
        /// The scripted behaviour of each step, by the upgrader's catalog index.
        let behaviors: [StepBehavior]
        /// The explorer's run index of each step, by the upgrader's catalog index.
        let runIndices: [Int]

        init(upgrader: Upgrader, behaviors: [StepBehavior], runIndices: [Int]) {
            self.upgrader = upgrader
            self.behaviors = behaviors
            self.runIndices = runIndices
        }
    }

    private let builds: [Build]
    /// A fault planted around the engine's launch, for the soundness tests; `nil` for the engine as it is.
    private let fault: PlantedFault?
    private var launch = Upgrader.InMemoryLaunch()
    /// Whether the last launch wrote the state.
    private(set) var wrote = false

    /// Prepares the launcher for an app's builds and policy.
    ///
    /// - Parameters:
    ///   - app: The app: its steps, floor, builds and policy.
    ///   - catalog: The explorer's catalog of the same steps.
    ///   - fault: A fault to plant around each launch (the soundness tests); `nil` by default.
    init(app: SimulatedApp, catalog: ExplorationCatalog, fault: PlantedFault? = nil) {
        self.catalog = catalog
        self.fault = fault
        releases = app.releases
        var byID: [String: StepBehavior] = [:]
        for step in app.steps + (app.floor.map { [$0] } ?? []) where byID[step.id] == nil {
            byID[step.id] = step.behavior
        }
        builds = app.releases.builds.map { build in
            let steps = FloorAdapter.engineSteps(build: build, steps: app.steps, floor: app.floor) { _ in
                { (_: UpgradeContext) in }
            }
            let upgrader = Upgrader(store: InMemoryUpgradeStore(), policy: app.policy) { steps }
            return Build(
                upgrader: upgrader, behaviors: upgrader.steps.map { byID[$0.id] ?? .succeed },
                runIndices: upgrader.steps.map { catalog.index(of: $0.id) ?? -1 })
        }
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
        try launch(at: version, build: releases.build(at: version), from: state, into: &observation)
    }

    /// Performs one launch of a given build (the build of `version`, by its index in
    /// ``Releases/builds``), as ``launch(at:from:into:)`` does, under a device condition: `locked`
    /// (protected data unavailable), or the background time expiring in the step at a run index, after
    /// which the process is killed (if the launch reaches that step; otherwise it runs as a plain one).
    func launch(
        at version: Version, build: Int, from state: UpgradeState?, into observation: inout IndexedObservation,
        condition: ExplorationMove.Condition = .plain
    ) throws -> UpgradeState? {
        guard let fault else {
            return try launch(at: version, build: builds[build], from: state, into: &observation, condition: condition)
        }
        // A locked launch reads nothing, so there is nothing for a faulty reading to change.
        if condition == .locked {
            return try launch(at: version, build: builds[build], from: state, into: &observation, condition: condition)
        }
        let (loaded, faulted) = fault.apply(to: state)
        let stored = try launch(
            at: version, build: builds[build], from: loaded, into: &observation, condition: condition)
        guard faulted, stored == nil else { return stored }
        // The faulty engine changed the state as it read it: it writes that state.
        wrote = true
        return loaded
    }

    private func launch(
        at version: Version, build: Build, from state: UpgradeState?, into observation: inout IndexedObservation,
        condition: ExplorationMove.Condition
    ) throws -> UpgradeState? {
        let behaviors = build.behaviors
        var expiring = -1
        if case .expire(let runIndex) = condition { expiring = runIndex }
        let runIndices = build.runIndices
        let stored = try build.upgrader.launchInMemory(
            state: state, at: version, locked: condition == .locked, into: &launch
        ) { index, context in
            if runIndices[index] == expiring { return .expire }
            switch behaviors[index].result(forAttempt: context.attempt) {
            case .ok: return .ok
            case .fail: return .fail
            case .crash: return .crash
            }
        }
        if let outcome = launch.outcome {
            guard let known = SimulatedOutcome(outcome) else { throw CancellationError() }
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
