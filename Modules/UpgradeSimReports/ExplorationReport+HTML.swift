import UpgradeExplorer
import UpgradeFixtures

extension ExplorationReport {
    /// The HTML report of an exploration: a summary, a table of the fixtures explored, and each broken
    /// guarantee and each finding drawn as the shortest history that shows it (broken guarantees and
    /// findings not allowed first), its last launch framed.
    var htmlReport: String {
        var failing: [String] = []
        var allowed: [String] = []
        var drawn = 0
        for result in results {
            let fixture = result.fixture
            for violation in result.violations {
                drawn += 1
                let detail = "at launch \(violation.launches.count): \(violation.detail)"
                var timeline = Timeline(
                    title: "\(fixture.name): broken \(violation.guarantee.rawValue)", steps: fixture.steps,
                    floor: fixture.floor, policy: violation.policy, launches: violation.launches,
                    observations: violation.observations, conditions: violation.conditions)
                timeline.note(lastLaunch: "BROKEN \(violation.guarantee.rawValue): \(detail)", isFailure: true)
                failing.append(
                    HTMLPage.section(
                        timeline: timeline, id: "x\(drawn)", status: "BROKEN", failed: true,
                        heading: "\(fixture.name): \(violation.guarantee.rawValue)",
                        details: [
                            "\(violation.guarantee)", detail,
                            "policy: \(violation.policy), \(result.options.engine) engine",
                        ], story: timeline.story(of: violation.observations)))
            }
            for finding in result.findings {
                drawn += 1
                let detail = "at launch \(finding.launches.count): \(finding.detail)"
                let kind = finding.kind.rawValue.uppercased()
                var timeline = Timeline(
                    title: "\(fixture.name): \(finding.kind) \(finding.stepID)", steps: fixture.steps,
                    floor: fixture.floor, policy: finding.policy, launches: finding.launches,
                    observations: finding.observations, conditions: finding.conditions)
                timeline.note(lastLaunch: "\(kind) \(finding.stepID): \(detail)", isFailure: !finding.allowed)
                timeline.focus = finding.stepID
                let section = HTMLPage.section(
                    timeline: timeline, id: "x\(drawn)", status: kind + (finding.allowed ? ", allowed" : ""),
                    failed: !finding.allowed,
                    heading: "\(fixture.name): \(finding.kind) step \(finding.stepID) (\(finding.stepVersion))",
                    details: [
                        "\(finding.kind.meaning)", detail, "policy: \(finding.policy), \(result.options.engine) engine",
                    ], story: timeline.story(of: finding.observations))
                if finding.allowed { allowed.append(section) } else { failing.append(section) }
            }
        }
        var sections = [fixtureTable]
        if !failing.isEmpty { sections.append("<h2>Broken guarantees and findings not allowed</h2>\n") }
        sections += failing
        if !allowed.isEmpty { sections.append("<h2>Allowed findings</h2>\n") }
        sections += allowed
        let searched: [(label: String, value: String)] =
            isFixpoint
            ? [("states", "\(states)"), ("transitions", "\(transitions)")]
            : [("histories", "\(histories)"), ("launches", "\(launches)")]
        let page = HTMLPage(
            title: "upgrade-sim explore: \(summaryLine)",
            figures: [("fixtures", "\(results.count)")] + searched + [
                ("broken", "\(brokenCount)"), ("findings", "\(findingCount)"),
                ("allowed", "\(allowedFindingCount)"), ("histories drawn", "\(drawn)"),
            ],
            introduction:
                "Each broken guarantee and each late or lost step is drawn as the shortest history that shows it,"
                + " from a fresh install; its last launch, where it shows, is framed.",
            sections: sections)
        return page.html
    }

    /// The fixtures explored, one row each.
    private var fixtureTable: String {
        var out = "<h2>Fixtures explored</h2>\n<table class=\"fx\">\n"
        out += "<tr><th>Result</th><th>Fixture</th><th>Search</th><th>Broken</th><th>Findings</th></tr>\n"
        for result in results {
            let search =
                result.stateSpace.map { "\($0.states) states" }
                ?? "\(result.histories) histories"
            out += "<tr><td>\(result.passed ? "✓ pass" : "✗ fail")</td>"
            out += "<td>\(HTMLText.escape(result.fixture.file ?? result.fixture.name))</td>"
            out += "<td>\(search), \(result.policies.count) polic\(result.policies.count == 1 ? "y" : "ies")</td>"
            out += "<td>\(result.violations.count)</td><td>\(result.findings.count)</td></tr>\n"
        }
        out += "</table>\n"
        return out
    }
}

extension Timeline {
    /// Points out the last launch, where an exploration's broken guarantee or finding shows.
    mutating func note(lastLaunch text: String, isFailure: Bool) {
        guard !columns.isEmpty else { return }
        columns[columns.count - 1].note = Note(text: text, isFailure: isFailure)
    }
}
