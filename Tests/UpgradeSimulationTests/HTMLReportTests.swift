import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeExplorer
@testable import UpgradeFixtures
@testable import UpgradeReplay
@testable import UpgradeSimReports

#if canImport(FoundationXML)
    import FoundationXML
#endif

private let shippedFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

/// The sample fixtures replayed: 5 histories, one failing.
private func sampleReport() async throws -> ReplayReport {
    let folder = try SampleFixtures.folder()
    defer { folder.remove() }
    let loaded = FixtureLoader.load(paths: [folder.url.path])
    #expect(loaded.errors.isEmpty)
    return try await ReplayReport.replay(loaded.fixtures)
}

/// The SVG elements of a page, each from `<svg` to its `</svg>`.
private func svgElements(of html: String) -> [String] {
    html.components(separatedBy: "<svg").dropFirst().compactMap { part in
        part.range(of: "</svg>").map { "<svg" + part[..<$0.upperBound] }
    }
}

@Suite("Timelines: what each step did in each launch")
struct TimelineTests {
    @Test("cells follow the launch: finished, failed with its attempt, above the running version, done")
    func cells() async throws {
        let report = try await sampleReport()
        let fixture = report.fixtures[0]
        let timeline = fixture.timeline(of: fixture.histories[0])
        #expect(timeline.rows.map(\.id) == ["appUpgradeTo_1_1", "move-settings", "appUpgradeTo_2_0_1"])
        #expect(timeline.cells[0] == [.above, .finished(attempt: 1), .done])
        #expect(timeline.cells[1] == [.above, .failed(attempt: 1), .finished(attempt: 2)])
        #expect(timeline.cells[2] == [.above, .above, .above])
        #expect(timeline.columns.map(\.isFreshInstall) == [true, false, false])
        #expect(timeline.columns.map(\.markAfter) == [.v("1.0"), .v("1.0"), .v("2.0")])
        #expect(!timeline.failed)

        let crashes = fixture.timeline(of: fixture.histories[1])
        #expect(
            crashes.cells[2] == [.above, .crashed(attempt: 1), .crashed(attempt: 2), .finished(attempt: 3), .above])
        #expect(crashes.columns.map(\.isDowngrade) == [false, false, false, false, true])
    }

    @Test("a mismatch is in place: expected steps not run, the expected mark, the differing keys")
    func mismatchInPlace() async throws {
        let report = try await sampleReport()
        let fixture = report.fixtures[1]
        let timeline = fixture.timeline(of: fixture.histories[1])
        #expect(timeline.failed)
        #expect(timeline.columns[1].mismatches.map(\.key) == [.outcome, .ran, .upgradedThrough])
        #expect(timeline.expectedNotRun[1] == ["appUpgradeTo_1_0"])
        #expect(timeline.runNotExpected[1].isEmpty)
        #expect(timeline.expectedMark[1] == .some(.v("1.0")))
        #expect(timeline.expectedMark[0] == nil)
    }

    @Test("give-up, not reached, not in the build and the floor, from a fixture made in code")
    func otherStates() async throws {
        let fixture = Fixture(
            name: "states", policy: UpgradePolicy(freshInstall: .runAll, giveUpAfter: 1),
            steps: [
                ScriptedStep(version: .v("1.0"), id: "old", until: .v("1.0")),
                ScriptedStep(version: .v("2.0"), id: "broken", behavior: .fail),
                ScriptedStep(version: .v("2.0"), id: "after"),
            ], floor: .floor(.v("1.0"), since: .v("2.0")),
            histories: [FixtureHistory(name: "h", launches: [.v("1.0"), .v("2.0")])])
        let result = try await fixture.replay()
        let timeline = result.timeline(of: result.histories[0])
        #expect(timeline.rows.map(\.id) == ["upgradeFloor_1_0", "old", "broken", "after"])
        #expect(timeline.rows.map(\.isFloor) == [true, false, false, false])
        #expect(timeline.cells[0] == [.notInBuild, .done])
        #expect(timeline.cells[1] == [.finished(attempt: 1), .notInBuild])
        #expect(timeline.cells[2] == [.above, .abandoned(attempt: 1)])
        #expect(timeline.cells[3] == [.above, .finished(attempt: 1)])
        #expect(
            timeline.story(of: result.histories[0].observations) == [
                "1.0 upgraded old", "2.0 upgraded after; gave up broken (1)",
            ])

        let stuck = Fixture(
            name: "stuck",
            steps: [ScriptedStep(version: .v("2.0"), behavior: .fail), ScriptedStep(version: .v("2.1"))],
            histories: [FixtureHistory(name: "h", launches: [.v("1.0"), .v("2.1")])])
        let stuckResult = try await stuck.replay()
        let stuckTimeline = stuckResult.timeline(of: stuckResult.histories[0])
        #expect(stuckTimeline.cells[1] == [.above, .notReached])
        #expect(
            stuckTimeline.story(of: stuckResult.histories[0].observations) == [
                "1.0 fresh", "2.1 failed appUpgradeTo_2_0 (1)",
            ])
    }
}

extension TimelineTests {
    @Test("a follower launch changes nothing: its pending steps are not reached and the next launch starts as before")
    func followers() async throws {
        let loaded = FixtureLoader.load(
            paths: [shippedFolder.appendingPathComponent("41-extension-launches-before-the-app.json").path])
        #expect(loaded.errors.isEmpty)
        let result = try await ReplayReport.replay(loaded.fixtures).fixtures[0]
        let first = result.timeline(of: result.histories[0])
        #expect(first.columns.map(\.isFreshInstall) == [false, true, false])
        #expect(first.columns.map(\.markAfter) == [nil, .v("1.0"), .v("1.0")])
        #expect(
            first.story(of: result.histories[0].observations) == [
                "1.0 deferred (left to the app)", "1.0 fresh", "1.0 up to date",
            ])

        let update = result.timeline(of: result.histories[1])
        #expect(update.rows.map(\.id).first == "appUpgradeTo_1_1")
        #expect(update.cells[0] == [.above, .notReached, .notReached, .finished(attempt: 1), .done])
        #expect(!update.failed)

        let crashes = result.timeline(of: result.histories[2])
        // move-settings crashed at attempt 1; the follower after it leaves the count alone, so the app's
        // next launch finishes it at attempt 2.
        #expect(crashes.cells[1][1] == .crashed(attempt: 1))
        #expect(crashes.cells[1][2] == .notReached)
        #expect(crashes.cells[1][3] == .finished(attempt: 2))
        #expect(crashes.columns.last?.isDowngrade == true)
    }
}

@Suite("The text report tells each history's story")
struct StoryTextTests {
    @Test("a passing history is one line where it fits; a failing one a launch a line, each mismatch under its launch")
    func story() async throws {
        let report = try await sampleReport()
        let lines = report.render(as: .text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("  PASS no expectations: 3.0 fresh · 3.0 up to date"))
        let crashes = try #require(lines.firstIndex(of: "  PASS crash twice"))
        #expect(
            Array(lines[crashes + 1...crashes + 2]) == [
                "       2.0 fresh · 2.0.1 crashed appUpgradeTo_2_0_1 (1) · 2.0.1 crashed appUpgradeTo_2_0_1 (2) ·",
                "       2.0.1 upgraded appUpgradeTo_2_0_1 · 1.0 downgraded",
            ])
        let failing = try #require(lines.firstIndex(of: "  FAIL wrong"))
        #expect(
            Array(lines[failing + 1...failing + 5]) == [
                "       1. 1.0 upgraded appUpgradeTo_1_0",
                "       2. 2.0 upgraded b|c",
                #"            outcome: expected "failed", got "upgraded""#,
                #"            ran: expected ["appUpgradeTo_1_0", "b|c"], got ["b|c"]"#,
                #"            upgradedThrough: expected "1.0", got "2.0""#,
            ])
        #expect(lines.suffix(2) == ["4 passed, 1 failed", ""])
        for line in lines where !line.hasPrefix("PASS") && !line.hasPrefix("FAIL") {
            #expect(line.count <= 100, "\(line)")
        }
    }

    @Test("a history too long for 100 columns goes on the lines under its name, long launches broken after commas")
    func longHistory() async throws {
        let fixture = try FixtureLoader.load(
            file: shippedFolder.appendingPathComponent("40-forty-steps-thirty-launches.json").path)
        let report = ReplayReport(fixtures: [try await fixture.replay()])
        let lines = report.render(as: .text).split(separator: "\n").map(String.init)
        #expect(lines[1] == "  PASS thirty launches: failures, a crash, an abandoned step and rewinds")
        #expect(lines[2].hasPrefix("       1.0 fresh · 1.1 upgraded clear-image-cache, clear-thumbnail-cache,"))
        let path = lines[2..<(lines.count - 1)].map { $0.dropFirst(7) }.joined(separator: " ")
        #expect(path.contains(" · 2.1 failed reindex-titles (2) · "))
        #expect(path.contains(" · 1.0 downgraded (mark 3.0 to 1.0) · "))
        #expect(path.hasSuffix(" · 3.0 up to date · 3.1 up to date"))
        for line in lines.dropFirst() { #expect(line.count <= 100, "\(line)") }
        #expect(lines.last == "1 passed, 0 failed")
    }

    @Test("a failing history goes one launch a line, long launches broken after commas")
    func longFailingHistory() {
        #expect(ReplayReport.wrap("       1. ", "1.0 fresh") == ["       1. 1.0 fresh"])
        let long = "2.0 upgraded " + (1...12).map { "step-number-\($0)" }.joined(separator: ", ")
        let lines = ReplayReport.wrap("       2. ", long)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.count <= 100 })
        #expect(lines[1].hasPrefix("            step-number-"))
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == "2. " + long)
    }

    @Test("the quiet form keeps one line per history and each mismatch in full")
    func quiet() async throws {
        let report = try await sampleReport()
        let lines = report.quietText.split(separator: "\n").map(String.init)
        #expect(lines.contains("  PASS crash twice"))
        #expect(lines.contains("  FAIL wrong"))
        #expect(
            lines.contains(
                #"       wrong <expectation> & "quotes" / wrong / launch 2 (2.0) / ran: expected ["appUpgradeTo_1_0", "b|c"], got ["b|c"]"#
            ))
        #expect(lines.last == "4 passed, 1 failed")
    }
}

@Suite("The HTML report")
struct HTMLReportTests {
    @Test("one self-contained page: summary, legend, a timeline per history, failing first, fixture text escaped")
    func page() async throws {
        let html = try await sampleReport().render(as: .html)
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.hasSuffix("</html>\n"))
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.contains("https://"))
        #expect(html.components(separatedBy: "http://").count - 1 == svgElements(of: html).count)  // the SVG namespace
        #expect(html.components(separatedBy: "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tl\"").count - 1 == 5)
        for figure in [
            "fixtures</dt><dd>2", "histories</dt><dd>5", "launches</dt><dd>13", "passed</dt><dd>4", "failed</dt><dd>1",
        ] {
            #expect(html.contains(figure), "\(figure)")
        }
        #expect(html.contains("wrong &lt;expectation&gt; &amp; &quot;quotes&quot; / wrong"))
        #expect(!html.contains("<expectation>"))
        let failing = try #require(html.range(of: "id=\"h1\""))
        let passing = try #require(html.range(of: "Passing histories"))
        #expect(failing.lowerBound < passing.lowerBound)
        #expect(html[failing.lowerBound...].prefix(400).contains("✗ FAIL"))
        #expect(html.contains("<code>[&quot;appUpgradeTo_1_0&quot;, &quot;b|c&quot;]</code>"))
        #expect(html.contains("class=\"legend\""))
        #expect(html.contains("<title>launch 2 at 2.0, move-settings: failed at attempt 1</title>"))
    }

    @Test("the mark is a line under the last step at or below it, after each launch; a framed launch that differs")
    func markLine() async throws {
        let report = try await sampleReport()
        let passing = TimelineSVG(
            timeline: report.fixtures[0].timeline(of: report.fixtures[0].histories[0]), idPrefix: "a")
        // Rows 1.1, 2.0, 2.0.1; marks 1.0, 1.0, 2.0: above every row twice, then under the second.
        #expect(passing.svg.contains("<path class=\"mark\" d=\"M2 52 H66 V52 H130 V96 H194\">"))
        #expect(!passing.svg.contains("badcol"))
        #expect(passing.labels.contains("aria-hidden=\"true\""))
        let failing = TimelineSVG(
            timeline: report.fixtures[1].timeline(of: report.fixtures[1].histories[1]), idPrefix: "b")
        #expect(failing.headHeight == 64)
        #expect(failing.svg.components(separatedBy: "<rect class=\"badcol\"").count == 2)
        #expect(failing.svg.contains("<g class=\"cell c-done miss\">"))
        #expect(failing.svg.contains(">≠ failed</text>"))
        #expect(failing.svg.contains("<g class=\"markexp\">"))
    }

    #if os(macOS) || os(Linux)
        @Test("every SVG of the page reads as an XML document")
        func svgIsXML() async throws {
            let html = try await sampleReport().render(as: .html)
            let svgs = svgElements(of: html)
            #expect(svgs.count > 5)
            for svg in svgs {
                let root = try #require(try XMLDocument(data: Data(svg.utf8)).rootElement())
                #expect(root.name == "svg")
            }
        }
    #endif

    @Test(
        "escaping: markup characters as references; what HTML or XML cannot carry as U+FFFD",
        arguments: [
            ("a&b<c>\"d\" 'e'", "a&amp;b&lt;c&gt;&quot;d&quot; &#39;e&#39;"),
            ("tab\tline\nfeed\r", "tab\tline\nfeed\r"),
            ("nul\u{0}bell\u{7}del\u{7F}c1\u{85}", "nul\u{FFFD}bell\u{FFFD}del\u{FFFD}c1\u{FFFD}"),
            ("é ✓ 𝄞", "é ✓ 𝄞"),
        ])
    func escaping(text: String, escaped: String) {
        #expect(HTMLText.escape(text) == escaped)
    }

    @Test("noncharacters are replaced too")
    func noncharacters() throws {
        var text = "non"
        for value: UInt32 in [0xFFFE, 0xFDD0, 0x1FFFF] {
            text.unicodeScalars.append(try #require(Unicode.Scalar(value)))
        }
        #expect(HTMLText.escape(text) == "non\u{FFFD}\u{FFFD}\u{FFFD}")
    }

    @Test("explore's findings are drawn as their shortest histories, the last launch framed")
    func explore() async throws {
        let fixture = try FixtureLoader.load(
            file: shippedFolder.appendingPathComponent("37-step-added-later-with-older-version.json").path)
        let result = try await Explorer(fixture: fixture, options: ExplorationOptions()).run()
        #expect(result.findings.count == 1)
        let html = ExplorationReport(results: [result]).render(as: .html)
        #expect(
            html.contains("✗ LATE</span> step-added-later-with-older-version: late step rebuild-search-index (1.2)"))
        #expect(html.components(separatedBy: "class=\"tl\"").count - 1 == result.findings.count)
        #expect(html.contains("class=\"notecol\"") == false)
        #expect(html.contains("class=\"badcol\""))
        #expect(html.contains("states</dt><dd>\(result.stateSpace?.states ?? -1)</dd>"))
        #expect(html.contains("<details class=\"story\">"))
        #expect(html.contains("<g class=\"rl focus\"><title>rebuild-search-index: step, version 1.2, since 2.0"))
    }
}
