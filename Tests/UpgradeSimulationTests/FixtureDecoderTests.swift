import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeFixtures

@Suite("Fixture reader")
struct FixtureDecoderTests {
    static let specExample = """
        {
          "name": "skipped-versions",
          "description": "optional text",
          "policy": { "freshInstall": "skip", "downgrade": "keep", "giveUpAfter": null },
          "steps": [
            { "version": "1.1" },
            { "id": "move-settings", "version": "2.0", "behavior": { "failTimes": 1 } },
            { "version": "2.0.1", "behavior": "crash" }
          ],
          "histories": [
            {
              "name": "1.0 straight to 2.0",
              "launches": ["1.0", "2.0", "2.0"],
              "expect": [
                { "outcome": "freshInstall", "ran": [], "upgradedThrough": "1.0" },
                { "outcome": "failed", "ran": ["appUpgradeTo_1_1", "move-settings"], "upgradedThrough": "1.0" },
                { "outcome": "upgraded", "ran": ["move-settings"], "upgradedThrough": "2.0" }
              ]
            }
          ]
        }
        """

    @Test("reads the example of the fixture format")
    func specExampleDecodes() throws {
        let fixture = try decodeFixture(Self.specExample, file: "Fixtures/skipped.json")
        #expect(fixture.name == "skipped-versions")
        #expect(fixture.summary == "optional text")
        #expect(fixture.file == "Fixtures/skipped.json")
        #expect(fixture.policy == UpgradePolicy())
        #expect(fixture.steps.map(\.id) == ["appUpgradeTo_1_1", "move-settings", "appUpgradeTo_2_0_1"])
        #expect(fixture.steps.map(\.behavior) == [.succeed, .failTimes(1), .crash])
        #expect(fixture.histories.count == 1)
        let history = fixture.histories[0]
        #expect(history.launches == [.v("1.0"), .v("2.0"), .v("2.0")])
        #expect(
            history.expect?[0] == LaunchExpectation(outcome: .freshInstall, ran: [], upgradedThrough: .some(.v("1.0"))))
        #expect(history.expect?[2].abandoned == nil)
    }

    @Test("reads every policy, behaviour and expectation form")
    func everyForm() throws {
        let fixture = try decodeFixture(
            fixtureJSON(
                policy: #"{"freshInstall": {"upgradeFrom": "1.02"}, "downgrade": "rewind", "giveUpAfter": 2}"#,
                steps: """
                    [{"version": "1.0", "behavior": "succeed"}, {"version": "1.1", "behavior": "fail"},
                     {"version": "1.2", "behavior": {"crashTimes": 2}}, {"version": "1.3", "durationMs": 50,
                     "behavior": {"script": ["fail", "crash", "ok"]}}, {"version": "8.8", "id": "a b"}]
                    """,
                histories: """
                    [{"name": "h", "launches": ["1.0", "8.8.0"],
                      "expect": [{}, {"outcome": "upgraded", "abandoned": ["a b"], "upgradedThrough": null}]}]
                    """))
        #expect(
            fixture.policy == UpgradePolicy(freshInstall: .upgradeFrom(.v("1.2")), downgrade: .rewind, giveUpAfter: 2))
        #expect(fixture.steps[2].behavior == .crashTimes(2))
        #expect(fixture.steps[3].behavior == .script([.fail, .crash, .ok]))
        #expect(fixture.steps[3].durationMs == 50)
        #expect(fixture.steps[4].id == "a b")
        #expect(fixture.histories[0].expect?[0] == LaunchExpectation())
        #expect(fixture.histories[0].expect?[1].upgradedThrough == .some(nil))
        let other = try decodeFixture(fixtureJSON(policy: #"{"freshInstall": "runAll"}"#))
        #expect(other.policy.freshInstall == .runAll)
    }

    @Test("the default id is the step-name form of the version as written")
    func defaultIDs() throws {
        let fixture = try decodeFixture(
            fixtureJSON(steps: #"[{"version": "8.8"}, {"version": "8.8.0"}, {"version": "01.002.3"}]"#))
        #expect(fixture.steps.map(\.id) == ["appUpgradeTo_8_8", "appUpgradeTo_8_8_0", "appUpgradeTo_1_2_3"])
    }

    @Test("reads the optional versions list, for explore")
    func versionsList() throws {
        let fixture = try decodeFixture(
            #"{"name": "x", "versions": ["3.0", "1.5"], "steps": [{"version": "2.0"}, {"version": "1.5.0"}], "histories": []}"#
        )
        #expect(fixture.versions == [.v("3.0"), .v("1.5")])
        #expect(fixture.namedVersions.map(\.description) == ["1.5.0", "2.0", "3.0"])
    }

    /// One fault of each kind: the document, the JSON path it must name, and words of the message.
    static let faults: [(String, String, String)] = [
        ("{\"name\": \"x\",\n \"steps\": [}", "steps[0]", "invalid JSON: unexpected character \"}\"; expected a value"),
        ("[]", "", "expected an object, found a list"),
        (
            fixtureJSON(steps: #"[{"version": "1.0", "behaviour": "fail"}]"#), "steps[0].behaviour",
            "unknown key \"behaviour\" (did you mean \"behavior\"?)"
        ),
        (#"{"name": "x", "steps": [], "histories": [], "extra": 1}"#, "extra", "unknown key \"extra\""),
        (#"{"steps": [], "histories": []}"#, "", "missing the required key \"name\""),
        (#"{"name": "x", "histories": []}"#, "", "missing the required key \"steps\""),
        (fixtureJSON(steps: #"[{"id": "a"}]"#), "steps[0]", "missing the required key \"version\""),
        (fixtureJSON(name: ""), "name", "must not be empty"),
        (#"{"name": 3, "steps": [], "histories": []}"#, "name", "expected a string, found the number 3"),
        (fixtureJSON(steps: #"{"version": "1.0"}"#), "steps", "expected a list, found an object"),
        (fixtureJSON(steps: #"[{"version": 1.0}]"#), "steps[0].version", "expected a version in quotes"),
        (
            fixtureJSON(steps: #"[{"version": "1.x"}]"#), "steps[0].version",
            #""1.x": unexpected character "x" at offset 2"#
        ),
        (
            fixtureJSON(histories: #"[{"name": "h", "launches": ["1.0"]}, {"name": "i", "launches": ["1.0.0.1"]}]"#),
            "histories[1].launches[0]", #""1.0.0.1": more than 3 components"#
        ),
        (
            fixtureJSON(steps: #"[{"version": "1.0", "id": "a"}, {"version": "2.0", "id": "a"}]"#), "steps[1].id",
            "duplicate step id \"a\": steps[0] has it too"
        ),
        (
            fixtureJSON(steps: #"[{"version": "1.0"}, {"version": "1.00"}]"#), "steps[1].version",
            "duplicate step id \"appUpgradeTo_1_0\" (the default id of version 1.0)"
        ),
        (fixtureJSON(steps: #"[{"version": "1.0", "id": "a\nb"}]"#), "steps[0].id", "control characters"),
        (
            fixtureJSON(histories: #"[{"name": "h", "launches": ["1.0", "2.0"], "expect": [{}]}]"#),
            "histories[0].expect", "has 1 entry but launches has 2"
        ),
        (
            fixtureJSON(histories: #"[{"name": "h", "launches": []}]"#), "histories[0].launches",
            "a history needs at least one launch"
        ),
        (
            fixtureJSON(histories: #"[{"name": "h", "launches": ["1.0"]}, {"name": "h", "launches": ["1.0"]}]"#),
            "histories[1].name", "duplicate history name \"h\": histories[0] has it too"
        ),
        (fixtureJSON(policy: #"{"giveUpAfter": 0}"#), "policy.giveUpAfter", "giveUpAfter must be at least 1"),
        (fixtureJSON(policy: #"{"giveUpAfter": true}"#), "policy.giveUpAfter", "found true"),
        (fixtureJSON(policy: #"{"giveUpAfter": 1.5}"#), "policy.giveUpAfter", "found the number 1.5"),
        (
            fixtureJSON(policy: #"{"freshInstall": "never"}"#), "policy.freshInstall",
            "unknown freshInstall policy \"never\""
        ),
        (
            fixtureJSON(policy: #"{"freshInstall": {"from": "1.0"}}"#), "policy.freshInstall.from",
            "unknown key \"from\""
        ),
        (
            fixtureJSON(policy: #"{"freshInstall": {"upgradeFrom": "x"}}"#), "policy.freshInstall.upgradeFrom",
            #""x": unexpected character"#
        ),
        (fixtureJSON(policy: #"{"downgrade": "forget"}"#), "policy.downgrade", "unknown downgrade policy \"forget\""),
        (
            fixtureJSON(steps: #"[{"version": "1.0", "behavior": "explode"}]"#), "steps[0].behavior",
            "unknown behavior \"explode\""
        ),
        (
            fixtureJSON(steps: #"[{"version": "1.0", "behavior": {"failTimes": 0}}]"#), "steps[0].behavior.failTimes",
            "failTimes must be at least 1"
        ),
        (
            fixtureJSON(steps: #"[{"version": "1.0", "behavior": {"failTimes": 1, "crashTimes": 1}}]"#),
            "steps[0].behavior", "exactly one of the keys"
        ),
        (
            fixtureJSON(steps: #"[{"version": "1.0", "behavior": {"script": []}}]"#), "steps[0].behavior.script",
            "at least one entry"
        ),
        (
            fixtureJSON(steps: #"[{"version": "1.0", "behavior": {"script": ["ok", "boom"]}}]"#),
            "steps[0].behavior.script[1]", "unknown script entry \"boom\""
        ),
        (fixtureJSON(steps: #"[{"version": "1.0", "behavior": false}]"#), "steps[0].behavior", "found false"),
        (
            fixtureJSON(steps: #"[{"version": "1.0", "durationMs": -1}]"#), "steps[0].durationMs",
            "durationMs must be at least 0"
        ),
        (
            fixtureJSON(histories: #"[{"name": "h", "launches": ["1.0"], "expect": [{"outcome": "done"}]}]"#),
            "histories[0].expect[0].outcome", "unknown outcome \"done\"; expected one of freshInstall, upToDate"
        ),
        (
            fixtureJSON(histories: #"[{"name": "h", "launches": ["1.0"], "expect": [{"outcome": "canceled"}]}]"#),
            "histories[0].expect[0].outcome", "unknown outcome \"canceled\""
        ),
        (
            fixtureJSON(histories: #"[{"name": "h", "launches": ["1.0"], "expect": [{"ran": ["ghost"]}]}]"#),
            "histories[0].expect[0].ran[0]", "no step has the id \"ghost\""
        ),
        (
            fixtureJSON(histories: #"[{"name": "h", "launches": ["1.0"], "expect": [{"upgradedThrough": 1}]}]"#),
            "histories[0].expect[0].upgradedThrough", "found the number 1"
        ),
        (
            fixtureJSON(histories: #"[{"name": "h", "launches": ["1.0"], "expect": [{"abandoned": "x"}]}]"#),
            "histories[0].expect[0].abandoned", "expected a list, found the string \"x\""
        ),
        (
            #"{"name": "x", "steps": [], "histories": [], "versions": ["1.0", "v2.0"]}"#, "versions[1]",
            #""v2.0": unexpected character "v""#
        ),
    ]

    @Test("names the file, the JSON path and the fault", arguments: faults)
    func faultsAreReported(document: String, path: String, words: String) {
        guard let error = fixtureError(document, file: "Fixtures/broken.json") else {
            Issue.record("accepted: \(document)")
            return
        }
        #expect(error.file == "Fixtures/broken.json")
        #expect(error.path.description == path, "\(error)")
        #expect(error.message.contains(words), "\(error)")
        let prefix = path.isEmpty ? "Fixtures/broken.json" : "Fixtures/broken.json: \(path): "
        #expect(error.description.hasPrefix(prefix) || error.line != nil, "\(error)")
    }

    @Test("a syntax error gives line and column after the file name")
    func syntaxErrorDescription() throws {
        let error = try #require(fixtureError("{\"name\": \"x\",\n \"steps\": [}", file: "a.json"))
        #expect(error.line == 2)
        #expect(error.column == 12)
        #expect(
            error.description == "a.json:2:12: steps[0]: invalid JSON: unexpected character \"}\"; expected a value")
    }

    @Test("writes a fixture that reads back equal")
    func jsonTextRoundTrip() throws {
        let fixture = try decodeFixture(Self.specExample, file: "a.json")
        var copy = try decodeFixture(fixture.jsonText, file: "a.json")
        #expect(copy == fixture)
        let rich = try decodeFixture(
            fixtureJSON(
                policy: #"{"freshInstall": {"upgradeFrom": "1.0"}, "downgrade": "rewind", "giveUpAfter": 3}"#,
                steps: #"[{"version": "1.1", "id": "x\"y", "durationMs": 5, "behavior": {"script": ["crash", "ok"]}}]"#,
                histories:
                    #"[{"name": "h", "launches": ["1.0"], "expect": [{"upgradedThrough": null, "abandoned": []}]}]"#))
        copy = try decodeFixture(rich.jsonText, file: "fixture.json")
        #expect(copy == rich)
    }

    @Test("loads folders recursively in path order, skipping hidden files, and reports each bad file")
    func loadingPaths() throws {
        let folder = try TemporaryDirectory("loader")
        let fm = FileManager.default
        try fm.createDirectory(at: folder.file("b/c"), withIntermediateDirectories: true)
        try fm.createDirectory(at: folder.file(".hidden"), withIntermediateDirectories: true)
        try fixtureJSON(name: "two").write(to: folder.file("b/c/two.json"), atomically: true, encoding: .utf8)
        try fixtureJSON(name: "one").write(to: folder.file("b/one.json"), atomically: true, encoding: .utf8)
        try fixtureJSON(name: "zero").write(to: folder.file("a.json"), atomically: true, encoding: .utf8)
        try fixtureJSON(name: "hidden").write(to: folder.file(".hidden/h.json"), atomically: true, encoding: .utf8)
        try "notes".write(to: folder.file("b/readme.txt"), atomically: true, encoding: .utf8)
        try "{".write(to: folder.file("b/c/zz-broken.json"), atomically: true, encoding: .utf8)

        let loaded = FixtureLoader.load(paths: [folder.url.path, folder.file("missing").path])
        // Sorted by path as text: b/c/... comes before b/one.json.
        #expect(loaded.fixtures.map(\.name) == ["zero", "two", "one"])
        #expect(
            loaded.fixtures.map(\.file) == ["a.json", "b/c/two.json", "b/one.json"].map { folder.url.path + "/" + $0 })
        #expect(loaded.errors.count == 2)
        #expect(loaded.errors.first?.file == folder.url.path + "/b/c/zz-broken.json")
        #expect(loaded.errors.last?.description == "\(folder.file("missing").path): no such file or folder")

        let empty = try TemporaryDirectory("empty")
        #expect(FixtureLoader.load(paths: [empty.url.path]).errors.first?.message.contains("no fixture") == true)
    }
}
