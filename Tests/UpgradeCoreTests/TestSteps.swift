import Foundation
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// What a scripted action does on one attempt.
enum Act: Sendable, Equatable {
    /// Finishes.
    case ok
    /// Throws ``StepFailure``.
    case fail
    /// Kills the simulated process: the store dies, then the action throws ``SimulatedCrashError``.
    case crash
}

/// The error a scripted action throws for ``Act/fail``.
struct StepFailure: Error, Equatable {
    let stepID: String
    let attempt: Int
}

/// The error a scripted action throws after killing the simulated process.
struct SimulatedCrashError: Error {}

/// Records every start of a scripted action, in order, across launches.
final class Journal: Sendable {
    struct Entry: Sendable {
        /// The step.
        let id: String
        /// The context's attempt number.
        let attempt: Int
        /// The context's `previousAttemptInterrupted`.
        let interrupted: Bool
        /// What the store held when the action started.
        let stored: UpgradeState?
        /// What the action did.
        let act: Act
    }

    private let recorded = Locked<[Entry]>([])

    var entries: [Entry] { recorded.value }

    /// The ids of the actions started, in order.
    var ids: [String] { entries.map(\.id) }

    /// Forgets what was recorded.
    func reset() { recorded.value = [] }

    func record(_ entry: Entry) { recorded.append(entry) }

    /// A step whose action follows `script` (attempt k follows entry k, the last entry repeats) and
    /// records each start here.
    func step(
        _ version: Version, id: String? = nil, store: RecordingStore? = nil, script: [Act] = [.ok],
        fileID: String = #fileID, line: Int = #line
    ) -> UpgradeStep {
        UpgradeStep(version, id: id, fileID: fileID, line: line) { [self] (context: UpgradeContext) in
            let act = script[min(context.attempt, script.count) - 1]
            record(
                Entry(
                    id: context.stepID, attempt: context.attempt, interrupted: context.previousAttemptInterrupted,
                    stored: store?.state, act: act))
            switch act {
            case .ok: return
            case .fail: throw StepFailure(stepID: context.stepID, attempt: context.attempt)
            case .crash:
                store?.die()
                throw SimulatedCrashError()
            }
        }
    }
}

/// Collects the events an upgrader delivers, rendered as short lines.
final class EventLog: Sendable {
    private let recorded = Locked<[UpgradeEvent]>([])

    var observer: UpgradeObserver { { [recorded] event in recorded.append(event) } }

    var events: [UpgradeEvent] { recorded.value }

    var lines: [String] { events.map(Self.line) }

    func reset() { recorded.value = [] }

    static func line(_ event: UpgradeEvent) -> String {
        switch event {
        case .launchWillStart(let current, let mark):
            "launchWillStart \(current) mark \(mark.map { "\($0)" } ?? "nil")"
        case .stepWillStart(let context):
            "willStart \(context.stepID) #\(context.attempt)\(context.previousAttemptInterrupted ? " interrupted" : "")"
        case .stepFinished(let context, _):
            "finished \(context.stepID) #\(context.attempt)"
        case .stepFailed(let context, _, _, let willRetry):
            "failed \(context.stepID) #\(context.attempt)\(willRetry ? " willRetry" : "")"
        case .stepAbandoned(let id, _, let failed):
            "abandoned \(id) after \(failed)"
        case .launchFinished(let report):
            "launchFinished \(report.outcome)"
        case .launchAborted(let error, let report):
            "launchAborted \(report.outcome) \(error)"
        }
    }
}

/// The time every test upgrader records in its history, so that reports are reproducible.
let fixedDate = Date(timeIntervalSince1970: 1_800_000_000)

/// An upgrader over `store` with a stepping clock, a fixed date and `events` as observer.
func makeUpgrader(
    store: RecordingStore, policy: UpgradePolicy = UpgradePolicy(), events: EventLog? = nil,
    clock: SteppingClock = SteppingClock(), steps: [UpgradeStep]
) -> Upgrader {
    var upgrader = Upgrader(store: store, policy: policy, clock: clock) { steps }
    upgrader.observer = events?.observer
    upgrader.now = { fixedDate }
    return upgrader
}

extension UpgradeState {
    /// The ids of the registered `steps` this state counts as done: at or below the mark,
    /// completed, or abandoned.
    func doneIDs(of steps: [UpgradeStep]) -> Set<String> {
        Set(
            steps.filter { step in
                upgradedThrough.map { step.version <= $0 } ?? false || isCompleted(step.id) || isAbandoned(step.id)
            }.map(\.id))
    }
}

/// A stored state as a launch at `version` would have left it with everything done.
func settledState(at version: Version) -> UpgradeState {
    UpgradeState(upgradedThrough: version, lastLaunched: version)
}
