import UpgradeReplay

extension ReplayReport {
    /// The HTML report: a summary (fixtures, histories, launches, passed, failed), the legend, and
    /// a timeline per history, the failing histories first.
    var htmlReport: String {
        let histories = fixtures.flatMap { fixture in fixture.histories.map { (fixture, $0) } }
        let ordered = histories.filter { !$0.1.passed } + histories.filter { $0.1.passed }
        var sections: [String] = []
        var failingHeading = false
        var passingHeading = false
        for (index, (fixture, history)) in ordered.enumerated() {
            if !history.passed, !failingHeading {
                sections.append("<h2>Failing histories (\(failedCount))</h2>\n")
                failingHeading = true
            }
            if history.passed, !passingHeading {
                sections.append("<h2>Passing histories (\(passedCount))</h2>\n")
                passingHeading = true
            }
            let timeline = fixture.timeline(of: history)
            var details: [String] = []
            if let file = fixture.file { details.append("fixture file: \(file)") }
            if let source = fixture.fixture { details.append("policy: \(source.policy)") }
            sections.append(
                HTMLPage.section(
                    timeline: timeline, id: "h\(index + 1)", status: history.passed ? "PASS" : "FAIL",
                    failed: !history.passed, heading: "\(fixture.name) / \(history.name)", details: details,
                    about: fixture.fixture?.summary, story: timeline.story(of: history.observations)))
        }
        let launches = histories.reduce(0) { $0 + $1.1.launches.count }
        let page = HTMLPage(
            title: "upgrade-sim run: \(summaryLine)",
            figures: [
                ("fixtures", "\(fixtures.count)"), ("histories", "\(histories.count)"), ("launches", "\(launches)"),
                ("passed", "\(passedCount)"), ("failed", "\(failedCount)"),
            ],
            introduction:
                "Each history is replayed from a fresh install; its timeline shows the launches left to right and"
                + " the steps of every build top to bottom in run order.",
            sections: sections)
        return page.html
    }
}
