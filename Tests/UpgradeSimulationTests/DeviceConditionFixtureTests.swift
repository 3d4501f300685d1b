import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

@testable import UpgradeExplorer
@testable import UpgradeFixtures

/// The device's conditions in fixtures (the fixture format of the module's overview, "The device's
/// conditions"): `{"version": "2.0", "locked": true}` and `{"version": "2.0", "expire": "ID"}`, read
/// strictly and written back.
@Suite("Device conditions in fixtures: reading")
struct DeviceConditionDecoderTests {
    static let sample = fixtureJSON(
        steps: #"[{"version": "1.1", "id": "move"}, {"version": "1.2", "id": "index"}]"#,
        histories: """
            [{"name": "h", "launches": ["1.0", {"version": "1.1", "locked": true}, {"version": "1.2", "expire": "index"},
              {"version": "1.2", "locked": false}, {"version": "1.2", "follower": true, "locked": true}],
              "expect": [{}, {"outcome": "deferred"}, {"outcome": "cancelled", "ran": ["move", "index"]}, {}, {}]}]
            """)

    @Test("locked and expire launches are read, cancelled is an outcome, and jsonText writes them back")
    func reads() throws {
        let fixture = try decodeFixture(Self.sample)
        let history = try #require(fixture.histories.first)
        #expect(history.conditions == [1: .locked, 2: .expire(stepID: "index"), 4: .locked])
        #expect(history.followers == [4])
        #expect(history.expect?[2].outcome == .cancelled)
        #expect(history.label(at: 2) == "1.2 (expire index)")
        #expect(history.label(at: 4) == "1.2 (follower, locked)")
        #expect(try decodeFixture(fixture.jsonText) == fixture)
        #expect(fixture.jsonText.contains(#""locked": true"#))
        #expect(fixture.jsonText.contains(#""expire": "index""#))
    }

    static let faults: [(String, String, String)] = [
        (
            #"[{"version": "1.0", "locked": true, "expire": "move"}]"#, "histories[0].launches[0].expire",
            "cannot both be \"locked\" and \"expire\""
        ),
        (
            #"[{"version": "1.0", "follower": true, "expire": "move"}]"#, "histories[0].launches[0].expire",
            "a follower launch cannot \"expire\""
        ),
        (
            #"[{"version": "1.0", "expire": "nope"}]"#, "histories[0].launches[0].expire",
            "no step has the id \"nope\"; the step ids are move"
        ),
        (#"[{"version": "1.0", "expire": 3}]"#, "histories[0].launches[0].expire", "expected a string"),
        (#"[{"version": "1.0", "locked": "yes"}]"#, "histories[0].launches[0].locked", "expected true or false"),
        (#"[{"version": "1.0", "lockd": true}]"#, "histories[0].launches[0].lockd", "did you mean \"locked\""),
        (#"["1.0", null]"#, "histories[0].launches[1]", "{\"version\": \"2.0\", \"expire\": \"ID\"}"),
    ]

    @Test("a bad locked or expire launch is named with its JSON path and what is wrong", arguments: faults)
    func badLaunchEntries(launches: String, path: String, words: String) {
        let document = fixtureJSON(
            steps: #"[{"version": "1.1", "id": "move"}]"#, histories: #"[{"name": "h", "launches": "# + launches + "}]")
        guard let error = fixtureError(document, file: "Fixtures/broken.json") else {
            Issue.record("accepted: \(launches)")
            return
        }
        #expect(error.path.description == path, "\(error)")
        #expect(error.message.contains(words), "\(error)")
        #expect(error.description.hasPrefix("Fixtures/broken.json: \(path): "), "\(error)")
    }
}

@Suite("explore: a failed step is retried first among the steps every build contains")
struct FailedStepRetriedFirstAcrossBuildsTests {
    /// `reindex` (2.0) fails once; the build of 3.0 adds `backfill` with the older version 1.5. On a
    /// device that ran 2.0 under `runAll`, the launch at 3.0 runs `backfill` first (run order), then
    /// retries `reindex`: right, since the build of 2.0 did not contain `backfill`.
    static let fixture = Fixture(
        name: "added-below-a-failed-step", policy: UpgradePolicy(freshInstall: .runAll),
        steps: [
            ScriptedStep(version: .v("2.0"), id: "reindex", behavior: .failTimes(1)),
            ScriptedStep(version: .v("1.5"), id: "backfill", since: .v("3.0"), allow: [.late]),
        ])

    @Test("a step a later build adds below the failed one may run first; the history is replayed as explore sees it")
    func addedStepRunsFirst() async throws {
        let observations = try await Self.fixture.app.replay(launches: [.v("2.0"), .v("3.0")])
        #expect(observations.map(\.outcome) == [.failed, .upgraded])
        #expect(observations[1].ran == ["backfill", "reindex"])
        for options in [ExplorationOptions(), ExplorationOptions(depth: 3)] {
            let result = try await Explorer(fixture: Self.fixture, options: options).run()
            #expect(
                !result.violations.contains { $0.guarantee == .failedStepIsRetriedFirst },
                "\(result.violations.map { "\($0.guarantee): \($0.detail)" })")
            #expect(result.violations.isEmpty)
        }
    }

    @Test("among the steps every build contains, a failed step handled second is still caught")
    func stillCaughtAmongCommonSteps() {
        let catalog = ExplorationCatalog(steps: Self.fixture.steps + [ScriptedStep(version: .v("1.8"), id: "early")])
        var tracker = GuaranteeTracker(catalog: catalog, policy: Self.fixture.policy, engine: .standard)
        let reindex = catalog.index(of: "reindex")!
        let early = catalog.index(of: "early")!
        var findings: [(FindingKind, Int, String)] = []
        _ = tracker.record(
            IndexedObservation(outcome: .failed, ran: [reindex], upgradedThrough: nil), at: .v("2.0"),
            build: catalog.releases.build(at: .v("2.0")), engine: .standard, findings: &findings)
        let broken = tracker.record(
            IndexedObservation(
                outcome: .upgraded, ran: [early, reindex], finished: [early, reindex], upgradedThrough: .v("2.0")),
            at: .v("2.0"), build: catalog.releases.build(at: .v("2.0")), engine: .standard, findings: &findings)
        #expect(broken.map(\.0).contains(.failedStepIsRetriedFirst))
    }
}

@Suite("Device conditions in fixtures: replay")
struct DeviceConditionReplayTests {
    /// `index` fails its first attempt. Expiries in it are no attempts: after two of them its next attempt
    /// is still attempt 1 (it fails), then 2 (it finishes); under `giveUpAfter: 1` it is never abandoned
    /// for an expiry. A locked launch in between changes nothing.
    static let sample = fixtureJSON(
        policy: #"{"giveUpAfter": 1}"#,
        steps: #"[{"version": "1.1", "id": "move"}, {"version": "1.2", "id": "index", "behavior": {"failTimes": 1}}]"#,
        histories: """
            [{"name": "locked, expiries, then the attempts",
              "launches": ["1.0", {"version": "1.2", "locked": true}, {"version": "1.2", "expire": "index"},
                           {"version": "1.2", "locked": true}, {"version": "1.2", "expire": "index"}, "1.2"],
              "expect": [
                {"outcome": "freshInstall", "ran": [], "abandoned": [], "upgradedThrough": "1.0"},
                {"outcome": "deferred", "ran": [], "abandoned": [], "upgradedThrough": null},
                {"outcome": "cancelled", "ran": ["move", "index"], "abandoned": [], "upgradedThrough": "1.0"},
                {"outcome": "deferred", "ran": [], "abandoned": [], "upgradedThrough": null},
                {"outcome": "cancelled", "ran": ["index"], "abandoned": [], "upgradedThrough": "1.0"},
                {"outcome": "upgraded", "ran": ["index"], "abandoned": ["index"], "upgradedThrough": "1.2"}]},
             {"name": "a locked first launch is no fresh install",
              "launches": [{"version": "1.1", "locked": true}, "1.1"],
              "expect": [
                {"outcome": "deferred", "ran": [], "abandoned": [], "upgradedThrough": null},
                {"outcome": "freshInstall", "ran": [], "abandoned": [], "upgradedThrough": "1.1"}]},
             {"name": "an expiry in a step the launch does not reach is a mismatch",
              "launches": ["1.0", {"version": "1.1", "expire": "index"}],
              "expect": [{}, {"outcome": "cancelled"}]}]
            """)

    @Test("in memory: a locked launch changes nothing; an expiry is no attempt, and the process is killed")
    func inMemory() async throws {
        let fixture = try decodeFixture(Self.sample)
        let result = try await fixture.replay()
        #expect(result.histories[0].passed, "\(result.histories[0].mismatches)")
        #expect(result.histories[1].passed, "\(result.histories[1].mismatches)")
        #expect(result.histories[0].observations[1].deferral == "protected data unavailable")
        // The step the launch never reached: a mismatch of that launch, not an error.
        #expect(result.histories[2].mismatches.map(\.key) == [.outcome])
        #expect(result.histories[2].mismatches.first?.condition == .expire(stepID: "index"))
        #expect(result.histories[2].observations[1].outcome == .upgraded)
    }

    @Test("after an expiry the state counts no attempt, and the step is told it was interrupted")
    func stateAfterExpiry() async throws {
        let app = try decodeFixture(Self.sample).app
        let store = InMemoryUpgradeStore()
        _ = try await app.launch(at: .v("1.0"), store: store, mode: .simulated, role: .app)
        let expired = try await app.launch(
            at: .v("1.2"), store: store, mode: .simulated, role: .app, condition: .expire(stepID: "index"))
        #expect(expired.outcome == .cancelled)
        #expect(store.processDied)
        let state = try #require(store.state as UpgradeState?)
        #expect(state.inProgress == nil)
        #expect(state.failedAttempts(of: "index") == 0)
        #expect(state.lastAttemptInterrupted(of: "index"))
        #expect(state.isCompleted("move"))
    }
}

#if os(macOS) || os(Linux)
    @Suite("Device conditions in fixtures: one real process per launch")
    struct DeviceConditionProcessTests {
        @Test("run --processes: a locked child changes nothing, an expiring child is killed after the expiry's write")
        func processesAgreeWithMemory() async throws {
            var fixture = try decodeFixture(DeviceConditionReplayTests.sample)
            fixture.file = nil
            let inMemory = try await fixture.replay()
            let inProcesses = try await fixture.replay(mode: .processes(executable: Binary.url))
            #expect(inProcesses == inMemory)
            #expect(inProcesses.histories[0].passed, "\(inProcesses.histories[0].mismatches)")
            #expect(inProcesses.histories[1].passed, "\(inProcesses.histories[1].mismatches)")
        }

        static let shippedFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

        @Test(
            "the built upgrade-sim runs the shipped fixtures of each condition, in memory and in processes",
            arguments: [
                "42-locked-launches-before-the-first-unlock.json", "43-long-step-expires-three-times.json",
            ], [[], ["--processes"]])
        func shippedFixtures(file: String, mode: [String]) async throws {
            let path = Self.shippedFixtures.appendingPathComponent(file).path
            let result = try await Binary.run(["run", path] + mode)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains(" passed, 0 failed\n"), "\(result.stdout)")
            #expect(!result.stdout.contains("FAIL"), "\(result.stdout)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
        }

        @Test("plan --locked says the launch would be deferred and why, and makes no file, not even the probe")
        func planLocked() async throws {
            let folder = try TemporaryDirectory("plan-locked")
            let fixtureFile = folder.file("fixture.json")
            try Data(DeviceConditionReplayTests.sample.utf8).write(to: fixtureFile)
            let state = folder.file("state.json")
            let plan = try await Binary.run([
                "plan", "--fixture", fixtureFile.path, "--store", state.path, "--version", "1.2", "--locked",
            ])
            #expect(plan.status == 0, "\(plan.stderr)")
            #expect(plan.stdout.hasPrefix("launch at 1.2: deferred (protected data is unavailable"), "\(plan.stdout)")
            #expect(!plan.stdout.contains("will run"), "\(plan.stdout)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["fixture.json"])

            // Unlocked, the same plan decides: a fresh install at 1.2.
            let unlocked = try await Binary.run([
                "plan", "--fixture", fixtureFile.path, "--store", state.path, "--version", "1.2",
            ])
            #expect(unlocked.stdout.hasPrefix("launch at 1.2: freshInstall"), "\(unlocked.stdout)")
        }

        @Test(
            "launch --locked prints deferred with its reason and writes nothing; --expire is killed, counting nothing")
        func launchCommand() async throws {
            let folder = try TemporaryDirectory("device-conditions")
            let fixtureFile = folder.file("fixture.json")
            try Data(DeviceConditionReplayTests.sample.utf8).write(to: fixtureFile)
            let state = folder.file("state.json")
            func launch(_ version: String, _ extra: [String] = []) async throws -> Binary.Result {
                try await Binary.run(
                    ["launch", "--fixture", fixtureFile.path, "--store", state.path, "--version", version] + extra)
            }
            let locked = try await launch("1.0", ["--locked"])
            #expect(locked.status == 0, "\(locked.stderr)")
            #expect(
                locked.stdout
                    == #"{"outcome": "deferred", "ran": [], "abandoned": [], "upgradedThrough": null, "deferral": "protected data unavailable"}"#
                    + "\n")
            #expect(!FileManager.default.fileExists(atPath: state.path))
            #expect(try await launch("1.0").status == 0)
            let written = try Data(contentsOf: state)
            #expect(try await launch("1.2", ["--locked"]).status == 0)
            #expect(try Data(contentsOf: state) == written)

            let expired = try await launch("1.2", ["--expire", "index"])
            #expect(expired.killedBySignal == SIGKILL)
            #expect(expired.stdout.isEmpty)
            let after = try #require(try FileUpgradeStore(url: state).load())
            #expect(after.inProgress == nil)
            #expect(after.failedAttempts(of: "index") == 0 && after.lastAttemptInterrupted(of: "index"))
            #expect(after.isCompleted("move"))
            // Attempt 1 again: it fails (failTimes 1) and, under giveUpAfter 1, is abandoned.
            let next = try await launch("1.2")
            #expect(next.stdout.hasPrefix(#"{"outcome": "upgraded", "ran": ["index"], "abandoned": ["index"]"#))

            for (extra, words) in [
                (["--expire", "index", "--locked"], "--expire cannot be given with --locked"),
                (["--expire", "index", "--follower"], "--expire cannot be given with --follower"),
                (["--expire", "nope"], "no step of the fixture has the id \"nope\""),
                (["--locked=yes"], "--locked takes no value"),
            ] {
                let refused = try await launch("1.2", extra)
                #expect(refused.status == 2)
                #expect(refused.stderr.contains(words), "\(refused.stderr)")
            }
            let help = try await Binary.run(["launch", "--help"])
            #expect(help.stdout.contains("--locked") && help.stdout.contains("--expire ID"))
        }
    }
#endif
