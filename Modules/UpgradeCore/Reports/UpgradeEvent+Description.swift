import VersionKit

extension UpgradeEvent: CustomStringConvertible {
    /// The event as one line of a log, such as
    /// `step settings-to-json (2.0) failed on attempt 1 after 3.2 ms: disk full; retried at the next launch`.
    ///
    /// A step is named by its id, followed by its version when the id is not the step-name form of
    /// the version. An error's text is kept on the line: line breaks in it become spaces. The end of
    /// a launch whose report has notices is the one event of several lines: its line, then each
    /// notice on a line of its own, as in the report's description
    /// (``UpgradeReport/description``: `  notice: ` and the notice).
    public var description: String {
        switch self {
        case .launchWillStart(let current, let mark):
            "launch at \(current) started, upgraded through \(mark.map { "\($0)" } ?? "no version yet")"
        case .stepWillStart(let context):
            "step \(Self.name(context)) started, attempt \(context.attempt)"
                + (context.previousAttemptInterrupted ? " (the previous attempt was interrupted)" : "")
        case .stepFinished(let context, let duration):
            "step \(Self.name(context)) finished on attempt \(context.attempt) after \(Self.text(duration))"
        case .stepFailed(let context, let error, let duration, let willRetry):
            "step \(Self.name(context)) failed on attempt \(context.attempt) after \(Self.text(duration)): "
                + "\(Self.line(error)); \(willRetry ? "retried at the next launch" : "given up on")"
        case .stepAbandoned(let id, let version, let failed):
            "step \(Self.name(id: id, version: version)) abandoned after \(failed) failed "
                + (failed == 1 ? "attempt" : "attempts")
        case .launchFinished(let report):
            "launch finished: \(Self.line(report.summary))\(Self.noticeLines(report))"
        case .launchAborted(let error, let report):
            "launch aborted by the store: \(Self.line(error)); until then: \(Self.line(report.summary))"
                + Self.noticeLines(report)
        }
    }

    /// An observer that writes each event as one line (its ``description``) to `write`, and each
    /// notice of a launch's report as a line of its own after the launch's last line.
    ///
    /// It makes logging a launch one closure, to `print`, `os.Logger` or any log of your own:
    ///
    /// ```swift
    /// upgrader.observer = UpgradeEvent.lineObserver { line in print("upgrade: \(line)") }
    ///
    /// let log = Logger(subsystem: "com.example.notes", category: "upgrade")
    /// upgrader.observer = UpgradeEvent.lineObserver { line in log.info("\(line, privacy: .public)") }
    /// ```
    ///
    /// `write` is called on the launching task, once per line, in order; it should return quickly.
    ///
    /// - Parameter write: Receives each line, without a line break at its end.
    /// - Returns: An observer to assign to ``Upgrader/observer``.
    public static func lineObserver(_ write: @escaping @Sendable (String) -> Void) -> UpgradeObserver {
        { event in
            let text = event.description
            guard text.contains(where: \.isNewline) else { return write(text) }
            for line in text.split(separator: "\n") { write(String(line)) }
        }
    }

    /// The report's notices, each on a line of its own, as its description has them.
    private static func noticeLines(_ report: UpgradeReport) -> String {
        report.notices.map { "\n  notice: " + UpgradeReport.line($0) }.joined()
    }

    private static func name(_ context: UpgradeContext) -> String {
        name(id: context.stepID, version: context.stepVersion)
    }

    private static func name(id: String, version: Version) -> String {
        id == version.stepName ? id : "\(id) (\(version))"
    }

    /// A value's text on one line: each line break becomes a space.
    private static func line(_ value: Any) -> String {
        String(describing: value).split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
            .joined(separator: " ")
    }

    /// A duration in milliseconds with one decimal below a second, else in seconds with two decimals.
    private static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = max(0, Double(seconds) * 1000 + Double(attoseconds) / 1e15)
        let tenths = Int((milliseconds * 10).rounded())
        if tenths < 10_000 { return "\(tenths / 10).\(tenths % 10) ms" }
        let hundredths = Int((milliseconds / 10).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
