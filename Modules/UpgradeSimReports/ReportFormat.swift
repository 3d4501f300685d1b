/// The forms every report of the simulator is written in (`upgrade-sim ... --format`): a replay
/// (`ReplayReport`), an exploration (`ExplorationReport`) and a fleet view (`FleetReport`), each
/// rendered by its ``RenderedReport/render(as:)``; ``RenderedReport/formats`` says which forms a kind of
/// report has. What each form holds, for a replay:
package enum ReportFormat: String, Sendable, Hashable, CaseIterable {
    /// Lines for a person: each fixture, each history as its path (every launch's version, outcome
    /// and the steps it ran) with `PASS` or `FAIL`, each mismatch under its launch, and the closing
    /// line `N passed, M failed`.
    case text
    /// One JSON object with stable key order: the counts, then each fixture with its histories, every
    /// launch's observation and the mismatches.
    case json
    /// JUnit XML, as CI servers read it: one `testsuite` per fixture, one `testcase` per history, a
    /// `failure` with the mismatches of a history that failed.
    case junit
    /// Markdown for a CI job summary: a table of fixtures and one of mismatches.
    case markdown
    /// One self-contained HTML page (inline CSS and SVG, no script, nothing fetched): a summary, a
    /// legend, and a timeline per history, the failing ones first.
    case html
}
