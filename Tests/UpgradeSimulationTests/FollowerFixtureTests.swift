import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

@testable import UpgradeFixtures

/// Follower launches in fixtures: `{"version": "2.0", "follower": true}`, replayed in memory and in
/// real processes (`launch --follower`), and `deferred` in `expect`.
@Suite("Follower launches in fixtures")
struct FollowerFixtureTests {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/41-extension-launches-before-the-app.json")

    static let sample = fixtureJSON(
        steps: #"[{"version": "1.1", "id": "move"}]"#,
        histories: """
            [{"name": "h", "launches": [{"version": "1.0", "follower": true}, "1.0", {"version": "1.1", "follower": false},
              {"version": "1.2", "follower": true}],
              "expect": [{"outcome": "deferred", "upgradedThrough": null}, {"outcome": "freshInstall"},
                         {"outcome": "upgraded", "ran": ["move"]}, {"outcome": "upToDate", "upgradedThrough": "1.1"}]}]
            """)

    @Test("reads follower launches, replays them in memory, and writes them back")
    func decodeAndReplay() async throws {
        let fixture = try decodeFixture(Self.sample)
        let history = try #require(fixture.histories.first)
        #expect(history.launches == [.v("1.0"), .v("1.0"), .v("1.1"), .v("1.2")])
        #expect(history.followers == [0, 3])
        #expect(history.role(at: 0) == .follower && history.role(at: 2) == .app)
        #expect(try decodeFixture(fixture.jsonText) == fixture)
        #expect(fixture.jsonText.contains(#""follower": true"#))
        let result = try await fixture.replay()
        #expect(result.passed, "\(result.mismatches)")
        #expect(result.histories[0].observations.map(\.outcome) == [.deferred, .freshInstall, .upgraded, .upToDate])
    }

    static let faults: [(String, String, String)] = [
        (#"[{"follower": true}]"#, "histories[0].launches[0]", "missing the required key \"version\""),
        (#"[{"version": "1.0", "follower": "yes"}]"#, "histories[0].launches[0].follower", "expected true or false"),
        (#"[{"version": "1.0", "folower": true}]"#, "histories[0].launches[0].folower", "did you mean \"follower\""),
        (#"[{"version": "1.x", "follower": true}]"#, "histories[0].launches[0].version", "\"1.x\""),
        (#"["1.0", true]"#, "histories[0].launches[1]", "or a launch object"),
        (#"["1.0", [1]]"#, "histories[0].launches[1]", "found a list"),
        (#"[1.0]"#, "histories[0].launches[0]", "expected a version in quotes"),
    ]

    @Test("a bad launch entry is named with its JSON path and what is wrong", arguments: faults)
    func badLaunchEntries(launches: String, path: String, words: String) {
        let document = fixtureJSON(histories: #"[{"name": "h", "launches": "# + launches + "}]")
        guard let error = fixtureError(document, file: "Fixtures/broken.json") else {
            Issue.record("accepted: \(launches)")
            return
        }
        #expect(error.path.description == path, "\(error)")
        #expect(error.message.contains(words), "\(error)")
        #expect(error.description.hasPrefix("Fixtures/broken.json: \(path): "), "\(error)")
    }

    @Test("the shipped fixture of an extension launching before the app passes in memory")
    func shippedFixture() async throws {
        let loaded = FixtureLoader.load(paths: [Self.shipped.path])
        let fixture = try #require(loaded.fixtures.first, "\(loaded.errors)")
        #expect(fixture.histories.allSatisfy { !$0.followers.isEmpty })
        let result = try await fixture.replay()
        #expect(result.passed, "\(result.mismatches)")
    }

    #if os(macOS) || os(Linux)
        @Test("launch --follower reads a state file and never writes it; run --processes agrees with memory")
        func processes() async throws {
            let folder = try TemporaryDirectory("follower")
            let state = folder.file("state.json")
            func launch(_ version: String, follower: Bool) async throws -> Binary.Result {
                try await Binary.run(
                    ["launch", "--fixture", Self.shipped.path, "--store", state.path, "--version", version]
                        + (follower ? ["--follower"] : []))
            }
            let first = try await launch("1.0", follower: true)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                first.stdout
                    == #"{"outcome": "deferred", "ran": [], "abandoned": [], "upgradedThrough": null, "deferral": "left to the app"}"#
                    + "\n")
            #expect(!FileManager.default.fileExists(atPath: state.path))
            #expect(try await launch("1.0", follower: false).status == 0)
            let written = try Data(contentsOf: state)
            let deferred = try await launch("1.1", follower: true)
            #expect(deferred.stdout.hasPrefix(#"{"outcome": "deferred""#))
            #expect(try Data(contentsOf: state) == written)

            let fixture = try #require(FixtureLoader.load(paths: [Self.shipped.path]).fixtures.first)
            let inMemory = try await fixture.replay()
            let inProcesses = try await fixture.replay(mode: .processes(executable: Binary.url))
            #expect(inProcesses == inMemory)
            #expect(inProcesses.passed, "\(inProcesses.mismatches)")
        }
    #endif
}
