import StrictJSON
import UpgradeCore
import UpgradeFixtures
import UpgradeReplay

extension ReplayReport: RenderedReport {
    /// The report in the given form, ending with a line break.
    ///
    /// - Parameter format: The form.
    /// - Returns: The text.
    package func render(as format: ReportFormat) -> String {
        switch format {
        case .text: storyText
        case .json: JSONWriter.pretty(jsonValue) + "\n"
        case .junit: junitReport
        case .markdown: markdownReport
        case .html: htmlReport
        }
    }

    // MARK: - Text

    /// The terse text report (`run --quiet`): each fixture and history with `PASS` or `FAIL`, each
    /// mismatch, and the closing line `N passed, M failed`.
    package var quietText: String { quietText(failuresOnly: false) }

    /// The terse text report, or with `failuresOnly` (`run --quiet --failures-only`) only its failing
    /// fixtures and histories, each fixture's line saying how many of its histories failed, and the
    /// closing line (`N passed, M failed`, counting every history).
    ///
    /// - Parameter failuresOnly: Whether to leave out the fixtures and histories that passed.
    /// - Returns: The text, ending with a line break.
    package func quietText(failuresOnly: Bool) -> String {
        var lines: [String] = []
        for fixture in fixtures where !(failuresOnly && fixture.passed) {
            lines.append(fixture.headline(failuresOnly: failuresOnly))
            for history in fixture.histories where !(failuresOnly && history.passed) {
                lines.append("  \(history.passed ? "PASS" : "FAIL") \(history.name)")
                for mismatch in history.mismatches { lines.append("       \(mismatch)") }
            }
        }
        lines.append(summaryLine)
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - JSON

    var jsonValue: JSONValue {
        .object(
            JSONObject(entries: [
                ("passed", .integer(passedCount)),
                ("failed", .integer(failedCount)),
                ("fixtures", .array(fixtures.map(\.jsonValue))),
            ]))
    }

    // MARK: - JUnit

    private var junitReport: String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let total = passedCount + failedCount
        text += "<testsuites name=\"upgrade-sim\" tests=\"\(total)\" failures=\"\(failedCount)\" errors=\"0\">\n"
        for fixture in fixtures {
            text += "  <testsuite name=\"\(XML.escape(fixture.name))\" tests=\"\(fixture.histories.count)\""
            text += " failures=\"\(fixture.failedCount)\" errors=\"0\" skipped=\"0\""
            if let file = fixture.file { text += " file=\"\(XML.escape(file))\"" }
            text += ">\n"
            for history in fixture.histories {
                let opening =
                    "    <testcase name=\"\(XML.escape(history.name))\" classname=\"\(XML.escape(fixture.name))\""
                guard let first = history.mismatches.first else {
                    text += opening + "/>\n"
                    continue
                }
                let count = history.mismatches.count
                let message =
                    count == 1
                    ? first.description : "\(count) mismatches; the first: \(first.description)"
                text += opening + ">\n"
                text += "      <failure message=\"\(XML.escape(message))\" type=\"mismatch\">"
                text += XML.escape(history.mismatches.map(\.description).joined(separator: "\n"), inAttribute: false)
                text += "</failure>\n"
                text += "    </testcase>\n"
            }
            text += "  </testsuite>\n"
        }
        text += "</testsuites>\n"
        return text
    }

    // MARK: - Markdown

    private var markdownReport: String {
        var lines = ["### upgrade-sim: \(summaryLine)", ""]
        lines.append("| | Fixture | Histories | Passed | Failed |")
        lines.append("| --- | --- | ---: | ---: | ---: |")
        for fixture in fixtures {
            lines.append(
                "| \(fixture.passed ? "✅" : "❌") | \(Markdown.cell(fixture.name)) | \(fixture.histories.count)"
                    + " | \(fixture.passedCount) | \(fixture.failedCount) |")
        }
        let mismatches = self.mismatches
        if !mismatches.isEmpty {
            lines.append("")
            lines.append("#### Mismatches")
            lines.append("")
            lines.append("| Fixture | History | Launch | Key | Expected | Got |")
            lines.append("| --- | --- | ---: | --- | --- | --- |")
            for mismatch in mismatches {
                lines.append(
                    "| \(Markdown.cell(mismatch.fixture)) | \(Markdown.cell(mismatch.history))"
                        + " | \(mismatch.launch) (\(mismatch.version)\(mismatch.condition.map { ", \($0)" } ?? ""))"
                        + " | \(mismatch.key.rawValue)"
                        + " | \(Markdown.code(mismatch.expected)) | \(Markdown.code(mismatch.got)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension FixtureResult {
    /// A fixture's line in the text reports: `PASS NAME (FILE): 3 histories`; with `failuresOnly`,
    /// `FAIL NAME (FILE): 1 of 3 histories failed`.
    ///
    /// - Parameter failuresOnly: Whether the report lists only the failing histories.
    /// - Returns: The line.
    func headline(failuresOnly: Bool) -> String {
        let origin = file.map { " (\($0))" } ?? ""
        let count = "\(histories.count) histor\(histories.count == 1 ? "y" : "ies")"
        let counted = failuresOnly ? "\(failedCount) of \(count) failed" : count
        return "\(passed ? "PASS" : "FAIL") \(name)\(origin): \(counted)"
    }

    var jsonValue: JSONValue {
        var object = JSONObject()
        object.append("name", .string(name))
        object.append("file", file.map { .string($0) } ?? .null)
        object.append("passed", .integer(passedCount))
        object.append("failed", .integer(failedCount))
        object.append("histories", .array(histories.map(\.jsonValue)))
        return .object(object)
    }
}

extension HistoryResult {
    var jsonValue: JSONValue {
        var launchValues: [JSONValue] = []
        for (position, (version, observation)) in zip(launches, observations).enumerated() {
            guard case .object(var object) = observation.jsonValue else { continue }
            switch conditions[position] {
            case .locked?: object.entries.insert(JSONMember("locked", .bool(true)), at: 0)
            case .expire(let id)?: object.entries.insert(JSONMember("expire", .string(id)), at: 0)
            case nil: break
            }
            object.entries.insert(JSONMember("version", .string(version.description)), at: 0)
            launchValues.append(.object(object))
        }
        return .object(
            JSONObject(entries: [
                ("name", .string(name)),
                ("passed", .bool(passed)),
                ("launches", .array(launchValues)),
                ("mismatches", .array(mismatches.map(\.jsonValue))),
            ]))
    }
}

extension Mismatch {
    var jsonValue: JSONValue {
        // `expected` and `got` are JSON written by this module, so they read back.
        func value(_ text: String) -> JSONValue { (try? JSONParser.parse(Array(text.utf8))) ?? .string(text) }
        return .object(
            JSONObject(entries: [
                ("fixture", .string(fixture)),
                ("history", .string(history)),
                ("launch", .integer(launch)),
                ("version", .string(version.description)),
                ("key", .string(key.rawValue)),
                ("expected", value(expected)),
                ("got", value(got)),
            ]))
    }
}

/// Escaping for XML 1.0 text and attribute values.
enum XML {
    /// The text with `&`, `<`, `>` (and in attributes `"`, `'`, tab and line breaks) escaped, and the
    /// characters XML 1.0 cannot carry at all replaced by U+FFFD.
    static func escape(_ text: String, inAttribute: Bool = true) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where inAttribute: result += "&quot;"
            case "'" where inAttribute: result += "&apos;"
            case "\n" where inAttribute: result += "&#10;"
            case "\r": result += "&#13;"
            case "\t" where inAttribute: result += "&#9;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = value >= 0x20 && !(0xFFFE...0xFFFF).contains(value)
                result.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return result
    }
}

/// Escaping for Markdown table cells.
enum Markdown {
    /// Text safe in a table cell: pipes and HTML escaped, line breaks as spaces.
    static func cell(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "|": result += "\\|"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "\\", "*", "_", "`", "[", "]": result += "\\\(character)"
            case "\n", "\r", "\r\n": result += " "
            default: result.append(character)
            }
        }
        return result
    }

    /// Text as a code span in a table cell.
    static func code(_ text: String) -> String {
        let flat = text.replacingNewlines().split(separator: "|", omittingEmptySubsequences: false).joined(
            separator: "\\|")
        let fence = flat.contains("`") ? "``" : "`"
        return "\(fence)\(fence == "``" ? " " : "")\(flat)\(fence == "``" ? " " : "")\(fence)"
    }
}

extension String {
    fileprivate func replacingNewlines() -> String {
        String(map { $0.isNewline ? " " : $0 })
    }
}
