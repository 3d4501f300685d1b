import VersionKit

/// How far a launch has got: the steps it has handled of those it has pending, and the step it is
/// running now, for a launch screen.
///
/// ``Upgrader/runWithProgress(currentVersion:)`` yields one value when the launch has taken the
/// store's lock and counted its pending steps, one when each step starts, one when each step
/// finishes or is abandoned, and a last one, with the launch's ``report``, when it ends.
public struct UpgradeProgress: Sendable {
    /// A step the launch is running.
    public struct RunningStep: Sendable, Hashable {
        /// The step's id.
        public let id: String
        /// The step's version.
        public let version: Version
        /// The step's summary, as declared; `nil` when it has none.
        public let summary: String?
        /// The attempt being made, from 1.
        public let attempt: Int

        /// Creates a step's description; the upgrader makes these, tests may too.
        ///
        /// - Parameters:
        ///   - id: The step's id.
        ///   - version: The step's version.
        ///   - summary: The step's summary.
        ///   - attempt: The attempt being made, from 1.
        public init(id: String, version: Version, summary: String?, attempt: Int) {
            self.id = id
            self.version = version
            self.summary = summary
            self.attempt = attempt
        }
    }

    /// How many of the pending steps the launch has handled: finished, or abandoned under
    /// ``UpgradePolicy/giveUpAfter``. A step that fails and will be retried is not handled; the
    /// launch stops at it.
    public var handled: Int
    /// How many steps the launch has pending (rule 3 of <doc:LaunchAlgorithm>), counted when it took
    /// the store's lock; 0 for a launch with nothing to do.
    public var total: Int
    /// The step running now; `nil` before the first step, between steps and at the end.
    public var currentStep: RunningStep?
    /// What the launch did, on the last value only; `nil` while it runs.
    public var report: UpgradeReport?

    /// Creates a progress value; the upgrader makes these, tests may too.
    ///
    /// - Parameters:
    ///   - handled: How many pending steps were handled.
    ///   - total: How many steps are pending.
    ///   - currentStep: The step running now.
    ///   - report: The launch's report, when it has ended.
    public init(handled: Int, total: Int, currentStep: RunningStep? = nil, report: UpgradeReport? = nil) {
        self.handled = handled
        self.total = total
        self.currentStep = currentStep
        self.report = report
    }

    /// The part done, from 0 to 1, for a progress bar: ``handled`` over ``total``, and 1 once the
    /// launch has ended or when nothing is pending.
    public var fractionCompleted: Double {
        if report != nil || total <= 0 { return 1 }
        return min(Double(handled) / Double(total), 1)
    }

    /// Whether the launch has ended: ``report`` is set.
    public var isFinished: Bool { report != nil }
}

extension UpgradeProgress: CustomStringConvertible {
    /// One line, such as `1 of 3 steps; running reindex-notes (Rebuild the search index)`, or the
    /// report's first line at the end (its notices, on the lines after it, stay in ``report``).
    public var description: String {
        if let report { return "\(handled) of \(total) steps; \(UpgradeReport.line(report.summary))" }
        var line = "\(handled) of \(total) steps"
        if let step = currentStep {
            line += "; running \(step.id)"
            if let summary = step.summary { line += " (\(summary))" }
            if step.attempt > 1 { line += ", attempt \(step.attempt)" }
        }
        return line
    }
}
