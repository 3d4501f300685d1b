import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

@testable import UpgradeFixtures
@testable import UpgradeReplay

@Suite("Scripted behaviours")
struct BehaviorTests {
    @Test("each behaviour gives the scripted result for each attempt")
    func results() {
        func results(_ behavior: StepBehavior) -> [AttemptResult] { (1...5).map { behavior.result(forAttempt: $0) } }
        #expect(results(.succeed) == [.ok, .ok, .ok, .ok, .ok])
        #expect(results(.fail) == [.fail, .fail, .fail, .fail, .fail])
        #expect(results(.crash) == [.crash, .crash, .crash, .crash, .crash])
        #expect(results(.failTimes(2)) == [.fail, .fail, .ok, .ok, .ok])
        #expect(results(.crashTimes(1)) == [.crash, .ok, .ok, .ok, .ok])
        #expect(results(.script([.ok])) == [.ok, .ok, .ok, .ok, .ok])
        #expect(results(.script([.fail, .crash, .ok, .fail])) == [.fail, .crash, .ok, .fail, .fail])
    }

    @Test("an action run outside a launch fails or throws a simulated crash, recording nothing")
    func outsideALaunch() async throws {
        let app = SimulatedApp(steps: [ScriptedStep(version: .v("1.0"), behavior: .script([.fail, .crash]))])
        let step = try #require(app.makeUpgrader(store: InMemoryUpgradeStore(), at: .v("1.0")).steps.first)
        func context(_ attempt: Int) -> UpgradeContext {
            UpgradeContext(
                stepID: step.id, stepVersion: step.version, currentVersion: .v("1.0"), attempt: attempt,
                previousAttemptInterrupted: false)
        }
        await #expect(throws: ScriptedStepError(stepID: "appUpgradeTo_1_0", attempt: 1)) {
            try await step.perform(context(1))
        }
        await #expect(throws: SimulatedCrashError(stepID: "appUpgradeTo_1_0", attempt: 2)) {
            try await step.perform(context(2))
        }
    }
}

@Suite("The launch function")
struct LaunchTests {
    let store = InMemoryUpgradeStore()

    @Test("steps that succeed run in version order and move the mark")
    func succeed() async throws {
        let app = SimulatedApp(
            steps: [ScriptedStep(version: .v("2.0")), ScriptedStep(version: .v("1.5"), id: "early")])
        #expect(
            try await app.launch(at: .v("1.0"), store: store)
                == LaunchObservation(outcome: .freshInstall, upgradedThrough: .v("1.0")))
        #expect(
            try await app.launch(at: .v("2.0"), store: store)
                == LaunchObservation(
                    outcome: .upgraded, ran: ["early", "appUpgradeTo_2_0"], upgradedThrough: .v("2.0"),
                    finished: ["early", "appUpgradeTo_2_0"]))
        #expect(
            try await app.launch(at: .v("2.0.0"), store: store)
                == LaunchObservation(outcome: .upToDate, upgradedThrough: .v("2.0")))
    }

    @Test("a failing step stops the launch and is retried at the next, with its attempt number")
    func fail() async throws {
        let app = SimulatedApp(
            steps: [ScriptedStep(version: .v("1.1"), behavior: .failTimes(1)), ScriptedStep(version: .v("1.2"))],
            policy: UpgradePolicy(freshInstall: .runAll))
        let first = try await app.launch(at: .v("1.2"), store: store)
        #expect(first == LaunchObservation(outcome: .failed, ran: ["appUpgradeTo_1_1"], upgradedThrough: nil))
        #expect(store.state?.failedAttempts(of: "appUpgradeTo_1_1") == 1)
        let second = try await app.launch(at: .v("1.2"), store: store)
        #expect(second.outcome == .upgraded)
        #expect(second.ran == ["appUpgradeTo_1_1", "appUpgradeTo_1_2"])
        #expect(second.upgradedThrough == .v("1.2"))
    }

    @Test("a simulated crash leaves the state as the dead process wrote it; the next launch continues from there")
    func crash() async throws {
        let app = SimulatedApp(
            steps: [ScriptedStep(version: .v("1.1")), ScriptedStep(version: .v("1.2"), behavior: .crashTimes(1))],
            policy: UpgradePolicy(freshInstall: .upgradeFrom(.v("1.0"))))
        let crashed = try await app.launch(at: .v("1.2"), store: store)
        #expect(
            crashed
                == LaunchObservation(
                    outcome: .crashed, ran: ["appUpgradeTo_1_1", "appUpgradeTo_1_2"], upgradedThrough: .v("1.0"),
                    finished: ["appUpgradeTo_1_1"]))
        #expect(store.processDied)
        let state = try #require(store.state)
        #expect(state.inProgress == StepInProgress(id: "appUpgradeTo_1_2", version: .v("1.2"), attempt: 1))
        #expect(state.completed.map(\.id) == ["appUpgradeTo_1_1"])
        #expect(state.attempts.isEmpty)

        let next = InMemoryUpgradeStore(state: store.state)
        let resumed = try await app.launch(at: .v("1.2"), store: next)
        #expect(
            resumed
                == LaunchObservation(
                    outcome: .upgraded, ran: ["appUpgradeTo_1_2"], upgradedThrough: .v("1.2"),
                    finished: ["appUpgradeTo_1_2"]))
    }

    @Test("giveUpAfter abandons a step that keeps crashing, before running it, and the steps after go on")
    func abandonAfterCrash() async throws {
        let app = SimulatedApp(
            steps: [ScriptedStep(version: .v("1.1"), behavior: .crash), ScriptedStep(version: .v("1.2"))],
            policy: UpgradePolicy(freshInstall: .runAll, giveUpAfter: 1))
        let observations = try await app.replay(launches: [.v("1.2"), .v("1.2"), .v("1.2")])
        #expect(observations.map(\.outcome) == [.crashed, .upgraded, .upToDate])
        #expect(observations[0].ran == ["appUpgradeTo_1_1"])
        #expect(observations[1].ran == ["appUpgradeTo_1_2"])
        #expect(observations[1].abandoned == ["appUpgradeTo_1_1"])
        #expect(observations[1].upgradedThrough == .v("1.2"))
    }

    @Test("giveUpAfter abandons a failing step in the launch it fails; a later crash still reports it")
    func abandonAfterFailureThenCrash() async throws {
        let app = SimulatedApp(
            steps: [
                ScriptedStep(version: .v("1.1"), behavior: .fail), ScriptedStep(version: .v("1.2"), behavior: .crash),
            ],
            policy: UpgradePolicy(freshInstall: .runAll, giveUpAfter: 1))
        let crashed = try await app.launch(at: .v("1.2"), store: store)
        #expect(
            crashed
                == LaunchObservation(
                    outcome: .crashed, ran: ["appUpgradeTo_1_1", "appUpgradeTo_1_2"], abandoned: ["appUpgradeTo_1_1"],
                    upgradedThrough: nil))
    }

    @Test("attempts start again at 1 after a rewinding downgrade")
    func rewindResetsAttempts() async throws {
        let app = SimulatedApp(
            steps: [ScriptedStep(version: .v("2.0"), id: "s", behavior: .failTimes(1))],
            policy: UpgradePolicy(downgrade: .rewind))
        let outcomes = try await app.replay(launches: [
            .v("1.0"), .v("2.0"), .v("2.0"), .v("1.0"), .v("2.0"), .v("2.0"),
        ])
        #expect(outcomes.map(\.outcome) == [.freshInstall, .failed, .upgraded, .downgraded, .failed, .upgraded])
        #expect(outcomes[3].upgradedThrough == .v("1.0"))
    }

    @Test("launching from a state branches without touching the state it came from")
    func launchFromState() async throws {
        let app = SimulatedApp(
            steps: [ScriptedStep(version: .v("1.1"), behavior: .crashTimes(1))], policy: UpgradePolicy(giveUpAfter: 2))
        let (fresh, installed) = try await app.launch(at: .v("1.0"), from: nil)
        #expect(fresh.outcome == .freshInstall)
        let (crash, afterCrash) = try await app.launch(at: .v("1.1"), from: installed)
        #expect(crash.outcome == .crashed)
        #expect(afterCrash?.inProgress?.id == "appUpgradeTo_1_1")
        // Two branches from the same state.
        let (down, _) = try await app.launch(at: .v("0.9"), from: afterCrash)
        let (up, final) = try await app.launch(at: .v("1.1"), from: afterCrash)
        #expect(down.outcome == .downgraded)
        #expect(
            up
                == LaunchObservation(
                    outcome: .upgraded, ran: ["appUpgradeTo_1_1"], upgradedThrough: .v("1.1"),
                    finished: ["appUpgradeTo_1_1"]))
        #expect(final?.inProgress == nil)
        #expect(afterCrash?.inProgress?.attempt == 1)
    }

    @Test("simulated crashes need an in-memory store")
    func simulatedNeedsMemoryStore() async throws {
        let folder = try TemporaryDirectory("file-store")
        let app = SimulatedApp(steps: [])
        await #expect(throws: SimulationError.self) {
            try await app.launch(
                at: .v("1.0"), store: FileUpgradeStore(url: folder.file("state.json")), mode: .simulated)
        }
    }

    @Test("in real-process mode, a journal line per finished step, a trace of every step, and durations")
    func realProcessJournal() async throws {
        let folder = try TemporaryDirectory("journal")
        let app = SimulatedApp(
            steps: [
                ScriptedStep(version: .v("1.1"), id: "slow", durationMs: 30),
                ScriptedStep(version: .v("1.2"), id: "flaky", behavior: .failTimes(1)),
            ],
            policy: UpgradePolicy(freshInstall: .runAll))
        let fileStore = FileUpgradeStore(url: folder.file("state.json"))
        let mode = CrashMode.realProcess(journal: folder.file("journal"), trace: folder.file("trace"))
        let clock = ContinuousClock()
        let start = clock.now
        let first = try await app.launch(at: .v("1.2"), store: fileStore, mode: mode)
        #expect(clock.now - start >= .milliseconds(30))
        let second = try await app.launch(at: .v("1.2"), store: fileStore, mode: mode)
        #expect(
            first
                == LaunchObservation(
                    outcome: .failed, ran: ["slow", "flaky"], upgradedThrough: nil, finished: ["slow"]))
        #expect(
            second
                == LaunchObservation(
                    outcome: .upgraded, ran: ["flaky"], upgradedThrough: .v("1.2"), finished: ["flaky"]))
        #expect(try String(contentsOf: folder.file("journal"), encoding: .utf8) == "slow 1\nflaky 2\n")
        let trace = try Trace(contentsOf: folder.file("trace"))
        #expect(trace.ran == ["slow", "flaky", "flaky"])
        #expect(trace.finished == ["slow", "flaky"])
    }

    @Test("a journal that cannot be opened is reported before anything runs")
    func unopenableJournal() async throws {
        let folder = try TemporaryDirectory("journal")
        let app = SimulatedApp(steps: [])
        await #expect(throws: SimulationError.self) {
            try await app.launch(
                at: .v("1.0"), store: FileUpgradeStore(url: folder.file("state.json")),
                mode: .realProcess(journal: folder.file("no/such/folder/journal")))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.file("state.json").path))
    }

    @Test("duplicate ids made in code are the engine's configuration error")
    func duplicateIDs() async {
        let app = SimulatedApp(steps: [
            ScriptedStep(version: .v("1.0"), id: "a"), ScriptedStep(version: .v("2.0"), id: "a"),
        ])
        await #expect(throws: UpgradeError.self) { try await app.launch(at: .v("1.0"), store: store) }
    }

    @Test("the observation prints and reads back as the launch command's JSON")
    func observationJSON() throws {
        let observation = LaunchObservation(
            outcome: .crashed, ran: ["a", "b\"c"], abandoned: ["a"], upgradedThrough: .v("1.2.0"))
        #expect(
            observation.jsonText
                == #"{"outcome": "crashed", "ran": ["a", "b\"c"], "abandoned": ["a"], "upgradedThrough": "1.2.0"}"#)
        #expect(try LaunchObservation(jsonText: observation.jsonText) == observation)
        #expect(
            try LaunchObservation(jsonText: LaunchObservation(outcome: .upToDate, upgradedThrough: nil).jsonText)
                .upgradedThrough == nil)
        #expect(throws: SimulationError.self) { try LaunchObservation(jsonText: #"{"outcome": "crashed"}"#) }
    }
}
