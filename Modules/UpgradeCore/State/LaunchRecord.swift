import VersionKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One launch in the diagnostic history that a store keeps beside the state
/// (``UpgradeStore/history()``).
///
/// Each launch that writes the state adds one record, with its last write; a launch that changes
/// nothing records nothing. No launch rule reads the history, and it is not covered by the state's
/// durability guarantees: a crash or a power cut may lose some or all of it.
public struct LaunchRecord: Sendable, Hashable, CustomStringConvertible {
    /// How many records a store keeps, the newest last.
    public static let historyLimit = 50

    /// What became of one step in a recorded launch.
    public struct RecordedStep: Sendable, Hashable {
        /// The step's id.
        public var id: String
        /// The attempt number, from 1; 0 for a step abandoned without being run.
        public var attempt: Int
        /// What happened.
        public var result: StepReport.Result.Kind
        /// Whether the step was abandoned in this launch.
        public var abandoned: Bool
        /// How long the action ran, in milliseconds; a launch records it to the microsecond.
        public var milliseconds: Double

        /// Creates a record of a step.
        ///
        /// - Parameters:
        ///   - id: The step's id.
        ///   - attempt: The attempt number.
        ///   - result: What happened.
        ///   - abandoned: Whether it was abandoned in this launch.
        ///   - milliseconds: How long the action ran.
        public init(id: String, attempt: Int, result: StepReport.Result.Kind, abandoned: Bool, milliseconds: Double) {
            self.id = id
            self.attempt = attempt
            self.result = result
            self.abandoned = abandoned
            self.milliseconds = milliseconds
        }
    }

    /// When the launch started, in seconds since 1970 (UTC); a launch records it to the millisecond.
    public var time: Double
    /// The app version of the launch before, or `nil` on a fresh install.
    public var from: Version?
    /// The app version of this launch.
    public var to: Version
    /// How the launch ended.
    public var outcome: UpgradeOutcome
    /// The steps the launch ran or abandoned, in order.
    public var steps: [RecordedStep]

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - time: When the launch started, in seconds since 1970.
    ///   - from: The app version of the launch before.
    ///   - to: The app version of this launch.
    ///   - outcome: How it ended.
    ///   - steps: The steps it ran or abandoned.
    public init(time: Double, from: Version?, to: Version, outcome: UpgradeOutcome, steps: [RecordedStep]) {
        self.time = time
        self.from = from
        self.to = to
        self.outcome = outcome
        self.steps = steps
    }

    /// When the launch started.
    public var date: Date { Date(timeIntervalSince1970: time) }

    /// The launch as one line, such as `2026-12-01T09:30:00Z 1.0 -> 2.0 upgraded: appUpgradeTo_1_1
    /// (attempt 1, completed, 3.2 ms), move-settings (attempt 2, failed, abandoned, 40 ms)`.
    public var description: String {
        var text = "\(date.ISO8601Format()) \(from.map { "\($0)" } ?? "(fresh install)") -> \(to) \(outcome)"
        guard !steps.isEmpty else { return text }
        text += ": "
        text += steps.map { step in
            var parts = ["attempt \(step.attempt)", step.result.rawValue]
            if step.abandoned { parts.append("abandoned") }
            if step.result != .notRun {
                // Whole milliseconds, or tenths below 10 ms.
                let tenths = (step.milliseconds * 10).rounded() / 10
                parts.append(tenths >= 10 ? "\(Int(tenths.rounded())) ms" : "\(tenths) ms")
            }
            return "\(step.id) (\(parts.joined(separator: ", ")))"
        }.joined(separator: ", ")
        return text
    }
}
