import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeExplorer
@testable import UpgradeFixtures
@testable import UpgradeReplay

/// A fixture with two succeeding steps, for counting.
private func twoSteps(_ policy: UpgradePolicy = UpgradePolicy()) -> Fixture {
    Fixture(
        name: "two", policy: policy,
        steps: [ScriptedStep(version: .v("1.1")), ScriptedStep(version: .v("1.2"))])
}

@Suite("explore: what is enumerated")
struct ExplorationEnumerationTests {
    @Test("versions: the named ones, one below the lowest and one above the highest, ascending")
    func versions() {
        var fixture = twoSteps()
        #expect(fixture.explorationVersions == [.v("1.0"), .v("1.1"), .v("1.2"), .v("1.3")])
        fixture.versions = [.v("2.0.1"), .v("1.1.0")]  // 1.1.0 == 1.1: not counted twice
        #expect(fixture.explorationVersions == [.v("1.0"), .v("1.1"), .v("1.2"), .v("2.0.1"), .v("2.1")])
    }

    @Test(
        "one below and one above",
        arguments: [
            ("1.2.3", "1.2.2", "1.3"), ("1.2", "1.1", "1.3"), ("1.0", "0.0", "1.1"), ("0.0", nil, "0.1"),
            ("3.2147483647", "3.2147483646", "4.0"),
        ] as [(String, String?, String)])
    func neighbours(version: String, below: String?, above: String) {
        #expect(Version.v(version).oneBelow == below.map(Version.v))
        #expect(Version.v(version).oneAbove == Version.v(above))
    }

    @Test(
        "histories of length 1 to depth over V versions: V + V^2 + ... + V^depth, one launch each",
        arguments: [(1, 4, 4), (2, 20, 36), (3, 84, 228)])
    func counts(depth: Int, histories: Int, withoutSharing: Int) async throws {
        var options = ExplorationOptions(depth: depth)
        options.deviceConditions = false  // plain launches only: the device's conditions add moves of their own
        let explorer = Explorer(fixture: twoSteps(), options: options)
        #expect(explorer.plannedLaunches == histories)
        let result = try await explorer.run()
        #expect(result.histories == histories)
        #expect(result.launches == histories)
        #expect(result.launchesWithoutSharing == withoutSharing)
        #expect(result.passed)
    }

    @Test("every policy combination: fresh install x downgrade x giveUpAfter, the fixture's own first")
    func allPolicies() {
        let fixture = twoSteps(UpgradePolicy(freshInstall: .runAll, giveUpAfter: 5))
        let policies = fixture.explorationPolicies(all: true)
        #expect(policies.count == 19)
        #expect(policies.first == fixture.policy)
        #expect(Set(policies.map(\.description)).count == 19)
        #expect(fixture.explorationPolicies(all: false) == [fixture.policy])
        #expect(
            policies.contains(UpgradePolicy(freshInstall: .upgradeFrom(.v("1.1")), downgrade: .rewind, giveUpAfter: 2)))
    }

    @Test("the standard engine keeps every guarantee under every policy, with failures and crashes")
    func standardEngineHolds() async throws {
        let fixture = Fixture(
            name: "mixed",
            steps: [
                ScriptedStep(version: .v("1.1"), behavior: .failTimes(1)),
                ScriptedStep(version: .v("1.2"), behavior: .crashTimes(1)),
                ScriptedStep(version: .v("1.2"), id: "same-version", behavior: .script([.fail, .crash, .ok])),
                ScriptedStep(version: .v("2.0"), behavior: .fail),
            ])
        var options = ExplorationOptions(depth: 3, allPolicies: true)
        options.deviceConditions = false  // counted below as plain launches; DeviceConditionExploreTests adds them
        let result = try await Explorer(fixture: fixture, options: options).run()
        #expect(result.passed, "\(result.violations.map { "\($0.guarantee): \($0.detail) \($0.launches)" })")
        #expect(result.launches == 18 * (5 + 25 + 125))  // 1.0, 1.1, 1.2, 2.0, 2.1; the default policy is one of the 18
    }
}

@Suite("explore: each guarantee check catches a hand-made violation")
struct GuaranteeCheckTests {
    let catalog = ExplorationCatalog(steps: [
        ScriptedStep(version: .v("1.1"), id: "a"), ScriptedStep(version: .v("2.0"), id: "b"),
    ])

    func tracker(_ policy: UpgradePolicy = UpgradePolicy(freshInstall: .runAll)) -> GuaranteeTracker {
        GuaranteeTracker(catalog: catalog, policy: policy, engine: .standard)
    }

    func broken(_ launches: [(String, LaunchObservation)], policy: UpgradePolicy = UpgradePolicy(freshInstall: .runAll))
        -> [Guarantee]
    {
        var tracker = tracker(policy)
        var found: [Guarantee] = []
        for (version, observation) in launches {
            found += tracker.record(observation, at: .v(version), engine: .standard).broken.map(\.0)
        }
        return found
    }

    @Test("a step above the running version ran")
    func aboveRunningVersion() {
        let found = broken([
            (
                "1.1",
                LaunchObservation(
                    outcome: .upgraded, ran: ["a", "b"], upgradedThrough: .v("1.1"), finished: ["a", "b"])
            )
        ])
        #expect(found == [.noStepAboveRunningVersion])
    }

    @Test("a finished step ran again")
    func ranAgain() {
        let found = broken([
            ("1.1", LaunchObservation(outcome: .upgraded, ran: ["a"], upgradedThrough: .v("1.1"), finished: ["a"])),
            (
                "2.0",
                LaunchObservation(
                    outcome: .upgraded, ran: ["a", "b"], upgradedThrough: .v("2.0"), finished: ["a", "b"])
            ),
        ])
        #expect(found == [.finishedStepNeverRunsAgain])
    }

    @Test("steps finished out of run order")
    func outOfOrder() {
        let found = broken([
            (
                "2.0",
                LaunchObservation(
                    outcome: .upgraded, ran: ["b", "a"], upgradedThrough: .v("2.0"), finished: ["b", "a"])
            )
        ])
        #expect(found == [.stepsFinishInRunOrder])
    }

    @Test("an upgraded launch left a step at or below C undone")
    func incomplete() {
        let found = broken([
            ("2.0", LaunchObservation(outcome: .upgraded, ran: ["a"], upgradedThrough: .v("2.0"), finished: ["a"]))
        ])
        #expect(found == [.everyStepAtOrBelowCurrentIsDone])
    }

    @Test("steps at or below a skip baseline count as done")
    func baseline() {
        let found = broken(
            [
                ("2.0", LaunchObservation(outcome: .freshInstall, upgradedThrough: .v("2.0"))),
                ("2.0", LaunchObservation(outcome: .upToDate, upgradedThrough: .v("2.0"))),
            ],
            policy: UpgradePolicy())
        #expect(found.isEmpty)
    }

    @Test("the mark went down under keep, but may under rewind")
    func markDown() {
        let launches = [
            (
                "2.0",
                LaunchObservation(
                    outcome: .upgraded, ran: ["a", "b"], upgradedThrough: .v("2.0"), finished: ["a", "b"])
            ),
            ("1.1", LaunchObservation(outcome: .downgraded, upgradedThrough: .v("1.1"))),
        ]
        #expect(broken(launches) == [.markNeverGoesDown])
        #expect(broken(launches, policy: UpgradePolicy(freshInstall: .runAll, downgrade: .rewind)).isEmpty)
    }

    @Test("a rewind forgets finished steps above C, so they may run again")
    func rewindForgets() {
        let launches = [
            (
                "2.0",
                LaunchObservation(
                    outcome: .upgraded, ran: ["a", "b"], upgradedThrough: .v("2.0"), finished: ["a", "b"])
            ),
            ("1.1", LaunchObservation(outcome: .downgraded, upgradedThrough: .v("1.1"))),
            ("2.0", LaunchObservation(outcome: .upgraded, ran: ["b"], upgradedThrough: .v("2.0"), finished: ["b"])),
        ]
        #expect(broken(launches, policy: UpgradePolicy(freshInstall: .runAll, downgrade: .rewind)).isEmpty)
        #expect(broken(launches).contains(.finishedStepNeverRunsAgain))
    }

    @Test("the next launch to handle a step did not start with the failed one")
    func failedNotFirst() {
        let found = broken([
            ("1.1", LaunchObservation(outcome: .failed, ran: ["a"], upgradedThrough: nil)),
            ("2.0", LaunchObservation(outcome: .failed, ran: ["b"], upgradedThrough: nil)),
        ])
        #expect(found == [.failedStepIsRetriedFirst])
    }

    @Test("a written state that breaks the rules of the state (<doc:LaunchAlgorithm>, \"The state\")")
    func invalidState() {
        var state = UpgradeState(upgradedThrough: .v("2.0"), lastLaunched: .v("2.0"))
        #expect(state.invariantViolations(writtenAt: .v("2.0"), crashed: false, checkEncoding: true).isEmpty)
        state.completed = [StepRecord(id: "a", version: .v("1.1"))]
        state.abandoned = [StepRecord(id: "a", version: .v("1.1"))]
        state.inProgress = StepInProgress(id: "b", version: .v("2.0"), attempt: 1)
        let problems = state.invariantViolations(writtenAt: .v("1.0"), crashed: false, checkEncoding: true)
        #expect(problems.contains { $0.contains("lastLaunched is 2.0, not 1.0") })
        #expect(problems.contains { $0.contains("at or below the mark") })
        #expect(problems.contains("a step is both completed and abandoned"))
        #expect(problems.contains("inProgress is set after a launch that did not die"))
    }
}

@Suite("explore: the naive pattern")
struct NaiveUpgraderTests {
    let naive = NaiveUpgrader(steps: [
        ScriptedStep(version: .v("8.8.0"), id: "long"), ScriptedStep(version: .v("8.8"), id: "short"),
        ScriptedStep(version: .v("9.0"), id: "future", behavior: .failTimes(1)),
    ])

    @Test("the snippet's comparison: 8.8 < 8.8.0, and no stored version is below everything")
    func comparison() {
        #expect(NaivePattern.compareVersion([8, 8], [8, 8, 0]) == -1)
        #expect(NaivePattern.compareVersion([8, 10], [8, 9]) == 1)
        #expect(NaivePattern.compareVersion([], [0, 0]) == -1)
        #expect(NaivePattern.compareVersion([1, 2], [1, 2]) == 0)
    }

    @Test(
        "explore's naive launch runs what the benchmark's port of the snippet selects, in its order",
        arguments: [nil, "0.9", "1.0", "1.2", "1.2.0", "2.0", "10.1", "99.0"])
    func sameSelectionAsThePort(stored: String?) {
        let versions = ["1.2.0", "1.2", "10.0", "2.0.1", "1.0", "9.9", "2.0", "10.0.1"].map { Version.v($0) }
        let upgrader = NaiveUpgrader(steps: versions.map { ScriptedStep(version: $0) })
        var state = NaiveUpgrader.State.initial(stepCount: versions.count)
        state.storedVersion = stored.map { NaiveUpgrader.components(of: .v($0)) }
        let ran = upgrader.launch(at: .v("99.0"), from: state).observation.ran
        // The port reads a missing version as "" (one component, 0): below every step's version, as none is.
        let selected = NaivePattern.upgradeMethods(versions.map(\.stepName) + ["load"], storedVersion: stored ?? "")
        #expect(ran == selected)
    }

    @Test("no upper bound, a failure still stores C, and 8.8.0 runs again after 8.8 is stored")
    func faults() {
        let first = naive.launch(at: .v("8.8"), from: .initial(stepCount: 3))
        // Every step runs on a fresh install, the one for 9.0 too, and its failure stops the loop.
        #expect(first.observation.ran == ["short", "long", "future"])
        #expect(first.observation.outcome == .failed)
        #expect(first.state.storedVersion == [8, 8])
        let second = naive.launch(at: .v("8.8"), from: first.state)
        // 8.8.0 > 8.8 under the snippet's comparison: it runs again; the failed 9.0 step runs ahead of its version.
        #expect(second.observation.ran == ["long", "future"])
    }

    @Test("a crash writes nothing")
    func crash() {
        let crashing = NaiveUpgrader(steps: [ScriptedStep(version: .v("1.1"), behavior: .crashTimes(1))])
        let launch = crashing.launch(
            at: .v("1.1"), from: NaiveUpgrader.State(storedVersion: [1, 0], failedAttempts: [0]))
        #expect(launch.observation.outcome == .crashed)
        #expect(launch.state.storedVersion == [1, 0])
        #expect(launch.state.failedAttempts == [1])
    }
}

// Runs the built binary: only where a test can start a process (not on iOS, tvOS, watchOS or visionOS).
#if os(macOS) || os(Linux)
    @Suite("upgrade-sim explore end to end")
    struct ExploreEndToEndTests {
        static let shippedFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures")

        @Test("every shipped fixture keeps every guarantee with the standard engine; with the findings allowed, exit 0")
        func standardPasses() async throws {
            let result = try await Binary.run([
                "explore", Self.shippedFixtures.path, "--depth", "3", "--allow", "late,lost",
            ])
            #expect(result.status == 0, "\(result.stdout.suffix(2000)) \(result.stderr)")
            #expect(
                result.stdout.hasSuffix("; 0 guarantees broken; 2 findings (1 late, 1 lost), 2 allowed\n"),
                "\(result.stdout.suffix(300))")
            #expect(!result.stdout.contains("FAIL"))
            #expect(!result.stdout.contains("BROKEN"))
        }

        @Test(
            "each finding kind is shown by a shipped fixture: exit 1 without --allow, 0 with it",
            arguments: [
                ("37-step-added-later-with-older-version.json", "late", "LATE rebuild-search-index (1.2): "),
                ("38-crash-looping-step-removed-in-hotfix.json", "lost", "LOST reindex (2.0): "),
            ])
        func findingsExitStatus(file: String, kind: String, line: String) async throws {
            let path = Self.shippedFixtures.appendingPathComponent(file).path
            let found = try await Binary.run(["explore", path, "--all-policies"])
            #expect(found.status == 1, "\(found.stderr)")
            #expect(found.stdout.contains("\n  " + line))
            #expect(
                found.stdout.hasSuffix(
                    "; 0 guarantees broken; 1 finding (\(kind == "late" ? "1 late, 0 lost" : "0 late, 1 lost")), 0 allowed\n"
                ))
            let allowed = try await Binary.run(["explore", path, "--all-policies", "--allow", kind])
            #expect(allowed.status == 0, "\(allowed.stdout.suffix(300))")
            #expect(allowed.stdout.contains(line.replacingOccurrences(of: "): ", with: "), allowed: ")))
            for format in ["json", "junit", "markdown"] {
                let rendered = try await Binary.run(["explore", path, "--format", format])
                #expect(rendered.status == 1)
                #expect(rendered.stdout.contains(kind == "late" ? "rebuild-search-index" : "reindex"), "\(format)")
            }
        }

        @Test("bad --allow values exit 2", arguments: ["early", "late,", "Late"])
        func badAllow(_ value: String) async throws {
            let result = try await Binary.run(["explore", Self.shippedFixtures.path, "--allow", value])
            #expect(result.status == 2)
            #expect(result.stderr.contains("invalid --allow"))
        }

        @Test("--save writes each finding's shortest history, which run replays exactly")
        func saveFindings() async throws {
            let scratch = try TemporaryDirectory("explore-findings")
            let saved = scratch.file("found")
            let path = Self.shippedFixtures.appendingPathComponent("38-crash-looping-step-removed-in-hotfix.json").path
            _ = try await Binary.run(["explore", path, "--save", saved.path])
            let file = saved.appendingPathComponent("crash-looping-step-removed-in-hotfix-lost-reindex.json")
            #expect(FileManager.default.fileExists(atPath: file.path))
            let replay = try await Binary.run(["run", file.path])
            #expect(replay.status == 0, "\(replay.stdout) \(replay.stderr)")
        }

        @Test("plan shows the floor, and the steps the build lacks with what the state records of them")
        func planShowsBuild() async throws {
            let folder = try TemporaryDirectory("plan-releases")
            let state = folder.file("state.json")
            let hotfix = Self.shippedFixtures.appendingPathComponent("38-crash-looping-step-removed-in-hotfix.json")
                .path
            for version in ["1.0", "2.0"] {
                _ = try await Binary.run(["launch", "--fixture", hotfix, "--store", state.path, "--version", version])
            }
            let plan = try await Binary.run(["plan", "--fixture", hotfix, "--store", state.path, "--version", "2.0.1"])
            #expect(plan.status == 0, "\(plan.stderr)")
            #expect(plan.stdout.contains("  move-settings (2.0): will run, attempt 1\n"), "\(plan.stdout)")
            #expect(!plan.stdout.contains("  reindex (2.0): "))
            #expect(
                plan.stdout.contains(
                    "not in the build of 2.0.1, so never run by it:\n  reindex (2.0, until 2.0): the state records it as"
                        + " in progress (attempt 1: the last process died in it)\n"), "\(plan.stdout)")
            let floor = Self.shippedFixtures.appendingPathComponent("39-floor-after-three-releases.json").path
            let fresh = try await Binary.run([
                "plan", "--fixture", floor, "--store", folder.file("other").path, "--version", "3.1",
            ])
            #expect(fresh.stdout.contains("  upgradeFloor_2_0 (2.0): not run: fresh install\n"), "\(fresh.stdout)")
            #expect(fresh.stdout.contains("\nfloor: upgradeFloor_2_0 (2.0) is in the build of 3.1"))
            #expect(fresh.stdout.contains("  appUpgradeTo_1_1 (1.1, until 3.0)\n"))
        }

        @Test("the naive engine breaks guarantees on the shipped fixtures and prints replayable shortest histories")
        func naiveFails() async throws {
            let scratch = try TemporaryDirectory("explore")
            let saved = scratch.file("found")
            let fixture = Self.shippedFixtures.appendingPathComponent("06-failed-step-retried-next-launch.json")
            let result = try await Binary.run(["explore", fixture.path, "--engine", "naive", "--save", saved.path])
            #expect(result.status == 1, "\(result.stderr)")
            for guarantee in [
                "noStepAboveRunningVersion", "finishedStepNeverRunsAgain", "everyStepAtOrBelowCurrentIsDone",
                "failedStepIsRetriedFirst",
            ] {
                #expect(result.stdout.contains("BROKEN \(guarantee)"), "\(guarantee)")
            }
            // The shortest history of a lost failed step: fail at the first launch, then nothing retries it.
            let lost = try FixtureLoader.load(
                file: saved.appendingPathComponent("failed-step-retried-next-launch-failedStepIsRetriedFirst.json").path
            )
            #expect(lost.histories.count == 1)
            #expect(lost.histories[0].launches.count == 2)
            // Replayed through the standard engine, the saved history reads and shows where it differs: exit 1, not 2.
            let replay = try await Binary.run(["run", saved.path])
            #expect(replay.status == 1, "\(replay.stderr)")
            #expect(replay.stderr.isEmpty)
        }

        @Test("a history of the standard engine, written as explore prints it, replays exactly")
        func standardHistoryReplays() async throws {
            // Every launch of the standard engine as a fixture (the format explore prints) replays with 0 mismatches.
            let fixture = try FixtureLoader.load(
                file: Self.shippedFixtures.appendingPathComponent("13-crash-reruns-only-unfinished-step.json").path)
            let launcher = InMemoryLauncher(app: fixture.app)
            var state: UpgradeState?
            var observations: [LaunchObservation] = []
            let launches: [Version] = fixture.explorationVersions.reversed() + fixture.explorationVersions
            for version in launches {
                let launch = try await launcher.launch(at: version, from: state)
                observations.append(launch.observation)
                state = launch.state
            }
            let violation = Violation(
                guarantee: .stateIsValid, detail: "none", policy: fixture.policy, launches: launches,
                observations: observations)
            let scratch = try TemporaryDirectory("explore-replay")
            let file = scratch.file("history.json")
            try Data(violation.fixture(from: fixture, engine: .standard).jsonText.utf8).write(to: file)
            let replay = try await Binary.run(["run", file.path])
            #expect(replay.status == 0, "\(replay.stdout) \(replay.stderr)")
        }

        @Test(
            "bad arguments exit 2",
            arguments: [["--depth", "0"], ["--depth", "x"], ["--engine", "other"], ["--bogus"]])
        func badArguments(_ arguments: [String]) async throws {
            let result = try await Binary.run(["explore", Self.shippedFixtures.path] + arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains("error:"))
        }

        @Test("input that cannot be read is reported alone, naming the path and the fault, no summary, exit 2")
        func inputErrorAlone() async throws {
            let folder = try TemporaryDirectory("explore-unreadable")
            let missing = folder.file("missing.json")
            let empty = folder.file("empty")
            try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
            let broken = folder.file("broken.json")
            try "{\"name\": \"x\"}".write(to: broken, atomically: true, encoding: .utf8)
            for (path, fault) in [
                (missing.path, "no such file or folder"), (empty.path, "the folder holds no fixture (*.json) files"),
                (broken.path, "\"steps\""),
            ] {
                for arguments in [["explore", path], ["explore", path, "--format", "json"]] {
                    let result = try await Binary.run(arguments)
                    #expect(result.status == 2, "\(arguments)")
                    #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
                    #expect(result.stderr.hasPrefix("error: \(path): "), "\(result.stderr)")
                    #expect(result.stderr.contains(fault), "\(result.stderr)")
                    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                }
            }
        }

        @Test("with some input unreadable, the others are explored and the closing line says so, exit 2")
        func inputErrorBesideFixtures() async throws {
            let folder = try TemporaryDirectory("explore-partly-unreadable")
            let missing = folder.file("missing.json").path
            let fixture = Self.shippedFixtures.appendingPathComponent("01-fresh-install-skip-runs-nothing.json").path
            let result = try await Binary.run(["explore", fixture, missing])
            #expect(result.status == 2)
            #expect(result.stderr == "error: \(missing): no such file or folder\n")
            #expect(
                result.stdout.hasSuffix("; 1 input could not be read (see the errors above)\n"),
                "\(result.stdout.suffix(300))")
            #expect(result.stdout.contains("explored 1 fixture with the standard engine"))
        }

        @Test("an exploration too large to finish is refused: exit 2")
        func tooLarge() async throws {
            let result = try await Binary.run(["explore", Self.shippedFixtures.path, "--depth", "40"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("choose a smaller --depth"))
        }
    }
#endif
