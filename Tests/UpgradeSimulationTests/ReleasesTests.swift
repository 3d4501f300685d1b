import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

@testable import UpgradeFixtures
@testable import UpgradeReplay

/// The shipped fixtures folder.
private let shippedFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

private func shipped(_ name: String) throws -> Fixture {
    try FixtureLoader.load(file: shippedFixtures.appendingPathComponent(name).path)
}

@Suite("Releases in fixtures: reading since, until, floor and allow")
struct ReleasesDecodingTests {
    static let document = """
        {
          "name": "releases",
          "steps": [
            { "version": "1.1", "until": "3.0", "allow": ["lost"] },
            { "id": "late-one", "version": "1.2", "since": "2.0", "until": "3.0", "allow": ["late", "lost"] },
            { "version": "3.1", "since": "3.0.1", "until": "4.0" }
          ],
          "floor": { "version": "2.0", "since": "3.0.1", "behavior": { "crashTimes": 1 }, "durationMs": 5 },
          "histories": [
            { "name": "h", "launches": ["1.0", "3.1"],
              "expect": [{}, { "ran": ["upgradeFloor_2_0", "appUpgradeTo_3_1"] }] }
          ]
        }
        """

    @Test("every key of a step and of the floor is read, and the floor's id defaults to upgradeFloor_A_B")
    func reads() throws {
        let fixture = try decodeFixture(Self.document)
        #expect(fixture.steps[0].until == .v("3.0") && fixture.steps[0].since == nil)
        #expect(fixture.steps[0].allow == [.lost])
        #expect(fixture.steps[1].since == .v("2.0") && fixture.steps[1].until == .v("3.0"))
        #expect(fixture.steps[1].allow == [.late, .lost])
        #expect(fixture.steps[2].since == .v("3.0.1") && fixture.steps[2].until == .v("4.0"))
        let floor = try #require(fixture.floor)
        #expect(floor == .floor(.v("2.0"), behavior: .crashTimes(1), durationMs: 5, since: .v("3.0.1")))
        #expect(floor.id == "upgradeFloor_2_0")
        #expect(ScriptedStep.floor(.v("1.02.3")).id == "upgradeFloor_1_2_3")
        #expect(fixture.hasReleases)
    }

    @Test("jsonText writes since, until, allow and the floor, and reads back to the same fixture")
    func roundTrip() throws {
        let fixture = try decodeFixture(Self.document)
        let text = fixture.jsonText
        #expect(text.contains(#""floor": {"#))
        #expect(!text.contains(#""id": "upgradeFloor_2_0""#))  // the default id is left out
        #expect(text.contains(#""allow": ["late", "lost"]"#))
        #expect(try decodeFixture(text) == fixture)
        var named = fixture
        named.floor?.id = "reset-store"
        named.histories = []
        #expect(try decodeFixture(named.jsonText) == named)
    }

    @Test("namedVersions has every since and until, and the version just above each until")
    func namedVersions() throws {
        let fixture = try decodeFixture(Self.document)
        #expect(
            fixture.namedVersions.map(\.description) == [
                "1.1", "1.2", "2.0", "3.0", "3.0.1", "3.1", "4.0", "4.0.1",
            ])
        #expect(fixture.explorationVersions.first == .v("1.0"))
        #expect(fixture.explorationVersions.last == .v("4.1"))
    }

    @Test(
        "faults are named with their JSON path",
        arguments: [
            (#"[{"version": "1.0", "since": "2.0", "until": "1.9"}]"#, nil, "steps[0].until", "is below since 2.0"),
            (#"[{"version": "1.0", "since": "2.x"}]"#, nil, "steps[0].since", "2.x"),
            (#"[{"version": "1.0", "allow": ["early"]}]"#, nil, "steps[0].allow[0]", "unknown finding \"early\""),
            (#"[{"version": "1.0", "allow": ["late", "late"]}]"#, nil, "steps[0].allow[1]", "listed twice"),
            (#"[{"version": "1.0", "allow": "late"}]"#, nil, "steps[0].allow", "expected a list"),
            (
                #"[{"version": "1.0"}]"#, #"{"version": "2.0", "allow": ["lost"]}"#, "floor.allow",
                "unknown key \"allow\""
            ),
            (
                #"[{"version": "1.0"}]"#, #"{"id": "appUpgradeTo_1_0", "version": "2.0"}"#, "floor.id",
                "duplicate step id"
            ),
            (
                #"[{"id": "upgradeFloor_2_0", "version": "3.0"}]"#, #"{"version": "2.0"}"#, "floor.version",
                "default id of a floor"
            ),
            (#"[{"version": "1.0"}]"#, #"{"since": "2.0"}"#, "floor", "missing"),
            (
                #"[{"version": "3.0"}, {"version": "2.0", "until": "3.0"}]"#, #"{"version": "2.0", "since": "3.0"}"#,
                "steps[1]", "the build of 3.0 contain both"
            ),
            (
                #"[{"version": "1.5"}]"#, #"{"version": "2.0", "since": "3.0"}"#, "steps[0]",
                "the builds from 3.0 on contain both"
            ),
            (#"[{"version": "2.0"}]"#, #"{"version": "2.0"}"#, "steps[0]", "every build contain both"),
        ] as [(String, String?, String, String)])
    func faults(steps: String, floor: String?, path: String, message: String) throws {
        var json = fixtureJSON(steps: steps)
        if let floor {
            json = json.replacingOccurrences(of: #""histories""#, with: #""floor": \#(floor), "histories""#)
        }
        let error = try #require(fixtureError(json))
        #expect(error.path.description == path, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test("a step at or below the floor is fine when no build has both")
    func floorRuleByBuild() throws {
        let fixture = try decodeFixture(
            fixtureJSON(steps: #"[{"version": "2.0", "until": "3.0"}, {"version": "3.1"}]"#).replacingOccurrences(
                of: #""histories""#, with: #""floor": {"version": "2.0", "since": "3.0.1"}, "histories""#))
        #expect(fixture.floor?.version == .v("2.0"))
    }

    @Test("expectations may name the floor, and still no unknown id")
    func expectedIDs() throws {
        #expect(try decodeFixture(Self.document).histories[0].expect?[1].ran?.first == "upgradeFloor_2_0")
        let error = try #require(
            fixtureError(
                fixtureJSON(
                    steps: #"[{"version": "1.0"}]"#,
                    histories: #"[{"name": "h", "launches": ["1.0"], "expect": [{"ran": ["upgradeFloor_2_0"]}]}]"#)))
        #expect(error.message.contains("no step has the id"))
    }

    @Test("a fixture without since and until has one build with every step, as before")
    func oneBuild() throws {
        let fixture = try decodeFixture(fixtureJSON(steps: #"[{"version": "1.0"}, {"version": "2.0"}]"#))
        #expect(!fixture.hasReleases)
        let releases = Releases(steps: fixture.steps, floor: nil)
        #expect(releases.builds.count == 1 && releases.boundaries.isEmpty)
        #expect(fixture.app.build(at: .v("9.9")).map(\.id) == ["appUpgradeTo_1_0", "appUpgradeTo_2_0"])
    }
}

@Suite("Releases in fixtures: builds")
struct BuildTests {
    let steps = [
        ScriptedStep(version: .v("1.0"), id: "always"),
        ScriptedStep(version: .v("1.5"), id: "retired", until: .v("2.0")),
        ScriptedStep(version: .v("1.2"), id: "added", since: .v("2.0")),
        ScriptedStep(version: .v("3.0"), id: "window", since: .v("2.5"), until: .v("3.0")),
    ]

    @Test(
        "a launch at C runs the build of C: the steps with since <= C <= until",
        arguments: [
            ("1.9", ["always", "retired"]), ("2.0", ["always", "retired", "added"]),
            ("2.0.1", ["always", "added"]), ("2.5", ["always", "added", "window"]),
            ("3.0", ["always", "added", "window"]), ("3.0.0", ["always", "added", "window"]),
            ("3.0.1", ["always", "added"]), ("0.1", ["always", "retired"]),
        ])
    func membership(version: String, ids: [String]) {
        let app = SimulatedApp(steps: steps)
        #expect(app.build(at: .v(version)).map(\.id) == ids)
        #expect(steps.filter { $0.isInBuild(of: .v(version)) }.map(\.id) == ids)
    }

    @Test("the builds change only at a since and just above an until; equal builds are shared")
    func boundaries() {
        let releases = Releases(steps: steps, floor: nil)
        #expect(releases.boundaries.map(\.description) == ["2.0", "2.0.1", "2.5", "3.0.1"])
        #expect(releases.builds.count == 4)
        #expect(releases.build(at: .v("2.0.1")) == releases.build(at: .v("3.1")))
        #expect(Version.v("2.0").successor == .v("2.0.1"))
        #expect(Version.v("2.0.2147483647").successor == .v("2.1.0"))
    }

    @Test("the floor is registered first in its builds, through the adapter, as an engine step of version F")
    func floorFirst() throws {
        let app = SimulatedApp(
            steps: [ScriptedStep(version: .v("3.0")), ScriptedStep(version: .v("2.0"), until: .v("2.0"))],
            floor: .floor(.v("2.0"), since: .v("2.0.1")))
        #expect(app.build(at: .v("3.0")).map(\.id) == ["upgradeFloor_2_0", "appUpgradeTo_3_0"])
        #expect(app.build(at: .v("2.0")).map(\.id) == ["appUpgradeTo_3_0", "appUpgradeTo_2_0"])
        #expect(app.hasFloor(at: .v("3.0")) && !app.hasFloor(at: .v("2.0")))
        let upgrader = app.makeUpgrader(store: InMemoryUpgradeStore(), at: .v("3.0"))
        #expect(upgrader.steps.map(\.id) == ["upgradeFloor_2_0", "appUpgradeTo_3_0"])
        #expect(upgrader.steps.first?.version == .v("2.0"))
    }
}

@Suite("Releases in fixtures: launches")
struct ReleaseLaunchTests {
    @Test("a step removed in a hotfix while crash-looping: its entries are never run, rule 0 counts, rule 5 drops")
    func removedWhileCrashLooping() async throws {
        let fixture = try shipped("38-crash-looping-step-removed-in-hotfix.json")
        let app = fixture.app
        var state: UpgradeState?
        for version in ["1.0", "2.0", "2.0"] {
            state = try await app.launch(at: .v(version), from: state).state
        }
        #expect(state?.inProgress?.id == "reindex")
        #expect(state?.inProgress?.attempt == 2)
        // The hotfix: reindex is gone from the build; check-index fails once, so the mark stays.
        let hotfix = try await app.launch(at: .v("2.0.1"), from: state)
        #expect(hotfix.observation.ran == ["move-settings", "check-index"])
        #expect(hotfix.state?.inProgress == nil)
        #expect(hotfix.state?.attempts.first { $0.id == "reindex" }?.failed == 2)
        #expect(hotfix.state?.upgradedThrough == .v("1.0"))
        // The next launch passes 2.0: rule 5 drops the entry of the step the build lacks.
        let next = try await app.launch(at: .v("2.0.1"), from: hotfix.state)
        #expect(next.observation.ran == ["check-index"])
        #expect(next.state?.attempts.isEmpty == true)
        #expect(next.state?.upgradedThrough == .v("2.0.1"))
    }

    @Test("a rewind drops the entries of a step the build lacks by version")
    func rewindDropsMissingSteps() async throws {
        let app = SimulatedApp(
            steps: [
                ScriptedStep(version: .v("3.0"), id: "window", behavior: .fail, since: .v("2.5"), until: .v("3.0"))
            ],
            policy: UpgradePolicy(downgrade: .rewind))
        var state = try await app.launch(at: .v("2.0"), from: nil).state
        state = try await app.launch(at: .v("3.0"), from: state).state
        #expect(state?.attempts.first?.id == "window")
        // Down to a build without the step: the rewind drops its entry, by version.
        let down = try await app.launch(at: .v("1.0"), from: state)
        #expect(down.observation.outcome == .downgraded)
        #expect(down.state?.attempts.isEmpty == true)
        #expect(down.state?.upgradedThrough == .v("1.0"))
    }

    @Test("the floor: pending as a step of F, first, and a step for attempts, inProgress and giveUpAfter")
    func floorIsAStep() async throws {
        let app = SimulatedApp(
            steps: [ScriptedStep(version: .v("3.0")), ScriptedStep(version: .v("1.5"), until: .v("2.0"))],
            floor: .floor(.v("2.0"), behavior: .crash, since: .v("2.0.1")),
            policy: UpgradePolicy(giveUpAfter: 2))
        var state = try await app.launch(at: .v("1.0"), from: nil).state
        let crashed = try await app.launch(at: .v("3.0"), from: state)
        #expect(crashed.observation.outcome == .crashed)
        #expect(crashed.observation.ran == ["upgradeFloor_2_0"])
        #expect(crashed.state?.inProgress?.id == "upgradeFloor_2_0")
        state = try await app.launch(at: .v("3.0"), from: crashed.state).state
        let abandoned = try await app.launch(at: .v("3.0"), from: state)
        #expect(abandoned.observation.abandoned == ["upgradeFloor_2_0"])
        #expect(abandoned.observation.ran == ["appUpgradeTo_3_0"])
        #expect(abandoned.observation.upgradedThrough == .v("3.0"))
        // A device at or above the floor never runs it.
        let at = try await app.launch(
            at: .v("3.0"), from: UpgradeState(upgradedThrough: .v("2.0"), lastLaunched: .v("2.0")))
        #expect(at.observation.ran == ["appUpgradeTo_3_0"])
    }

    @Test("buildSummary: the floor, and each step the build lacks with what the state records of it")
    func buildSummary() async throws {
        let fixture = try shipped("38-crash-looping-step-removed-in-hotfix.json")
        var state: UpgradeState?
        for version in ["1.0", "2.0", "2.0"] {
            state = try await fixture.app.launch(at: .v(version), from: state).state
        }
        let lines = fixture.app.buildSummary(at: .v("2.0.1"), state: state)
        #expect(
            lines == [
                "not in the build of 2.0.1, so never run by it:",
                "  reindex (2.0, until 2.0): the state records it as 1 failed attempt, the last interrupted;"
                    + " in progress (attempt 2: the last process died in it)",
            ])
        let floor = try shipped("39-floor-after-three-releases.json")
        #expect(
            floor.app.buildSummary(at: .v("3.1"), state: nil).first?.hasPrefix("floor: upgradeFloor_2_0 (2.0) is in")
                == true)
        #expect(
            floor.app.buildSummary(at: .v("2.0"), state: nil).first
                == "floor: the build of 2.0 has none (upgradeFloor_2_0 is in since 3.0.1)")
        #expect(SimulatedApp(steps: [ScriptedStep(version: .v("1.0"))]).buildSummary(at: .v("1.0"), state: nil).isEmpty)
    }

    @Test("the release fixtures replay with one real process per launch as in memory")
    func processes() async throws {
        for name in [
            "37-step-added-later-with-older-version.json", "38-crash-looping-step-removed-in-hotfix.json",
            "39-floor-after-three-releases.json",
        ] {
            let fixture = try shipped(name)
            let inMemory = try await fixture.replay()
            #expect(inMemory.passed, "\(inMemory.mismatches)")
            let inProcesses = try await fixture.replay(mode: .processes(executable: Binary.url))
            #expect(inProcesses == inMemory, "\(name)")
        }
    }
}
