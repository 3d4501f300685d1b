import Foundation
import Testing
import UpgradeTestSupport
import VersionKit

@testable import UpgradeFixtures
@testable import UpgradeReplay
@testable import UpgradeSimReports

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Small fixtures written to a temporary folder, as a user would write them.
enum SampleFixtures {
    /// Passes: a failed step retried, a crash resumed, a skipped version.
    static let passing = """
        {
          "name": "retry-and-crash",
          "description": "a failing step is retried; a crashing one resumes",
          "policy": {"giveUpAfter": 3},
          "steps": [
            {"version": "1.1"},
            {"id": "move-settings", "version": "2.0", "behavior": {"failTimes": 1}},
            {"version": "2.0.1", "behavior": {"crashTimes": 2}}
          ],
          "histories": [
            {
              "name": "1.0 straight to 2.0",
              "launches": ["1.0", "2.0", "2.0"],
              "expect": [
                {"outcome": "freshInstall", "ran": [], "upgradedThrough": "1.0"},
                {"outcome": "failed", "ran": ["appUpgradeTo_1_1", "move-settings"], "upgradedThrough": "1.0"},
                {"outcome": "upgraded", "ran": ["move-settings"], "abandoned": [], "upgradedThrough": "2.0.0"}
              ]
            },
            {
              "name": "crash twice",
              "launches": ["2.0", "2.0.1", "2.0.1", "2.0.1", "1.0"],
              "expect": [
                {"outcome": "freshInstall"},
                {"outcome": "crashed", "ran": ["appUpgradeTo_2_0_1"], "upgradedThrough": "2.0"},
                {"outcome": "crashed", "ran": ["appUpgradeTo_2_0_1"]},
                {"outcome": "upgraded", "ran": ["appUpgradeTo_2_0_1"], "upgradedThrough": "2.0.1"},
                {"outcome": "downgraded", "ran": [], "upgradedThrough": "2.0.1"}
              ]
            },
            {"name": "no expectations", "launches": ["3.0", "3.0"]}
          ]
        }
        """

    /// Fails on purpose: launch 2 of "wrong" expects the wrong steps and mark.
    static let failing = """
        {
          "name": "wrong <expectation> & \\"quotes\\"",
          "policy": {"freshInstall": "runAll"},
          "steps": [{"version": "1.0"}, {"version": "2.0", "id": "b|c"}],
          "histories": [
            {"name": "right", "launches": ["1.0"], "expect": [{"outcome": "upgraded", "ran": ["appUpgradeTo_1_0"]}]},
            {
              "name": "wrong",
              "launches": ["1.0", "2.0"],
              "expect": [
                {"outcome": "upgraded"},
                {"outcome": "failed", "ran": ["appUpgradeTo_1_0", "b|c"], "upgradedThrough": "1.0"}
              ]
            }
          ]
        }
        """

    /// Writes both to a folder and returns it.
    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory("fixtures")
        try passing.write(to: folder.file("a-passing.json"), atomically: true, encoding: .utf8)
        try failing.write(to: folder.file("b-failing.json"), atomically: true, encoding: .utf8)
        return folder
    }
}

@Suite("Replay and reports")
struct ReplayTests {
    private func report() async throws -> (ReplayReport, TemporaryDirectory) {
        let folder = try SampleFixtures.folder()
        let loaded = FixtureLoader.load(paths: [folder.url.path])
        #expect(loaded.errors.isEmpty)
        return (try await ReplayReport.replay(loaded.fixtures), folder)
    }

    @Test("replays every history and reports each mismatch precisely")
    func mismatches() async throws {
        let (report, _) = try await report()
        #expect(report.passedCount == 4)
        #expect(report.failedCount == 1)
        #expect(report.summaryLine == "4 passed, 1 failed")
        let fixtureName = "wrong <expectation> & \"quotes\""
        #expect(
            report.mismatches == [
                Mismatch(
                    fixture: fixtureName, history: "wrong", launch: 2, version: .v("2.0"), key: .outcome,
                    expected: #""failed""#, got: #""upgraded""#),
                Mismatch(
                    fixture: fixtureName, history: "wrong", launch: 2, version: .v("2.0"), key: .ran,
                    expected: #"["appUpgradeTo_1_0", "b|c"]"#, got: #"["b|c"]"#),
                Mismatch(
                    fixture: fixtureName, history: "wrong", launch: 2, version: .v("2.0"), key: .upgradedThrough,
                    expected: #""1.0""#, got: #""2.0""#),
            ])
        #expect(
            report.mismatches[0].description
                == #"wrong <expectation> & "quotes" / wrong / launch 2 (2.0) / outcome: expected "failed", got "upgraded""#
        )
        let unchecked = try #require(report.fixtures.first?.histories.last)
        #expect(unchecked.passed)
        #expect(unchecked.observations.map(\.outcome) == [.freshInstall, .upToDate])
    }

    @Test("the text reports (story and quiet) list fixtures, histories and mismatches and close with the counts")
    func text() async throws {
        let (report, folder) = try await report()
        let text = report.render(as: .text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "PASS retry-and-crash (\(folder.url.path)/a-passing.json): 3 histories")
        #expect(lines.contains("  FAIL wrong"))
        #expect(lines.contains("  PASS crash twice"))
        #expect(lines.contains("            upgradedThrough: expected \"1.0\", got \"2.0\""))
        #expect(lines.suffix(2) == ["4 passed, 1 failed", ""])
        let quiet = report.quietText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(quiet.first == lines.first)
        #expect(
            quiet.contains { $0.hasSuffix("/ wrong / launch 2 (2.0) / upgradedThrough: expected \"1.0\", got \"2.0\"") }
        )
        #expect(quiet.suffix(2) == ["4 passed, 1 failed", ""])
    }

    @Test("failures only: the failing fixtures and histories with their mismatches, and the closing line")
    func failuresOnly() async throws {
        let (report, folder) = try await report()
        let fixtureLine =
            #"FAIL wrong <expectation> & "quotes" (\#(folder.url.path)/b-failing.json): 1 of 2 histories failed"#
        for text in [report.storyText(failuresOnly: true), report.quietText(failuresOnly: true)] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == fixtureLine, "\(text)")
            #expect(lines.contains("  FAIL wrong"))
            #expect(!lines.contains { $0.contains("PASS") }, "\(text)")
            #expect(!text.contains("retry-and-crash"))
            #expect(lines.suffix(2) == ["4 passed, 1 failed", ""])
        }
        #expect(
            report.storyText(failuresOnly: true).contains(
                "\n            upgradedThrough: expected \"1.0\", got \"2.0\"\n"))
        #expect(report.quietText(failuresOnly: true).contains("/ wrong / launch 2 (2.0) / upgradedThrough: expected"))
        #expect(report.storyText(failuresOnly: false) == report.render(as: .text))
        let passing = ReplayReport(fixtures: report.fixtures.filter(\.passed))
        #expect(passing.storyText(failuresOnly: true) == "3 passed, 0 failed\n")
        #expect(passing.quietText(failuresOnly: true) == "3 passed, 0 failed\n")
    }

    @Test("the JSON report parses, with counts, observations and mismatches")
    func json() async throws {
        let (report, _) = try await report()
        let text = report.render(as: .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["passed"] as? Int == 4)
        #expect(object["failed"] as? Int == 1)
        let fixtures = try #require(object["fixtures"] as? [[String: Any]])
        #expect(fixtures.map { $0["name"] as? String } == ["retry-and-crash", "wrong <expectation> & \"quotes\""])
        let histories = try #require(fixtures[1]["histories"] as? [[String: Any]])
        let mismatches = try #require(histories[1]["mismatches"] as? [[String: Any]])
        #expect(mismatches.count == 3)
        #expect(mismatches[1]["key"] as? String == "ran")
        #expect(mismatches[1]["expected"] as? [String] == ["appUpgradeTo_1_0", "b|c"])
        #expect(mismatches[1]["launch"] as? Int == 2)
        #expect(mismatches[2]["got"] as? String == "2.0")
        let launches = try #require(histories[1]["launches"] as? [[String: Any]])
        #expect(launches[1]["version"] as? String == "2.0")
        #expect(launches[1]["ran"] as? [String] == ["b|c"])
        // Stable key order.
        #expect(text.hasPrefix("{\n  \"passed\": 4,\n  \"failed\": 1,\n  \"fixtures\": ["))
    }

    // XMLDocument exists only in macOS's Foundation and in FoundationXML (Linux).
    #if os(macOS) || os(Linux)
        @Test("the JUnit report is valid XML with a suite per fixture and a case per history")
        func junit() async throws {
            let (report, _) = try await report()
            let document = try XMLDocument(data: Data(report.render(as: .junit).utf8))
            let root = try #require(document.rootElement())
            #expect(root.name == "testsuites")
            #expect(root.attribute(forName: "tests")?.stringValue == "5")
            #expect(root.attribute(forName: "failures")?.stringValue == "1")
            let suites = root.elements(forName: "testsuite")
            #expect(
                suites.map { $0.attribute(forName: "name")?.stringValue } == [
                    "retry-and-crash", "wrong <expectation> & \"quotes\"",
                ])
            #expect(suites.map { $0.attribute(forName: "tests")?.stringValue } == ["3", "2"])
            #expect(suites.map { $0.attribute(forName: "failures")?.stringValue } == ["0", "1"])
            let cases = suites[1].elements(forName: "testcase")
            #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == ["right", "wrong"])
            #expect(cases[1].attribute(forName: "classname")?.stringValue == "wrong <expectation> & \"quotes\"")
            #expect(cases[0].elements(forName: "failure").isEmpty)
            let failure = try #require(cases[1].elements(forName: "failure").first)
            #expect(
                failure.attribute(forName: "message")?.stringValue?.hasPrefix(
                    "3 mismatches; the first: wrong <expectation>") == true)
            let body = failure.stringValue ?? ""
            #expect(body.split(separator: "\n").count == 3)
            #expect(body.contains(#"ran: expected ["appUpgradeTo_1_0", "b|c"], got ["b|c"]"#))
        }

        @Test("XML escaping keeps text intact and drops what XML cannot carry")
        func xmlEscaping() throws {
            let odd = "a&b<c>\"d\" 'e'\n\tf\u{01}"
            let xml = "<r a=\"\(XML.escape(odd))\">\(XML.escape(odd, inAttribute: false))</r>"
            let root = try #require(try XMLDocument(data: Data(xml.utf8)).rootElement())
            #expect(root.attribute(forName: "a")?.stringValue == "a&b<c>\"d\" 'e'\n\tf\u{FFFD}")
            #expect(root.stringValue == "a&b<c>\"d\" 'e'\n\tf\u{FFFD}")
        }
    #endif

    @Test("the Markdown report has a summary table and a table of mismatches")
    func markdown() async throws {
        let (report, _) = try await report()
        let lines = report.render(as: .markdown).split(separator: "\n").map(String.init)
        #expect(lines.first == "### upgrade-sim: 4 passed, 1 failed")
        #expect(lines.contains("| ✅ | retry-and-crash | 3 | 3 | 0 |"))
        #expect(lines.contains(#"| ❌ | wrong &lt;expectation&gt; &amp; "quotes" | 2 | 1 | 1 |"#))
        #expect(lines.contains("#### Mismatches"))
        #expect(
            lines.contains(
                #"| wrong &lt;expectation&gt; &amp; "quotes" | wrong | 2 (2.0) | ran | `["appUpgradeTo_1_0", "b\|c"]` | `["b\|c"]` |"#
            ))
    }
}
