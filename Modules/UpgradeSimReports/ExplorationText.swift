import UpgradeExplorer

/// The text report of an exploration.
package enum ExplorationText {
    /// Renders one fixture's exploration: a summary line, then each broken guarantee and each late or
    /// lost step (`LATE ID (VERSION)`, `LOST ID (VERSION)`, marked `allowed` when accepted) with its
    /// shortest history as a replayable fixture.
    ///
    /// - Parameter result: The exploration.
    /// - Returns: The text, ending with a line break.
    package static func render(_ result: ExplorationResult) -> String {
        let label = result.fixture.file ?? result.fixture.name
        let status = result.passed ? "PASS" : "FAIL"
        let policies = "\(result.policies.count) polic\(result.policies.count == 1 ? "y" : "ies")"
        var lines: [String]
        if let space = result.stateSpace {
            lines = [
                "\(status) \(label) (\(result.options.engine) engine, to a fixpoint, \(result.versions.count) versions,"
                    + " \(policies)): \(space.states) states, \(space.transitions) transitions, longest shortest path"
                    + " \(space.longestShortestPath) launch\(space.longestShortestPath == 1 ? "" : "es") in"
                    + " \(format(result.duration)), \(Int(result.statesPerSecond.rounded())) states/s"
            ]
        } else {
            lines = [
                "\(status) \(label) (\(result.options.engine) engine, depth \(result.options.depth ?? 0),"
                    + " \(result.versions.count) versions, \(policies)): \(result.histories) histories, \(result.launches)"
                    + " launches (\(result.launchesWithoutSharing) without prefix sharing) in \(format(result.duration)),"
                    + " \(Int(result.launchesPerSecond.rounded())) launches/s"
            ]
        }
        for violation in result.violations {
            let count = result.violatingLaunches[violation.guarantee] ?? 0
            lines.append(
                "  BROKEN \(violation.guarantee.rawValue): \(violation.guarantee) (\(count) \(unit(result, count)))"
            )
            lines.append(
                "    shortest history: \(violation.historyText) under \(violation.policy)"
            )
            lines.append("    at launch \(violation.launches.count): \(violation.detail)")
            lines.append("    as a fixture:")
            let fixture = violation.fixture(from: result.fixture, engine: result.options.engine)
            for line in fixture.jsonText.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                lines.append("      \(line)")
            }
        }
        for finding in result.findings {
            let count = result.findingLaunches[finding.kind] ?? 0
            lines.append(
                "  \(finding.kind.rawValue.uppercased()) \(finding.stepID) (\(finding.stepVersion))"
                    + "\(finding.allowed ? ", allowed" : ""): \(finding.kind.meaning) (\(count) \(finding.kind)"
                    + " \(unit(result, count)))"
            )
            lines.append(
                "    shortest history: \(finding.historyText) under \(finding.policy)"
            )
            lines.append("    at launch \(finding.launches.count): \(finding.detail)")
            lines.append("    as a fixture:")
            let fixture = finding.fixture(from: result.fixture, engine: result.options.engine)
            for line in fixture.jsonText.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                lines.append("      \(line)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What a count of violating or finding launches counts: launches, or for a search to a fixpoint
    /// transitions.
    private static func unit(_ result: ExplorationResult, _ count: Int) -> String {
        (result.stateSpace == nil ? "launch" : "transition") + (count == 1 ? "" : result.stateSpace == nil ? "es" : "s")
    }

    /// A duration in seconds with three decimals, such as `0.125 s`.
    package static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return
            "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - String(milliseconds % 1000).count))\(milliseconds % 1000) s"
    }
}
