import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

/// How a scripted crash ends a launch.
public enum CrashMode: Sendable, Hashable {
    /// In memory: the crashing action calls `InMemoryUpgradeStore.simulateProcessDeath()` on the
    /// launch's store and throws, so the engine's next write fails and the stored state stays exactly
    /// as the process left it. The store must be an `InMemoryUpgradeStore`. `durationMs` is ignored.
    case simulated
    /// In a real process: the crashing action flushes standard output and sends `SIGKILL` to its own
    /// process, which ends at once. Each action first sleeps for its step's `durationMs`.
    ///
    /// With a `journal`, each step that finishes appends the line `ID ATTEMPT` to that file and
    /// flushes it to disk before the step returns. With a `trace` (used by `run --processes` to see
    /// inside a launch that dies), each step appends `ran ATTEMPT ID` when it starts and
    /// `finished ATTEMPT ID` when it finishes, and each abandoned step `abandoned 0 ID`, tab-separated.
    case realProcess(journal: URL? = nil, trace: URL? = nil)
}

/// An app made of scripted steps and a policy: the one place where the simulator launches the
/// UpgradeCore engine.
///
/// `run` (in memory and with `--processes`), `launch`, `plan` and `explore` all launch through
/// ``launch(at:store:mode:)``, so they share one model of a scripted app and the engine's own rules.
///
/// ```swift
/// let app = fixture.app
/// let store = InMemoryUpgradeStore()
/// let first = try await app.launch(at: "1.0", store: store)      // freshInstall
/// let second = try await app.launch(at: "2.0", store: store)     // upgraded, ran [...]
/// ```
public struct SimulatedApp: Sendable {
    /// The scripted steps, in registration order.
    public let steps: [ScriptedStep]
    /// The policy of every launch.
    public let policy: UpgradePolicy
    /// The engine's steps, made once: each action looks up the running launch's probe.
    private let upgradeSteps: [UpgradeStep]

    /// Creates an app.
    ///
    /// - Parameters:
    ///   - steps: The scripted steps, in registration order; ids must be unique.
    ///   - policy: The policy of every launch.
    public init(steps: [ScriptedStep], policy: UpgradePolicy = UpgradePolicy()) {
        self.steps = steps
        self.policy = policy
        upgradeSteps = steps.map { step in
            UpgradeStep(step.version, id: step.id) { (context: UpgradeContext) in
                try await LaunchProbe.perform(step, context)
            }
        }
    }

    /// An upgrader with this app's steps and policy over a store, as each launch makes; for plans
    /// and other read-only questions.
    ///
    /// - Parameter store: The store.
    /// - Returns: The upgrader.
    public func makeUpgrader(store: any UpgradeStore) -> Upgrader {
        Upgrader(store: store, policy: policy) { upgradeSteps }
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
    /// - Throws: ``SimulationError`` when a simulated crash is asked of another kind of store or the
    ///   journal or trace cannot be opened; `UpgradeError` for duplicate step ids; the store's error
    ///   when it cannot be read or written; `CancellationError` when the task was cancelled.
    public func launch(at version: Version, store: any UpgradeStore, mode: CrashMode = .simulated) async throws
        -> LaunchObservation
    {
        let memoryStore = store as? InMemoryUpgradeStore
        if mode == .simulated && memoryStore == nil {
            throw SimulationError(
                "a simulated crash needs an InMemoryUpgradeStore, not \(type(of: store)); use CrashMode.realProcess")
        }
        var upgrader = makeUpgrader(store: store)
        upgrader.observer = LaunchProbe.observe
        return try await launch(at: version, with: upgrader, mode: mode, memoryStore: memoryStore)
    }

    /// One launch through a prepared upgrader (whose observer is `LaunchProbe.observe`).
    func launch(
        at version: Version, with upgrader: Upgrader, mode: CrashMode, memoryStore: InMemoryUpgradeStore?
    ) async throws -> LaunchObservation {
        let store = upgrader.store
        let probe = try LaunchProbe(mode: mode, memoryStore: memoryStore)
        var report: UpgradeReport?
        do {
            report = try await LaunchProbe.$current.withValue(probe) {
                try await upgrader.run(currentVersion: version)
            }
        } catch {
            // After a simulated crash the engine's next write fails, as it would in the dead process.
            guard probe.crashed else { throw error }
        }
        if probe.crashed {
            return LaunchObservation(
                outcome: .crashed, ran: probe.ran, abandoned: probe.abandoned,
                upgradedThrough: try store.load()?.upgradedThrough, finished: probe.finished)
        }
        guard let report, let outcome = LaunchOutcome(report.outcome) else { throw CancellationError() }
        return LaunchObservation(
            outcome: outcome, ran: probe.ran, abandoned: probe.abandoned, upgradedThrough: report.upgradedThrough,
            finished: probe.finished)
    }
}

/// Launches a simulated app in memory again and again, each time from a chosen state, reusing one
/// store and one upgrader: for walks that branch, such as `explore`. Use it from one task at a time.
public final class InMemoryLauncher {
    /// The app launched.
    public let app: SimulatedApp
    private let store = InMemoryUpgradeStore()
    private let upgrader: Upgrader

    /// Prepares the launcher.
    ///
    /// - Parameter app: The app to launch.
    public init(app: SimulatedApp) {
        self.app = app
        var upgrader = app.makeUpgrader(store: store)
        upgrader.observer = LaunchProbe.observe
        self.upgrader = upgrader
    }

    /// Performs one launch from a given state and returns what it did and the state it left (for a
    /// crash: as the dead process left it).
    ///
    /// - Parameters:
    ///   - version: The version of the app that is launching.
    ///   - state: The stored state before the launch; `nil` for a fresh install.
    /// - Returns: The observation and the stored state after the launch.
    /// - Throws: An engine error other than a simulated crash.
    public func launch(at version: Version, from state: UpgradeState?) async throws -> (
        observation: LaunchObservation, state: UpgradeState?
    ) {
        store.reset(to: state)
        let observation = try await app.launch(at: version, with: upgrader, mode: .simulated, memoryStore: store)
        return (observation, store.state)
    }
}

/// The failure a scripted step throws for a `fail` attempt.
public struct ScriptedFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step's id.
    public var stepID: String
    /// The attempt that failed.
    public var attempt: Int

    /// `scripted failure of ID (attempt K)`.
    public var description: String { "scripted failure of \(stepID) (attempt \(attempt))" }
}

/// The error a scripted step throws for a `crash` attempt in simulated mode, after the store was
/// told that the process died.
public struct SimulatedCrash: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step's id.
    public var stepID: String
    /// The attempt that crashed.
    public var attempt: Int

    /// `simulated crash in ID (attempt K)`.
    public var description: String { "simulated crash in \(stepID) (attempt \(attempt))" }
}
