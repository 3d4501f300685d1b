import Foundation
import UpgradeExplorer

/// The progress of a long `explore` on a terminal: one line on standard error, replaced in place
/// (level, states, transitions, rate), shown once the search has run for a second, and erased when
/// it ends. Its clock and its output are injected, so that the tests need no terminal and no waiting.
final class ProgressLine: @unchecked Sendable {
    /// How long a search runs before its progress shows.
    static let delay = Duration.seconds(1)
    /// The shortest time between two rewrites of the line.
    static let interval = Duration.milliseconds(100)

    private let label: String
    private let elapsed: @Sendable () -> Duration
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private var lastShown: Duration?

    /// Whether `explore` shows progress at all: only on a terminal, and not with `--no-progress`.
    ///
    /// - Parameters:
    ///   - isTerminal: Whether standard error is a terminal.
    ///   - hidden: Whether `--no-progress` was given.
    static func isShown(isTerminal: Bool, hidden: Bool) -> Bool { isTerminal && !hidden }

    /// Creates the line of one fixture's search.
    ///
    /// - Parameters:
    ///   - label: The fixture's name or file, at the start of the line.
    ///   - elapsed: The time since the search started.
    ///   - write: Writes text to the terminal, as it is (no newline added).
    init(label: String, elapsed: @escaping @Sendable () -> Duration, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.elapsed = elapsed
        self.write = write
    }

    /// Shows a progress report, unless the search has run for less than ``delay`` or the line was
    /// rewritten less than ``interval`` ago. Safe from any thread.
    func update(_ progress: ExplorationProgress) {
        let now = elapsed()
        lock.lock()
        defer { lock.unlock() }
        guard now >= Self.delay else { return }
        if let lastShown, now - lastShown < Self.interval { return }
        lastShown = now
        write("\r\u{1B}[K" + Self.text(progress, label: label, elapsed: now))
    }

    /// Erases the line, if it was ever shown.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if lastShown != nil { write("\r\u{1B}[K") }
        lastShown = nil
    }

    /// The line: for a search to a fixpoint its level, states, transitions and transitions a second;
    /// for a bounded search (level 0) its launches and launches a second.
    static func text(_ progress: ExplorationProgress, label: String, elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Int((Double(progress.transitions) / seconds).rounded()) : 0
        guard progress.level > 0 else {
            return "\(label): \(grouped(progress.transitions)) launches, \(grouped(rate))/s"
        }
        let policy = progress.policies > 1 ? ", policy \(progress.policy) of \(progress.policies)" : ""
        return "\(label): level \(progress.level)\(policy), \(grouped(progress.states)) states,"
            + " \(grouped(progress.transitions)) transitions, \(grouped(rate))/s"
    }

    /// A count with a comma every three digits.
    static func grouped(_ count: Int) -> String {
        var digits = String(count.magnitude)
        var index = digits.endIndex
        while digits.distance(from: digits.startIndex, to: index) > 3 {
            index = digits.index(index, offsetBy: -3)
            digits.insert(",", at: index)
        }
        return count < 0 ? "-" + digits : digits
    }
}
