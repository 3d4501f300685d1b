import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeExplorer
@testable import UpgradeFixtures
@testable import UpgradeReplay
@testable import UpgradeSimReports

/// A history's `legacyVersion` (the naive pattern's version under a legacy key before the first
/// launch) and an expectation's `adoptedFrom` (<doc:UpgradeSimulation>, "The fixture format"): read
/// strictly, replayed through the real `LegacyVersionAdopter` in memory and in processes, explored as
/// the fixture's policy with `upgradeFrom` that version.
@Suite("Legacy keys in fixtures")
struct LegacyVersionFixtureTests {
    static let sample = fixtureJSON(
        steps: #"[{"version": "2.0"}, {"version": "3.0", "id": "move", "behavior": {"crashTimes": 1}}]"#,
        histories: """
            [{"name": "adopts 1.0", "legacyVersion": "1.0", "launches": ["3.0", "3.0", "3.0"],
              "expect": [
                {"outcome": "crashed", "ran": ["appUpgradeTo_2_0", "move"], "upgradedThrough": "1.0",
                 "adoptedFrom": "1.0"},
                {"outcome": "upgraded", "ran": ["move"], "upgradedThrough": "3.0", "adoptedFrom": null},
                {"outcome": "upToDate", "adoptedFrom": null}]},
             {"name": "at the legacy version itself nothing is written, so nothing is adopted yet",
              "legacyVersion": "3.0", "launches": ["3.0", "3.0"],
              "expect": [{"outcome": "upToDate", "upgradedThrough": "3.0", "adoptedFrom": null},
                         {"outcome": "upToDate", "adoptedFrom": null}]},
             {"name": "no key", "launches": ["3.0"],
              "expect": [{"outcome": "freshInstall", "adoptedFrom": null}]}]
            """)

    @Test("reads legacyVersion and adoptedFrom, and writes them back")
    func decodes() throws {
        let fixture = try decodeFixture(Self.sample)
        #expect(fixture.histories.map(\.legacyVersion) == [.v("1.0"), .v("3.0"), nil])
        #expect(fixture.histories[0].expect?.map(\.adoptedFrom) == [.some(.v("1.0")), .some(nil), .some(nil)])
        #expect(try decodeFixture(fixture.jsonText) == fixture)
    }

    @Test(
        "a bad legacyVersion or adoptedFrom is an error naming the file, the path and what is wrong",
        arguments: [
            (
                #""legacyVersion": "2.0.x", "launches": ["3.0"]"#, "histories[0].legacyVersion",
                "unexpected character \"x\""
            ),
            (#""legacyVersion": true, "launches": ["3.0"]"#, "histories[0].legacyVersion", "version"),
            (
                #""launches": ["3.0"], "expect": [{"adoptedFrom": "2.0"}]"#, "histories[0].expect[0].adoptedFrom",
                "needs a legacy key"
            ),
            (
                #""legacyVersion": "1.0", "launches": ["3.0"], "expect": [{"adoptedFrom": "2.0"}]"#,
                "histories[0].expect[0].adoptedFrom", "is not the history's legacyVersion 1.0"
            ),
            (
                #""legacyVersion": "1.0", "launches": ["3.0"], "expect": [{"adoptedFrom": 1}]"#,
                "histories[0].expect[0].adoptedFrom", "version"
            ),
        ])
    func errors(history: String, path: String, words: String) throws {
        let json = fixtureJSON(steps: #"[{"version": "2.0"}]"#, histories: "[{\"name\": \"h\", \(history)}]")
        let error = try #require(fixtureError(json, file: "legacy.json"))
        #expect(error.file == "legacy.json")
        #expect(error.path == path, "\(error)")
        #expect(error.description.contains(words), "\(error)")
        #expect(error.description.contains("legacy.json"), "\(error)")
    }

    @Test("in memory: the launch that writes the first state adopts the version; later ones adopt nothing")
    func inMemory() async throws {
        let result = try await decodeFixture(Self.sample).replay()
        for history in result.histories { #expect(history.passed, "\(history.name): \(history.mismatches)") }
        #expect(result.histories[0].observations.map(\.adoptedFrom) == [.v("1.0"), nil, nil])
        // Without the adoption the first launch would be a fresh install: the check has teeth.
        var wrong = try decodeFixture(Self.sample)
        wrong.histories[0].expect?[0].adoptedFrom = .some(nil)
        let mismatched = try await wrong.replay().histories[0].mismatches
        #expect(mismatched.map(\.key) == [.adoptedFrom])
        #expect(mismatched.first?.got == "\"1.0\"")
    }

    @Test("explore searches a legacy version as the fixture's policy with upgradeFrom it")
    func explore() throws {
        let fixture = try decodeFixture(Self.sample)
        let policies = fixture.explorationPolicies(all: false)
        #expect(policies.map(\.freshInstall) == [.skip, .upgradeFrom(.v("1.0")), .upgradeFrom(.v("3.0"))])
        #expect(fixture.explorationVersions.contains(.v("1.0")))
    }

    static let shippedFixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/44-first-release-adopts-the-legacy-key.json")

    @Test("the shipped fixture 44 replays in memory, each adoption where it expects one")
    func shipped() async throws {
        let fixture = try FixtureLoader.load(file: Self.shippedFixture.path)
        let result = try await fixture.replay()
        for history in result.histories { #expect(history.passed, "\(history.name): \(history.mismatches)") }
        #expect(
            result.histories.map { $0.observations.compactMap(\.adoptedFrom) } == [
                [.v("2.5")], [.v("1.0")], [.v("2.5")], [],
            ])
    }
}

#if os(macOS) || os(Linux)
    @Suite("Legacy keys in fixtures: one real process per launch")
    struct LegacyVersionProcessTests {
        @Test("run --processes: the file store behind a real adopter adopts as in memory, a killed launch too")
        func processesAgreeWithMemory() async throws {
            var fixture = try decodeFixture(LegacyVersionFixtureTests.sample)
            fixture.file = nil
            let inMemory = try await fixture.replay()
            let inProcesses = try await fixture.replay(mode: .processes(executable: Binary.url))
            #expect(inProcesses == inMemory)
            for history in inProcesses.histories {
                #expect(history.passed, "\(history.name): \(history.mismatches)")
            }
        }

        @Test("the built upgrade-sim runs the shipped fixture 44", arguments: [[], ["--processes"]])
        func shipped(mode: [String]) async throws {
            let result = try await Binary.run(["run", LegacyVersionFixtureTests.shippedFixture.path] + mode)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("4 passed, 0 failed"), "\(result.stdout)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }

        @Test("plan --legacy-version says the launch will adopt the version, and writes no state")
        func plan() async throws {
            let folder = try TemporaryDirectory("plan-legacy")
            let state = folder.file("state.json")
            let plan = try await Binary.run([
                "plan", "--fixture", LegacyVersionFixtureTests.shippedFixture.path, "--store", state.path,
                "--version", "3.1", "--legacy-version", "2.5",
            ])
            #expect(plan.status == 0, "\(plan.stderr)")
            let lines = plan.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "launch at 3.1: upgraded (upgraded through 2.5)", "\(plan.stdout)")
            #expect(
                lines.dropFirst().first?.hasPrefix(
                    "  notice: will adopt version 2.5 from the legacy key \"localAppVersion\"") == true,
                "\(plan.stdout)")
            #expect(lines.contains("  move-settings (3.0): will run, attempt 1"), "\(plan.stdout)")
            #expect(!FileManager.default.fileExists(atPath: state.path))

            // Without the key the same state file is a fresh install's.
            let fresh = try await Binary.run([
                "plan", "--fixture", LegacyVersionFixtureTests.shippedFixture.path, "--store", state.path,
                "--version", "3.1",
            ])
            #expect(fresh.stdout.hasPrefix("launch at 3.1: freshInstall"), "\(fresh.stdout)")
            #expect(!fresh.stdout.contains("notice:"), "\(fresh.stdout)")
        }

        @Test("launch --legacy-version prints adoptedFrom on the launch that adopts, and only there")
        func launch() async throws {
            let folder = try TemporaryDirectory("launch-legacy")
            let fixtureFile = folder.file("fixture.json")
            try Data(fixtureJSON(steps: #"[{"version": "2.0"}, {"version": "3.0"}]"#).utf8).write(to: fixtureFile)
            let state = folder.file("state.json")
            func launch(_ version: String) async throws -> String {
                let result = try await Binary.run([
                    "launch", "--fixture", fixtureFile.path, "--store", state.path, "--version", version,
                    "--legacy-version", "1.0",
                ])
                #expect(result.status == 0, "\(result.stderr)")
                return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            #expect(
                try await launch("3.0")
                    == #"{"outcome": "upgraded", "ran": ["appUpgradeTo_2_0", "appUpgradeTo_3_0"], "abandoned": [],"#
                    + #" "upgradedThrough": "3.0", "adoptedFrom": "1.0"}"#)
            #expect(
                try await launch("3.0")
                    == #"{"outcome": "upToDate", "ran": [], "abandoned": [], "upgradedThrough": "3.0"}"#)
            // The key lives beside the state file, as the naive pattern left it.
            #expect(FileManager.default.fileExists(atPath: state.path + ".legacy-defaults.plist"))
        }
    }
#endif
