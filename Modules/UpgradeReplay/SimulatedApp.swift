import Foundation
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

/// An app made of scripted steps, an optional floor and a policy, in one or more builds: the one
/// place where the simulator launches the UpgradeCore engine.
///
/// A launch at version C runs the build of C: the steps (and the floor) whose `since <= C <= until`,
/// through an `Upgrader` made for that build. `run` (in memory and with `--processes`), `launch`,
/// `plan` and `explore` all launch through `launch(at:store:mode:)`, so they share one model of a
/// scripted app and the engine's own rules.
///
/// ```swift
/// let app = fixture.app
/// let store = InMemoryUpgradeStore()
/// let first = try await app.launch(at: "1.0", store: store)      // freshInstall
/// let second = try await app.launch(at: "2.0", store: store)     // upgraded, ran [...]
/// ```
public struct SimulatedApp: Sendable {
    /// The scripted steps of every build, in registration order.
    package let steps: [ScriptedStep]
    /// The floor, in the builds between its `since` and `until`; `nil` when the app has none.
    package let floor: ScriptedStep?
    /// The policy of every launch.
    package let policy: UpgradePolicy
    /// Which steps each build has.
    package let releases: Releases
    /// The engine's steps of each build, made once: each action looks up the running launch's probe.
    private let buildSteps: [[UpgradeStep]]

    /// Creates an app.
    ///
    /// - Parameters:
    ///   - steps: The scripted steps of every build, in registration order; ids must be unique.
    ///   - floor: The floor, if any; its id must differ from every step's.
    ///   - policy: The policy of every launch.
    public init(steps: [ScriptedStep], floor: ScriptedStep? = nil, policy: UpgradePolicy = UpgradePolicy()) {
        self.steps = steps
        self.floor = floor
        self.policy = policy
        let releases = Releases(steps: steps, floor: floor)
        self.releases = releases
        buildSteps = releases.builds.map { build in
            FloorAdapter.engineSteps(build: build, steps: steps, floor: floor) { step in
                { (context: UpgradeContext) in try await LaunchProbe.perform(step, context) }
            }
        }
    }

    /// The scripted steps of the build of app version `version`, the floor first when it has one:
    /// the steps a launch at that version registers.
    ///
    /// - Parameter version: The running version.
    /// - Returns: The steps, in registration order.
    package func build(at version: Version) -> [ScriptedStep] {
        let build = releases.builds[releases.build(at: version)]
        return (build.hasFloor ? floor.map { [$0] } ?? [] : []) + build.steps.map { steps[$0] }
    }

    /// Whether the build of app version `version` has the floor.
    ///
    /// - Parameter version: The running version.
    /// - Returns: `true` when the app has a floor and that build contains it.
    package func hasFloor(at version: Version) -> Bool { releases.builds[releases.build(at: version)].hasFloor }

    /// An upgrader with the steps of the build of app version `version` and this app's policy over a
    /// store, as a launch at that version makes; for plans and other read-only questions.
    ///
    /// - Parameters:
    ///   - store: The store.
    ///   - version: The running version, which chooses the build.
    /// - Returns: The upgrader.
    package func makeUpgrader(store: any UpgradeStore, at version: Version) -> Upgrader {
        makeUpgrader(store: store, build: releases.build(at: version))
    }

    /// What the build of app version `version` is, for a plan: whether it has the floor, and each step
    /// of the app's other builds that it lacks, with what `state` still records of it (such a step is
    /// never run by this build; rules 0, 2 and 5 treat its entries as any other).
    ///
    /// - Parameters:
    ///   - version: The running version.
    ///   - state: The stored state, if any.
    /// - Returns: Lines such as `floor: upgradeFloor_2_0 (2.0), runs before every other pending step` and
    ///   `  reindex (2.0, until 2.0): the state records 2 failed attempts, the last interrupted`;
    ///   empty for an app with one build and no floor.
    package func buildSummary(at version: Version, state: UpgradeState?) -> [String] {
        guard floor != nil || releases.builds.count > 1 else { return [] }
        var lines: [String] = []
        if let floor {
            if hasFloor(at: version) {
                lines.append(
                    "floor: \(floor.id) (\(floor.version)) is in the build of \(version): it stands in for every"
                        + " retired step at or below \(floor.version) and runs before every other pending step")
            } else {
                lines.append("floor: the build of \(version) has none (\(floor.id) is in \(floor.buildRange))")
            }
        }
        let build = Set(self.build(at: version).map(\.id))
        let lacking = steps.filter { !build.contains($0.id) }
        guard !lacking.isEmpty else {
            lines.append("every step of the fixture is in the build of \(version)")
            return lines
        }
        lines.append("not in the build of \(version), so never run by it:")
        for step in lacking {
            var line = "  \(step.id) (\(step.version), \(step.buildRange))"
            var records: [String] = []
            if let state {
                if state.isCompleted(step.id) { records.append("completed") }
                if state.isAbandoned(step.id) { records.append("abandoned") }
                let failed = state.failedAttempts(of: step.id)
                if failed > 0 {
                    records.append(
                        "\(failed) failed attempt\(failed == 1 ? "" : "s")"
                            + (state.lastAttemptInterrupted(of: step.id) ? ", the last interrupted" : ""))
                }
                if let running = state.inProgress, running.id == step.id {
                    records.append("in progress (attempt \(running.attempt): the last process died in it)")
                }
            }
            if !records.isEmpty { line += ": the state records it as " + records.joined(separator: "; ") }
            lines.append(line)
        }
        return lines
    }

    /// An upgrader with the steps of a build, by its index in ``Releases/builds``.
    func makeUpgrader(store: any UpgradeStore, build: Int) -> Upgrader {
        let steps = buildSteps[build]
        return Upgrader(store: store, policy: policy) { steps }
    }

    /// Performs one launch at `version` through the real engine and says what it did.
    ///
    /// Each step's action picks its result from its behaviour for `context.attempt`: `ok` returns,
    /// `fail` throws, `crash` ends the launch as `mode` says. A simulated crash leaves the store as
    /// the dead process would: to continue, launch next with a new `InMemoryUpgradeStore` seeded
    /// with this one's `state`.
    ///
    /// - Parameters:
    ///   - version: The version of the app that is launching.
    ///   - store: The store; an `InMemoryUpgradeStore` in ``CrashMode/simulated`` mode.
    ///   - mode: How a scripted crash ends the launch; simulated by default.
    /// - Returns: The launch's outcome, the steps it ran, finished and abandoned, and the mark after it.
    /// - Throws: `SimulationError` when a simulated crash is asked of another kind of store or the
    ///   journal or trace cannot be opened; `UpgradeError` for duplicate step ids; the store's error
    ///   when it cannot be read or written; `CancellationError` when the task was cancelled.
    package func launch(at version: Version, store: any UpgradeStore, mode: CrashMode) async throws
        -> LaunchObservation
    {
        try await launch(at: version, store: store, mode: mode, role: .app)
    }

    /// Performs one launch at `version` in memory through the real engine and says what it did.
    ///
    /// A scripted crash leaves the store as the dead process would (its `processDied` is then
    /// true): to continue, launch next with a new `InMemoryUpgradeStore` seeded with this one's
    /// `state`.
    ///
    /// - Parameters:
    ///   - version: The version of the app that is launching.
    ///   - store: The store the launch reads and writes.
    /// - Returns: The launch's outcome, the steps it ran, finished and abandoned, and the mark after it.
    /// - Throws: `UpgradeError` for duplicate step ids; `CancellationError` when the task was cancelled.
    public func launch(at version: Version, store: InMemoryUpgradeStore) async throws -> LaunchObservation {
        try await launch(at: version, store: store, mode: .simulated, role: .app)
    }

    /// Performs one launch at `version` in the given role through the real engine and says what it
    /// did: as `launch(at:store:mode:)` does for the app; a follower launch only reads the store
    /// and ends `upToDate`, `downgraded` or `deferred`, running nothing and writing nothing.
    ///
    /// - Parameters:
    ///   - version: The version of the app that is launching.
    ///   - store: The store; an `InMemoryUpgradeStore` in ``CrashMode/simulated`` mode.
    ///   - mode: How a scripted crash ends the launch.
    ///   - role: `app`, or `follower` for an app extension's launch.
    /// - Returns: The launch's outcome, the steps it ran, finished and abandoned, and the mark after it.
    /// - Throws: What `launch(at:store:mode:)` throws.
    ///   - condition: The device's condition (<doc:/UpgradeFixtures/UpgradeFixtures>, "The device's conditions"):
    ///     `locked` makes an `InMemoryUpgradeStore` report protected data unavailable for this launch
    ///     (any other store must be made so by the caller, as `upgrade-sim launch --locked` does);
    ///     `expire ID` interrupts the launch as an expiry handler would while step ID runs
    ///     (`Upgrader.interruptLaunch()`), then kills the process as `mode` says (in memory, the
    ///     store's simulated death): the launch ends `cancelled`. `nil` by default.
    ///   - legacy: The naive pattern's version under a legacy key (a history's `legacyVersion`): the
    ///     launch reads `store` through a `LegacyVersionAdopter` of it, and its observation's
    ///     `adoptedFrom` says whether it adopted the version. `nil` by default.
    package func launch(
        at version: Version, store: any UpgradeStore, mode: CrashMode, role: LaunchRole,
        condition: LaunchCondition? = nil, legacy: LegacyKey? = nil
    ) async throws -> LaunchObservation {
        let memoryStore = store as? InMemoryUpgradeStore
        if mode == .simulated && memoryStore == nil {
            throw SimulationError(
                "a simulated crash needs an InMemoryUpgradeStore, not \(type(of: store)); use CrashMode.realProcess")
        }
        var upgrader = makeUpgrader(store: try legacy?.adopter(over: store) ?? store, at: version)
        upgrader.observer = LaunchProbe.observe
        if condition == .locked, let memoryStore {
            memoryStore.protectedDataAvailable = false
            defer { memoryStore.protectedDataAvailable = true }
            return try await launch(
                at: version, with: upgrader, mode: mode, memoryStore: memoryStore, role: role, legacy: legacy)
        }
        return try await launch(
            at: version, with: upgrader, mode: mode, memoryStore: memoryStore, role: role, condition: condition,
            legacy: legacy)
    }

    /// One launch through a prepared upgrader (whose observer is `LaunchProbe.observe`); with
    /// `legacy`, its store is the adopter of that key.
    func launch(
        at version: Version, with upgrader: Upgrader, mode: CrashMode, memoryStore: InMemoryUpgradeStore?,
        role: LaunchRole = .app, condition: LaunchCondition? = nil, legacy: LegacyKey? = nil
    ) async throws -> LaunchObservation {
        let store = upgrader.store
        // Whether the state is missing, so that a launch that writes one has adopted the legacy version.
        var unadopted = false
        if legacy != nil, role == .app, condition != .locked, memoryStore?.protectedDataAvailable != false {
            unadopted = try store.loadWithoutAdopting() == nil
        }
        var expiring: String?
        if case .expire(let id)? = condition { expiring = id }
        let probe = try LaunchProbe(
            mode: mode, memoryStore: memoryStore, expiring: expiring, interrupt: { upgrader.interruptLaunch() })
        var report: UpgradeReport?
        do {
            report = try await LaunchProbe.$current.withValue(probe) {
                try await upgrader.run(currentVersion: version, role: role)
            }
        } catch {
            // After a simulated crash or expiry the engine's next write fails, as it would in the dead
            // process.
            guard probe.crashed || probe.expired else { throw error }
        }
        if probe.expiryMissed, let expiring {
            throw SimulationError("the expiry of \(expiring) found no launch running")
        }
        if probe.crashed || probe.expired {
            // The dead process wrote the state it started from: adopted, when none was stored before.
            let left = try store.loadWithoutAdopting()
            return LaunchObservation(
                outcome: probe.expired ? .cancelled : .crashed, ran: probe.ran, abandoned: probe.abandoned,
                upgradedThrough: left?.upgradedThrough, finished: probe.finished,
                adoptedFrom: unadopted && left != nil ? legacy?.version : nil)
        }
        guard let report, let outcome = SimulatedOutcome(report.outcome) else { throw CancellationError() }
        return LaunchObservation(
            outcome: outcome, ran: probe.ran, abandoned: probe.abandoned, upgradedThrough: report.upgradedThrough,
            finished: probe.finished, deferral: report.deferral.map(LaunchObservation.words(for:)),
            adoptedFrom: legacy.flatMap { $0.adopted(in: report) ? $0.version : nil })
    }
}
