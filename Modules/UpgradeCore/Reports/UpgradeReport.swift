import VersionKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What one launch of the upgrader did.
public struct UpgradeReport: Sendable {
    /// The version the app is running now.
    public var currentVersion: Version
    /// The app version of the launch before this one; `nil` on a fresh install.
    public var previousVersion: Version?
    /// The upgraded-through mark when the launch began (after fresh-install policy).
    public var upgradedThroughBefore: Version?
    /// The upgraded-through mark when the launch ended.
    public var upgradedThrough: Version?
    /// How the launch ended.
    public var outcome: UpgradeOutcome
    /// The steps run or abandoned, in order.
    public var steps: [StepReport]
    /// When the launch began.
    public var startedAt: Date
    /// How long the launch took, measured with the upgrader's clock.
    public var duration: Duration
    /// Things the store said about this launch, such as a corrupt document moved aside.
    public var notices: [String]
    /// Why the launch ended ``UpgradeOutcome/deferred``: protected data unavailable (nothing was
    /// decided), a step that said "not now", or work a follower leaves to the app; `nil` for every
    /// other outcome.
    public var deferral: UpgradeDeferral?

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - currentVersion: The version the app is running.
    ///   - previousVersion: The version of the launch before.
    ///   - upgradedThroughBefore: The mark at the start.
    ///   - upgradedThrough: The mark at the end.
    ///   - outcome: How the launch ended.
    ///   - steps: The steps run or abandoned.
    ///   - startedAt: When the launch began.
    ///   - duration: How long it took.
    ///   - notices: What the store said.
    public init(
        currentVersion: Version, previousVersion: Version?, upgradedThroughBefore: Version?,
        upgradedThrough: Version?, outcome: UpgradeOutcome, steps: [StepReport] = [], startedAt: Date,
        duration: Duration = .seconds(0), notices: [String] = []
    ) {
        // The default is `.seconds(0)`, inlined, rather than `.zero`, a call into the standard library
        // that the first launch of a process would bind (every up-to-date launch makes a report).
        self.currentVersion = currentVersion
        self.previousVersion = previousVersion
        self.upgradedThroughBefore = upgradedThroughBefore
        self.upgradedThrough = upgradedThrough
        self.outcome = outcome
        self.steps = steps
        self.startedAt = startedAt
        self.duration = duration
        self.notices = notices
    }

    /// The ids of the steps whose action was started, in order, including one that failed.
    public var ranStepIDs: [String] { steps.filter(\.ran).map(\.id) }

    /// The ids of the steps abandoned in this launch, in order.
    public var abandonedStepIDs: [String] { steps.filter(\.abandoned).map(\.id) }

    /// The step whose failure stopped the launch, if the outcome is ``UpgradeOutcome/failed``.
    public var failedStep: StepReport? {
        guard outcome == .failed else { return nil }
        return steps.last
    }
}

extension UpgradeReport: CustomStringConvertible {
    /// What the launch did, for logs: a one-line summary, then one indented line per notice.
    ///
    /// A launch at a new version reads `upgraded 1.0 -> 2.0: ran appUpgradeTo_1_1, move-settings`
    /// (`(fresh)` for a fresh install). A launch at the version launched before says so:
    /// `upToDate at 2.0`, and, when it handled steps, it resumed an upgrade an earlier launch of that
    /// version left unfinished: `upgraded, resumed at 2.0.1: ran move-settings (attempt 2),
    /// appUpgradeTo_2_0_1`. A step run again carries its attempt number, and `after an interrupted
    /// attempt` when the process died inside the one before. Then come the abandoned steps, the
    /// failure that stopped the launch and why a `deferred` launch waits (``deferral``). A step whose
    /// attempt was interrupted or said "not now" carries it: `cancelled at 2.0: ran move-settings
    /// (interrupted, not counted)`.
    ///
    /// Each of the ``notices`` (such as the legacy version a store adopted) follows on a line of its
    /// own, `  notice: ` and the notice with its line breaks made spaces, so that a log shows them on
    /// the launch they concern and the summary stays short. A report without notices is one line.
    public var description: String {
        var text = Self.line(summary)
        for notice in notices { text += "\n  notice: " + Self.line(notice) }
        return text
    }

    /// The first line of ``description``: what the launch did, without the notices.
    var summary: String {
        var line: String
        if let previousVersion, previousVersion == currentVersion {
            line = steps.isEmpty ? "\(outcome) at \(currentVersion)" : "\(outcome), resumed at \(currentVersion)"
        } else {
            line = "\(outcome) \(previousVersion.map { "\($0)" } ?? "(fresh)") -> \(currentVersion)"
        }
        let ran = steps.filter(\.ran).map(Self.text(ran:))
        if !ran.isEmpty { line += ": ran \(ran.joined(separator: ", "))" }
        let abandoned = abandonedStepIDs
        if !abandoned.isEmpty { line += "; abandoned \(abandoned.joined(separator: ", "))" }
        if let failed = failedStep, case .failed(let error) = failed.result {
            line += "; \(failed.id) failed on attempt \(failed.attempt): \(error)"
        }
        if let deferral { line += "; \(deferral)" }
        return line
    }

    /// A notice's text on one line: each run of line breaks becomes a space.
    static func line(_ text: String) -> String {
        text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// A step that ran, by its id, with its attempt number when it is not the first.
    private static func text(ran step: StepReport) -> String {
        var ending = ""
        switch step.result {
        case .interrupted: ending = "interrupted, not counted"
        case .notNow: ending = "not now, not counted"
        default: break
        }
        guard step.attempt > 1 || step.previousAttemptInterrupted else {
            return ending.isEmpty ? step.id : "\(step.id) (\(ending))"
        }
        let interrupted = step.previousAttemptInterrupted ? ", after an interrupted attempt" : ""
        return "\(step.id) (attempt \(step.attempt)\(interrupted)\(ending.isEmpty ? "" : ", \(ending)"))"
    }
}
