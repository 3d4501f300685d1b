import StrictJSON
import UpgradeCore
import UpgradeExplorer
import UpgradeFixtures
import VersionKit

extension ExplorationReport: RenderedReport {
    /// The report in the given form, ending with a line break. The text form is each fixture's
    /// `ExplorationText/render(_:)`, without a closing line (the command adds its own).
    ///
    /// - Parameter format: The form.
    /// - Returns: The text.
    package func render(as format: ReportFormat) -> String {
        switch format {
        case .text: results.map { ExplorationText.render($0) + "\n" }.joined()
        case .json: JSONWriter.pretty(jsonValue) + "\n"
        case .junit: junitReport
        case .markdown: markdownReport
        case .html: htmlReport
        }
    }

    // MARK: - JSON

    var jsonValue: JSONValue {
        .object(
            JSONObject(entries: [
                ("histories", .integer(histories)),
                ("launches", .integer(launches)),
                ("states", .integer(states)),
                ("transitions", .integer(transitions)),
                ("longestShortestPath", .integer(longestShortestPath)),
                ("broken", .integer(brokenCount)),
                ("findings", .integer(findingCount)),
                ("allowedFindings", .integer(allowedFindingCount)),
                ("passed", .bool(passed)),
                ("fixtures", .array(results.map(\.jsonValue))),
            ]))
    }

    // MARK: - JUnit

    private var junitReport: String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let tests = results.reduce(0) { $0 + Guarantee.allCases.count + $1.findings.count }
        let failures = brokenCount + findingCount - allowedFindingCount
        text +=
            "<testsuites name=\"upgrade-sim explore\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\">\n"
        for result in results {
            let suiteFailures = result.violations.count + result.unallowedFindings.count
            let skipped = result.findings.count - result.unallowedFindings.count
            text += "  <testsuite name=\"\(XML.escape(result.fixture.name))\""
            text += " tests=\"\(Guarantee.allCases.count + result.findings.count)\" failures=\"\(suiteFailures)\""
            text += " errors=\"0\" skipped=\"\(skipped)\""
            if let file = result.fixture.file { text += " file=\"\(XML.escape(file))\"" }
            text += ">\n"
            let name = XML.escape(result.fixture.name)
            for guarantee in Guarantee.allCases {
                let opening = "    <testcase name=\"\(XML.escape(guarantee.rawValue))\" classname=\"\(name)\""
                guard let violation = result.violations.first(where: { $0.guarantee == guarantee }) else {
                    text += opening + "/>\n"
                    continue
                }
                let fixture = violation.fixture(from: result.fixture, engine: result.options.engine)
                text += opening + ">\n"
                text +=
                    "      <failure message=\"\(XML.escape("\(guarantee): \(violation.detail)"))\" type=\"guarantee\">"
                text += XML.escape(
                    "shortest history: \(violation.historyText)"
                        + " under \(violation.policy)\n\(fixture.jsonText)", inAttribute: false)
                text += "</failure>\n    </testcase>\n"
            }
            for finding in result.findings {
                let fixture = finding.fixture(from: result.fixture, engine: result.options.engine)
                text +=
                    "    <testcase name=\"\(XML.escape("\(finding.kind) \(finding.stepID)"))\" classname=\"\(name)\">\n"
                let message = XML.escape(
                    "\(finding.kind) step \(finding.stepID) (\(finding.stepVersion)): \(finding.detail)")
                if finding.allowed {
                    text += "      <skipped message=\"allowed: \(message)\"/>\n"
                } else {
                    text += "      <failure message=\"\(message)\" type=\"\(finding.kind)\">"
                    text += XML.escape(
                        "shortest history: \(finding.historyText)"
                            + " under \(finding.policy)\n\(fixture.jsonText)", inAttribute: false)
                    text += "</failure>\n"
                }
                text += "    </testcase>\n"
            }
            text += "  </testsuite>\n"
        }
        text += "</testsuites>\n"
        return text
    }

    // MARK: - Markdown

    private var markdownReport: String {
        let fixpoint = isFixpoint
        var lines = [
            fixpoint
                ? "### upgrade-sim explore to a fixpoint: \(states) states, \(transitions) transitions; \(summaryLine)"
                : "### upgrade-sim explore: \(histories) histories, \(launches) launches; \(summaryLine)", "",
        ]
        lines.append("| | Fixture | Engine | \(fixpoint ? "States" : "Histories") | Broken | Findings | Allowed |")
        lines.append("| --- | --- | --- | ---: | ---: | ---: | ---: |")
        for result in results {
            lines.append(
                "| \(result.passed ? "✅" : "❌") | \(Markdown.cell(result.fixture.name)) | \(result.options.engine)"
                    + " | \(result.stateSpace?.states ?? result.histories) | \(result.violations.count) | \(result.findings.count)"
                    + " | \(result.findings.count - result.unallowedFindings.count) |")
        }
        var details: [String] = []
        if brokenCount > 0 {
            lines += ["", "#### Broken guarantees", ""]
            lines.append("| Fixture | Guarantee | Shortest history | Policy | At the last launch |")
            lines.append("| --- | --- | --- | --- | --- |")
            for result in results {
                for violation in result.violations {
                    lines.append(
                        "| \(Markdown.cell(result.fixture.name)) | \(Markdown.code(violation.guarantee.rawValue))"
                            + " | \(Markdown.cell(violation.historyText.replacingOccurrences(of: " -> ", with: " → ")))"
                            + " | \(Markdown.cell(violation.policy.description)) | \(Markdown.cell(violation.detail)) |"
                    )
                    let fixture = violation.fixture(from: result.fixture, engine: result.options.engine)
                    details.append(Self.collapsed(fixture))
                }
            }
        }
        if findingCount > 0 {
            lines += ["", "#### Late and lost steps", ""]
            lines.append("| Fixture | Finding | Step | Allowed | Shortest history | Policy | At the last launch |")
            lines.append("| --- | --- | --- | --- | --- | --- | --- |")
            for result in results {
                for finding in result.findings {
                    lines.append(
                        "| \(Markdown.cell(result.fixture.name)) | \(finding.kind)"
                            + " | \(Markdown.code(finding.stepID)) (\(finding.stepVersion)) | \(finding.allowed ? "yes" : "no")"
                            + " | \(Markdown.cell(finding.historyText.replacingOccurrences(of: " -> ", with: " → ")))"
                            + " | \(Markdown.cell(finding.policy.description)) | \(Markdown.cell(finding.detail)) |")
                    let fixture = finding.fixture(from: result.fixture, engine: result.options.engine)
                    details.append(Self.collapsed(fixture))
                }
            }
        }
        if !details.isEmpty {
            lines += ["", "#### Shortest histories as fixtures", ""]
            lines += details
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A fixture in a collapsed block, as `upgrade-sim run` reads it.
    private static func collapsed(_ fixture: Fixture) -> String {
        "<details><summary>\(Markdown.cell(fixture.name))</summary>\n\n```json\n\(fixture.jsonText)```\n\n</details>\n"
    }
}

extension ExplorationResult {
    /// A shortest history in JSON: each launch a version string, or a launch object with its condition
    /// (`{"version": "2.0", "locked": true}`, `{"version": "2.0", "expire": "ID"}`), as a fixture writes it.
    static func historyJSON(_ launches: [Version], _ conditions: [Int: LaunchCondition]) -> JSONValue {
        FixtureHistory(name: "", launches: launches, conditions: conditions).jsonValue.launchesValue
    }

    var jsonValue: JSONValue {
        var object = JSONObject()
        object.append("name", .string(fixture.name))
        object.append("file", fixture.file.map { .string($0) } ?? .null)
        object.append("engine", .string(options.engine.rawValue))
        object.append("search", .string(stateSpace == nil ? "depth" : "fixpoint"))
        object.append("depth", options.depth.map { .integer($0) } ?? .null)
        object.append("versions", .array(versions.map { .string($0.description) }))
        object.append("policies", .integer(policies.count))
        object.append("histories", .integer(histories))
        object.append("launches", .integer(launches))
        if let stateSpace {
            object.append("states", .integer(stateSpace.states))
            object.append("transitions", .integer(stateSpace.transitions))
            object.append("longestShortestPath", .integer(stateSpace.longestShortestPath))
        }
        object.append("passed", .bool(passed))
        object.append(
            "violations",
            .array(
                violations.map { violation in
                    .object(
                        JSONObject(entries: [
                            ("guarantee", .string(violation.guarantee.rawValue)),
                            ("description", .string(violation.guarantee.description)),
                            ("launches", .integer(violatingLaunches[violation.guarantee] ?? 0)),
                            ("history", Self.historyJSON(violation.launches, violation.conditions)),
                            ("policy", .string(violation.policy.description)),
                            ("detail", .string(violation.detail)),
                            ("fixture", violation.fixture(from: fixture, engine: options.engine).jsonValue),
                        ]))
                })
        )
        object.append(
            "findingLaunches",
            .object(
                JSONObject(
                    entries: FindingKind.allCases.map { ($0.rawValue, .integer(findingLaunches[$0] ?? 0)) }))
        )
        object.append(
            "findings",
            .array(
                findings.map { finding in
                    .object(
                        JSONObject(entries: [
                            ("kind", .string(finding.kind.rawValue)),
                            ("step", .string(finding.stepID)),
                            ("version", .string(finding.stepVersion.description)),
                            ("allowed", .bool(finding.allowed)),
                            ("history", Self.historyJSON(finding.launches, finding.conditions)),
                            ("policy", .string(finding.policy.description)),
                            ("detail", .string(finding.detail)),
                            ("fixture", finding.fixture(from: fixture, engine: options.engine).jsonValue),
                        ]))
                })
        )
        return .object(object)
    }
}
