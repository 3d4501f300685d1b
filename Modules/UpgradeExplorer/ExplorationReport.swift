import StrictJSON
import UpgradeCore
import UpgradeFixtures
import VersionKit

/// The explorations of a set of fixtures, to render as text, JSON, JUnit XML or Markdown, as
/// `upgrade-sim explore --format` writes them. Every form has each broken guarantee and each late or
/// lost step, with its shortest history as a replayable fixture.
public struct ExplorationReport: Sendable {
    /// One result per fixture, in order.
    public var results: [ExplorationResult]

    /// Creates a report.
    ///
    /// - Parameter results: One result per fixture.
    public init(results: [ExplorationResult]) { self.results = results }

    /// How many histories were checked (by bounded explorations; one to a fixpoint covers every
    /// history of any length).
    package var histories: Int { results.reduce(0) { $0 + $1.histories } }
    /// How many launches were simulated (for a search to a fixpoint, its transitions).
    package var launches: Int { results.reduce(0) { $0 + $1.launches } }
    /// Whether every exploration searched to a fixpoint (and there is at least one).
    package var isFixpoint: Bool { !results.isEmpty && results.allSatisfy { $0.stateSpace != nil } }
    /// How many reachable states the searches to a fixpoint found.
    package var states: Int { results.reduce(0) { $0 + ($1.stateSpace?.states ?? 0) } }
    /// How many transitions the searches to a fixpoint simulated.
    package var transitions: Int { results.reduce(0) { $0 + ($1.stateSpace?.transitions ?? 0) } }
    /// The longest shortest history to a state over the searches to a fixpoint, in launches: the
    /// depth a bounded exploration would have needed.
    package var longestShortestPath: Int { results.reduce(0) { max($0, $1.stateSpace?.longestShortestPath ?? 0) } }
    /// How many guarantees were broken, counted once per fixture.
    package var brokenCount: Int { results.reduce(0) { $0 + $1.violations.count } }
    /// How many late or lost steps were found, counted once per fixture, kind and step.
    package var findingCount: Int { results.reduce(0) { $0 + $1.findings.count } }
    /// How many of those findings are allowed.
    package var allowedFindingCount: Int { results.reduce(0) { $0 + $1.findings.filter(\.allowed).count } }
    /// Whether every guarantee held and every finding is allowed: what exit status 0 means.
    public var passed: Bool { results.allSatisfy(\.passed) }

    /// The closing line: `B guarantees broken; F findings (L late, O lost), A allowed`.
    public var summaryLine: String {
        let broken = brokenCount
        var line =
            "\(broken) guarantee\(broken == 1 ? "" : "s") broken; \(findingCount) finding\(findingCount == 1 ? "" : "s")"
        if findingCount > 0 {
            let kinds = FindingKind.allCases.map { kind in
                "\(results.reduce(0) { $0 + $1.findings.filter { $0.kind == kind }.count }) \(kind)"
            }
            line += " (\(kinds.joined(separator: ", "))), \(allowedFindingCount) allowed"
        }
        return line
    }
}
