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

private let shippedFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

private func shipped(_ name: String) throws -> Fixture {
    try FixtureLoader.load(file: shippedFixtures.appendingPathComponent(name).path)
}

private func explore(_ fixture: Fixture, _ options: ExplorationOptions = ExplorationOptions()) async throws
    -> ExplorationResult
{
    try await Explorer(fixture: fixture, options: options).run()
}

@Suite("explore: late and lost steps")
struct FindingTests {
    @Test("a step added later with an older version is late, with its shortest history; not allowed: not passed")
    func late() async throws {
        let result = try await explore(try shipped("37-step-added-later-with-older-version.json"))
        #expect(result.guaranteesHeld)
        #expect(result.findings.map(\.kind) == [.late])
        let finding = try #require(result.findings.first)
        #expect(finding.stepID == "rebuild-search-index" && finding.stepVersion == .v("1.2"))
        #expect(finding.launches == [.v("1.0"), .v("1.2")])
        #expect(finding.detail.contains("since 2.0"))
        #expect(!finding.allowed && !result.passed)
        #expect((result.findingLaunches[.late] ?? 0) > 0)
    }

    @Test("a step removed before every device ran it is lost")
    func lost() async throws {
        let result = try await explore(try shipped("38-crash-looping-step-removed-in-hotfix.json"))
        #expect(result.guaranteesHeld)
        #expect(result.findings.map(\.stepID) == ["reindex"])
        #expect(result.findings.first?.kind == .lost)
        #expect(result.findings.first?.detail.contains("until 2.0") == true)
    }

    @Test("--allow and a step's allow list accept a finding; it is still reported")
    func allowed() async throws {
        var fixture = try shipped("37-step-added-later-with-older-version.json")
        let byOption = try await explore(fixture, ExplorationOptions(allow: [.late]))
        #expect(byOption.passed && byOption.findings.count == 1 && byOption.findings[0].allowed)
        let otherKind = try await explore(fixture, ExplorationOptions(allow: [.lost]))
        #expect(!otherKind.passed)
        fixture.steps[1].allow = [.late]
        let byStep = try await explore(fixture)
        #expect(byStep.passed && byStep.findings.first?.allowed == true)
    }

    @Test("a floor at or above a removed step stands in for it: no finding; a floor below it does not")
    func floorCovers() async throws {
        let steps = [
            ScriptedStep(version: .v("1.5"), id: "old", until: .v("2.0")), ScriptedStep(version: .v("3.0")),
        ]
        let covered = Fixture(name: "covered", steps: steps, floor: .floor(.v("2.0"), since: .v("2.0.1")))
        let result = try await explore(covered, ExplorationOptions(depth: 3, allPolicies: true))
        #expect(result.passed, "\(result.violations.map(\.detail)) \(result.findings.map(\.detail))")
        let below = Fixture(name: "below", steps: steps, floor: .floor(.v("1.2"), since: .v("2.0.1")))
        let lost = try await explore(below, ExplorationOptions(depth: 3))
        #expect(lost.guaranteesHeld)
        #expect(lost.findings.map(\.stepID) == ["old"])
        #expect(lost.findings.first?.detail.contains("the floor is below it") == true)
    }

    @Test("the shipped floor fixture keeps every guarantee and has no finding under every policy")
    func shippedFloor() async throws {
        let result = try await explore(
            try shipped("39-floor-after-three-releases.json"), ExplorationOptions(depth: 4, allPolicies: true))
        #expect(result.passed, "\(result.violations.map(\.detail)) \(result.findings.map(\.detail))")
        #expect(result.findings.isEmpty)
    }

    @Test("steps below the fresh-install baseline are never findings")
    func baseline() async throws {
        let fixture = Fixture(
            name: "baseline", policy: UpgradePolicy(freshInstall: .upgradeFrom(.v("2.0"))),
            steps: [ScriptedStep(version: .v("1.5"), until: .v("1.9")), ScriptedStep(version: .v("3.0"))])
        #expect(try await explore(fixture).findings.isEmpty)
    }

    @Test("a finding's shortest history, as a fixture, replays exactly through run")
    func replays() async throws {
        for name in ["37-step-added-later-with-older-version.json", "38-crash-looping-step-removed-in-hotfix.json"] {
            let fixture = try shipped(name)
            let result = try await explore(fixture, ExplorationOptions(allPolicies: true))
            for finding in result.findings {
                let found = finding.fixture(from: fixture, engine: .standard)
                var decoded = try decodeFixture(found.jsonText)
                decoded.file = nil
                #expect(decoded == found)
                let replay = try await found.replay()
                #expect(replay.passed, "\(replay.mismatches)")
            }
        }
    }

    @Test("the naive engine runs the methods of each build: a removed step is simply gone")
    func naiveBuilds() {
        let naive = NaiveUpgrader(
            steps: [ScriptedStep(version: .v("2.0"), id: "gone", until: .v("2.0")), ScriptedStep(version: .v("2.1"))],
            floor: .floor(.v("1.5"), since: .v("2.0.1")))
        let old = naive.launch(at: .v("2.1"), from: .initial(stepCount: 3))
        #expect(old.observation.ran == ["upgradeFloor_1_5", "appUpgradeTo_2_1"])
        let inBuild = naive.launch(at: .v("2.0"), from: .initial(stepCount: 3))
        #expect(inBuild.observation.ran == ["gone", "appUpgradeTo_2_1"])
    }
}

@Suite("explore: each guarantee judged against the launch's build")
struct BuildGuaranteeTests {
    let catalog = ExplorationCatalog(
        steps: [
            ScriptedStep(version: .v("1.1"), id: "a"), ScriptedStep(version: .v("1.2"), id: "late", since: .v("2.0")),
            ScriptedStep(version: .v("1.5"), id: "b"),
            ScriptedStep(version: .v("1.6"), id: "gone", until: .v("1.9")),
        ])

    func record(_ launches: [(String, LaunchObservation)]) -> (broken: [Guarantee], findings: [String]) {
        var tracker = GuaranteeTracker(
            catalog: catalog, policy: UpgradePolicy(freshInstall: .runAll), engine: .standard)
        var broken: [Guarantee] = []
        var findings: [String] = []
        for (version, observation) in launches {
            let result = tracker.record(observation, at: .v(version), engine: .standard)
            broken += result.broken.map(\.0)
            findings += result.findings.map { "\($0.0) \($0.1)" }
        }
        return (broken, findings)
    }

    @Test("across launches, run order binds only the steps every build of the history has")
    func runOrderAcrossBuilds() {
        // b finished at 1.5; late (1.2, since 2.0) finishes after it at 2.0: no build before 2.0 had it.
        let found = record([
            (
                "1.6",
                LaunchObservation(
                    outcome: .failed, ran: ["a", "b", "gone"], upgradedThrough: nil, finished: ["a", "b"])
            ),
            (
                "2.0",
                LaunchObservation(outcome: .upgraded, ran: ["late"], upgradedThrough: .v("2.0"), finished: ["late"])
            ),
        ])
        #expect(found.broken.isEmpty, "\(found)")
        // Within one launch, run order still binds.
        let within = record([
            (
                "2.0",
                LaunchObservation(
                    outcome: .upgraded, ran: ["b", "late"], upgradedThrough: .v("2.0"), finished: ["b", "late"])
            )
        ])
        #expect(within.broken.contains(.stepsFinishInRunOrder))
    }

    @Test("a failed step that the next build lacks is no longer owed a retry")
    func failedStepRemoved() {
        let found = record([
            (
                "1.6",
                LaunchObservation(
                    outcome: .failed, ran: ["a", "b", "gone"], upgradedThrough: nil, finished: ["a", "b"])
            ),
            (
                "2.0",
                LaunchObservation(outcome: .upgraded, ran: ["late"], upgradedThrough: .v("2.0"), finished: ["late"])
            ),
        ])
        #expect(!found.broken.contains(.failedStepIsRetriedFirst))
        #expect(found.findings == ["lost gone"])
    }

    @Test("completeness counts only the running build's steps; late and lost steps are findings, not violations")
    func completeness() {
        let found = record([
            (
                "1.9",
                LaunchObservation(
                    outcome: .upgraded, ran: ["a", "b", "gone"], upgradedThrough: .v("1.9"),
                    finished: ["a", "b", "gone"])
            ),
            ("2.0", LaunchObservation(outcome: .upToDate, upgradedThrough: .v("2.0"))),
        ])
        // late (1.2, since 2.0) was passed at 1.9, whose build lacks it: a finding, then exempt at 2.0.
        #expect(found.broken.isEmpty, "\(found)")
        #expect(found.findings == ["late late"])
    }
}

@Suite("explore reports in every format")
struct ExplorationReportTests {
    func report() async throws -> ExplorationReport {
        let late = try await explore(try shipped("37-step-added-later-with-older-version.json"))
        let lost = try await explore(
            try shipped("38-crash-looping-step-removed-in-hotfix.json"), ExplorationOptions(allow: [.lost]))
        return ExplorationReport(results: [late, lost])
    }

    @Test("the summary counts guarantees broken and findings, and passes only when every finding is allowed")
    func summary() async throws {
        let report = try await report()
        #expect(report.summaryLine == "0 guarantees broken; 2 findings (1 late, 1 lost), 1 allowed")
        #expect(!report.passed)
        #expect(report.render(as: .text).contains("  LATE rebuild-search-index (1.2): "))
        #expect(report.render(as: .text).contains("  LOST reindex (2.0), allowed: "))
    }

    @Test("JSON: each finding with its kind, step, allowance, history and replayable fixture")
    func json() async throws {
        let text = try await report().render(as: .json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["findings"] as? Int == 2)
        #expect(document["allowedFindings"] as? Int == 1)
        let fixtures = try #require(document["fixtures"] as? [[String: Any]])
        let finding = try #require((fixtures[1]["findings"] as? [[String: Any]])?.first)
        #expect(finding["kind"] as? String == "lost")
        #expect(finding["step"] as? String == "reindex")
        #expect(finding["allowed"] as? Bool == true)
        let fixture = try JSONSerialization.data(withJSONObject: try #require(finding["fixture"]))
        let decoded = try FixtureLoader.decode(fixture, file: "finding.json")
        #expect(try await decoded.replay().passed)
    }

    // XMLDocument exists only in macOS's Foundation and in FoundationXML (Linux).
    #if os(macOS) || os(Linux)
        @Test("JUnit: a failing case per unallowed finding, a skipped one per allowed finding")
        func junit() async throws {
            let text = try await report().render(as: .junit)
            let document = try XMLDocument(data: Data(text.utf8))
            let failures = try document.nodes(forXPath: "//failure")
            #expect(failures.count == 1)
            #expect((failures.first as? XMLElement)?.attribute(forName: "type")?.stringValue == "late")
            #expect(try document.nodes(forXPath: "//skipped").count == 1)
            #expect(try document.nodes(forXPath: "//testcase").count == 2 * Guarantee.allCases.count + 2)
        }
    #endif

    @Test("Markdown: a table of findings and each history as a fixture")
    func markdown() async throws {
        let text = try await report().render(as: .markdown)
        #expect(text.contains("#### Late and lost steps"))
        #expect(text.contains("| step-added-later-with-older-version | late | `rebuild-search-index` (1.2) | no |"))
        #expect(text.contains("<summary>crash-looping-step-removed-in-hotfix-lost-reindex</summary>"))
    }
}
