import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeExplorer
@testable import UpgradeFixtures
@testable import UpgradeReplay

private let shippedFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

private func shipped(_ name: String) throws -> Fixture {
    try FixtureLoader.load(file: shippedFixtures.appendingPathComponent(name).path)
}

/// Every broken guarantee and finding of an exploration, with the length of its shortest history.
func foundByExploration(_ result: ExplorationResult) -> [String: Int] {
    var found: [String: Int] = [:]
    for violation in result.violations { found["broken \(violation.guarantee)"] = violation.launches.count }
    for finding in result.findings { found["\(finding.kind) \(finding.stepID)"] = finding.launches.count }
    return found
}

/// The fault planted for the soundness tests: a retry limit of 4 attempts that marks a step done.
private let plantedFault = PlantedFault.retryLimitMarksDone(attempts: 4)

/// Explores a fixture under every policy, to a fixpoint and to each depth given; the device's
/// conditions (locked launches, expiries) only when asked, since they multiply a depth's histories
/// (their own agreement test is in `DeviceConditionExploreTests`).
func explore(
    _ fixture: Fixture, engine: ExplorationOptions.Engine = .standard, fault: PlantedFault? = nil,
    depths: [Int], deviceConditions: Bool = false
) async throws -> (fixpoint: ExplorationResult, bounded: [Int: ExplorationResult]) {
    var options = ExplorationOptions(allPolicies: true, engine: engine, allow: [.late, .lost])
    options.plantedFault = fault
    options.deviceConditions = deviceConditions
    let fixpoint = try await Explorer(fixture: fixture, options: options).run()
    var bounded: [Int: ExplorationResult] = [:]
    for depth in depths {
        options.depth = depth
        bounded[depth] = try await Explorer(fixture: fixture, options: options).run()
    }
    return (fixpoint, bounded)
}

/// Checks that the bounded search finds nothing the fixpoint does not, that the fixpoint's histories
/// are never longer, and that what the fixpoint finds within the depth the bounded search finds too,
/// with a history of the same length (both are shortest).
func expectAgreement(
    fixpoint: ExplorationResult, bounded: ExplorationResult, depth: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let byFixpoint = foundByExploration(fixpoint)
    let byDepth = foundByExploration(bounded)
    for (what, length) in byDepth {
        let fixpointLength = byFixpoint[what]
        #expect(
            fixpointLength != nil, "depth \(depth) found \(what), the fixpoint did not", sourceLocation: sourceLocation)
        #expect(
            (fixpointLength ?? .max) <= length, "\(what): the fixpoint's history is longer than depth \(depth)'s",
            sourceLocation: sourceLocation)
    }
    for (what, length) in byFixpoint where length <= depth {
        #expect(
            byDepth[what] == length, "\(what) in \(length) launches, missed by depth \(depth)",
            sourceLocation: sourceLocation)
    }
}

@Suite("explore to a fixpoint: sound against the bounded search")
struct FixpointSoundnessTests {
    @Test(
        "the naive engine: depth 6 finds nothing the fixpoint does not, and no shorter history",
        arguments: [
            "06-failed-step-retried-next-launch.json", "08-always-failing-step-blocks-by-default.json",
            "14-crash-then-recover-attempts-continue.json", "37-step-added-later-with-older-version.json",
        ])
    func naive(file: String) async throws {
        let (fixpoint, bounded) = try await explore(try shipped(file), engine: .naive, depths: [6])
        #expect(!fixpoint.violations.isEmpty)
        expectAgreement(fixpoint: fixpoint, bounded: bounded[6]!, depth: 6)
    }

    @Test(
        "a planted engine fault that needs five launches: the fixpoint and depth 6 find it, depth 4 misses it",
        arguments: [
            "08-always-failing-step-blocks-by-default.json", "21-crash-loop-without-give-up.json",
            "38-crash-looping-step-removed-in-hotfix.json",
        ])
    func plantedFaultFound(file: String) async throws {
        let fixture = try shipped(file)
        let (fixpoint, bounded) = try await explore(fixture, fault: plantedFault, depths: [4, 6])
        let violation = try #require(fixpoint.violations.first { $0.guarantee == .everyStepAtOrBelowCurrentIsDone })
        #expect(violation.policy.giveUpAfter == nil)
        #expect(fixpoint.violations.allSatisfy { $0.launches.count >= 5 })
        #expect(bounded[4]!.guaranteesHeld, "\(bounded[4]!.violations.map(\.detail))")
        #expect(!bounded[6]!.guaranteesHeld)
        expectAgreement(fixpoint: fixpoint, bounded: bounded[6]!, depth: 6)
        expectAgreement(fixpoint: fixpoint, bounded: bounded[4]!, depth: 4)
        // Without the fault the engine keeps every guarantee, to the fixpoint.
        let clean = try await explore(fixture, depths: []).fixpoint
        #expect(clean.guaranteesHeld, "\(clean.violations.map(\.detail))")
    }

    @Test(
        "the longest shortest path is the depth a bounded search needs: one launch more finds all the fixpoint finds",
        arguments: [
            ("08-always-failing-step-blocks-by-default.json", ExplorationOptions.Engine.standard),
            ("06-failed-step-retried-next-launch.json", .naive),
            ("37-step-added-later-with-older-version.json", .standard),
        ])
    func longestShortestPath(file: String, engine: ExplorationOptions.Engine) async throws {
        let fixture = try shipped(file)
        let fixpoint = try await explore(fixture, engine: engine, depths: []).fixpoint
        let space = try #require(fixpoint.stateSpace)
        // Every state is reached within that many launches, so every transition within one more.
        let depth = space.longestShortestPath + 1
        #expect(depth <= 7)
        let bounded = try await explore(fixture, engine: engine, depths: [depth]).bounded[depth]!
        #expect(foundByExploration(bounded) == foundByExploration(fixpoint))
    }

    @Test("with the planted fault too: one launch more than the longest shortest path finds the fault")
    func longestShortestPathWithFault() async throws {
        let fixture = Fixture(
            name: "stuck", policy: UpgradePolicy(freshInstall: .runAll),
            steps: [ScriptedStep(version: "1.1", behavior: .fail), ScriptedStep(version: "1.2")])
        let fixpoint = try await explore(fixture, fault: plantedFault, depths: []).fixpoint
        let depth = try #require(fixpoint.stateSpace).longestShortestPath + 1
        #expect(depth <= 9)
        let bounded = try await explore(fixture, fault: plantedFault, depths: [depth]).bounded[depth]!
        #expect(foundByExploration(bounded) == foundByExploration(fixpoint))
        // Four launches fail the step, the fifth skips it as done: the mark passes it, and the failed step
        // is not the first one handled.
        #expect(
            fixpoint.violations.map(\.guarantee) == [.everyStepAtOrBelowCurrentIsDone, .failedStepIsRetriedFirst])
        #expect(fixpoint.violations.allSatisfy { $0.launches.count == 5 })
    }

    @Test("a counterexample of the fixpoint is a shortest history, replayed from a fresh install")
    func counterexampleReplays() async throws {
        let fixture = try shipped("06-failed-step-retried-next-launch.json")
        let result = try await Explorer(fixture: fixture, options: ExplorationOptions(engine: .naive)).run()
        for violation in result.violations {
            #expect(violation.observations.count == violation.launches.count)
            let naive = NaiveUpgrader(steps: fixture.steps, floor: fixture.floor)
            var state = NaiveUpgrader.State.initial(stepCount: naive.steps.count)
            for (version, observed) in zip(violation.launches, violation.observations) {
                let launch = naive.launch(at: version, from: state)
                #expect(launch.observation.outcome == observed.outcome && launch.observation.ran == observed.ran)
                state = launch.state
            }
        }
        // The shortest history of a failed step that is not retried first: fail, then any other launch.
        let notRetried = try #require(result.violations.first { $0.guarantee == .failedStepIsRetriedFirst })
        #expect(notRetried.launches.count == 2)
    }
}

@Suite("explore to a fixpoint: the attempt cut-off")
struct AttemptCutoffTests {
    @Test("past the longest failTimes, crashTimes and script, giveUpAfter and a planted fault; at least 1")
    func value() {
        let steps = [
            ScriptedStep(version: "1.1", behavior: .failTimes(2)), ScriptedStep(version: "1.2", behavior: .crash),
            ScriptedStep(version: "1.3", behavior: .script([.fail, .crash, .crash, .ok])),
        ]
        #expect(AttemptCutoff(steps: steps, floor: nil, giveUpAfter: nil, fault: nil).value == 3)
        #expect(AttemptCutoff(steps: steps, floor: nil, giveUpAfter: 5, fault: nil).value == 5)
        #expect(
            AttemptCutoff(steps: steps, floor: .floor("1.0", behavior: .crashTimes(6)), giveUpAfter: 5, fault: nil)
                .value == 6)
        #expect(AttemptCutoff(steps: steps, floor: nil, giveUpAfter: nil, fault: plantedFault).value == 4)
        #expect(
            AttemptCutoff(
                steps: [ScriptedStep(version: "1.1", behavior: .fail)], floor: nil, giveUpAfter: nil, fault: nil
            ).value == 1)
    }

    @Test("a step failing for ever without giveUpAfter: a finite search, every state expanded at every version")
    func finite() async throws {
        let fixture = Fixture(
            name: "for-ever", policy: UpgradePolicy(freshInstall: .runAll),
            steps: [ScriptedStep(version: "1.1", behavior: .fail), ScriptedStep(version: "1.2", behavior: .crash)])
        var options = ExplorationOptions()
        options.deviceConditions = false  // one plain launch per state and version; the conditions add their own moves
        let result = try await Explorer(fixture: fixture, options: options).run()
        let space = try #require(result.stateSpace)
        #expect(result.passed)
        #expect(space.transitions == space.states * result.versions.count)
        #expect(space.states < 100)
        #expect(result.launches == space.transitions && result.histories == 0)
    }

    /// Launches random histories twice, once with every state cut off after each launch, and returns
    /// the first launch where the two differ (observation or judgement), if any.
    static func divergence(
        _ fixture: Fixture, policy: UpgradePolicy, cutoff: AttemptCutoff, seed: UInt64, histories: Int = 12,
        length: Int = 16
    ) throws -> String? {
        var generator = SeededRandomNumberGenerator(seed: seed)
        let catalog = ExplorationCatalog(steps: fixture.steps, floor: fixture.floor)
        let app = SimulatedApp(steps: fixture.steps, floor: fixture.floor, policy: policy)
        let versions = fixture.explorationVersions
        let real = ExplorationLauncher(app: app, catalog: catalog)
        let cut = ExplorationLauncher(app: app, catalog: catalog)
        for _ in 0..<histories {
            var realState: UpgradeState?
            var cutState: UpgradeState?
            var realTracker = GuaranteeTracker(catalog: catalog, policy: policy, engine: .standard)
            var cutTracker = realTracker
            var realObservation = IndexedObservation(outcome: .upToDate, upgradedThrough: nil)
            var cutObservation = realObservation
            var launched: [Version] = []
            for _ in 0..<length {
                // Mostly one version again and again, so that attempt numbers climb past the cut-off.
                let version =
                    launched.last.flatMap { Int.random(in: 0..<3, using: &generator) > 0 ? $0 : nil }
                    ?? versions.randomElement(using: &generator)!
                launched.append(version)
                if let written = try real.launch(at: version, from: realState, into: &realObservation) {
                    realState = written
                }
                if var written = try cut.launch(at: version, from: cutState, into: &cutObservation) {
                    cutoff.apply(to: &written)
                    cutState = written
                }
                var realFindings: [(FindingKind, Int, String)] = []
                var cutFindings: [(FindingKind, Int, String)] = []
                let realBroken = realTracker.record(
                    realObservation, at: version, build: catalog.releases.build(at: version), engine: .standard,
                    findings: &realFindings)
                let cutBroken = cutTracker.record(
                    cutObservation, at: version, build: catalog.releases.build(at: version), engine: .standard,
                    findings: &cutFindings)
                let same =
                    realObservation.observation(catalog: catalog) == cutObservation.observation(catalog: catalog)
                    && realBroken.map(\.1) == cutBroken.map(\.1) && realFindings.map(\.2) == cutFindings.map(\.2)
                if !same { return "\(fixture.name) under \(policy): \(launched)" }
            }
        }
        return nil
    }

    @Test("states cut off behave as the real ones, launch after launch, over random histories of every shipped fixture")
    func bisimulation() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: shippedFixtures.path).filter {
            $0.hasSuffix(".json")
        }.sorted()
        #expect(files.count >= 39)
        for (index, file) in files.enumerated() {
            let fixture = try shipped(file)
            for policy in fixture.explorationPolicies(all: true) {
                let cutoff = AttemptCutoff(
                    steps: fixture.steps, floor: fixture.floor, giveUpAfter: policy.giveUpAfter, fault: nil)
                let divergence = try Self.divergence(fixture, policy: policy, cutoff: cutoff, seed: UInt64(index))
                #expect(divergence == nil)
            }
        }
    }

    @Test(
        "one below the cut-off is not safe for these fixtures: some history tells the counts apart",
        arguments: [
            "36-give-up-boundary.json", "20-give-up-after-n-crashing-step.json",
            "07-failing-step-blocks-later-steps.json", "14-crash-then-recover-attempts-continue.json",
        ])
    func lowerIsUnsafe(file: String) throws {
        let fixture = try shipped(file)
        let cutoff = AttemptCutoff(
            steps: fixture.steps, floor: fixture.floor, giveUpAfter: fixture.policy.giveUpAfter, fault: nil)
        #expect(cutoff.value > 1)
        let lower = AttemptCutoff(value: cutoff.value - 1)
        let diverged = try (0..<8).contains { seed in
            try Self.divergence(fixture, policy: fixture.policy, cutoff: lower, seed: seed, histories: 40) != nil
        }
        #expect(diverged)
    }
}

@Suite("explore to a fixpoint: the state key")
struct StateKeyTests {
    let catalog = ExplorationCatalog(steps: [
        ScriptedStep(version: "1.1", id: "a"), ScriptedStep(version: "2.0", id: "b"),
    ])

    func key(_ state: UpgradeState?, _ tracker: GuaranteeTracker? = nil, reduced: Bool = true) -> [UInt32] {
        let encoder = StateKeyEncoder(catalog: catalog, reduced: reduced)
        var words: [UInt32] = []
        encoder.append(state, to: &words)
        (tracker ?? GuaranteeTracker(catalog: catalog, policy: UpgradePolicy(), engine: .standard)).appendKey(
            to: &words, reduced: reduced, storedMark: .some(state?.upgradedThrough))
        return words
    }

    @Test("no state is told from an empty one, and the interrupted flag from its absence")
    func storedState() {
        #expect(key(nil) != key(UpgradeState()))
        let failed = UpgradeState(attempts: [StepAttempts(id: "b", version: "2.0", failed: 1)])
        var interrupted = failed
        interrupted.attempts[0].lastAttemptInterrupted = true
        #expect(key(failed) != key(interrupted))
        var running = UpgradeState()
        running.inProgress = StepInProgress(id: "b", version: "2.0", attempt: 1)
        #expect(key(running) != key(UpgradeState()))
        #expect(key(UpgradeState(upgradedThrough: "2.0")) != key(UpgradeState(lastLaunched: "2.0")))
    }

    @Test("the reduced key leaves lastLaunched and the lists' order out; the full key keeps them")
    func reduced() {
        let ab = [StepRecord(id: "a", version: "1.1"), StepRecord(id: "b", version: "2.0")]
        let one = UpgradeState(lastLaunched: "1.0", completed: ab)
        let other = UpgradeState(lastLaunched: "2.0", completed: ab.reversed())
        #expect(key(one) == key(other))
        #expect(key(one, reduced: false) != key(other, reduced: false))
        // A step listed twice stays told from one listed once.
        #expect(key(UpgradeState(completed: [ab[0]])) != key(UpgradeState(completed: [ab[0], ab[0]])))
        let attempts = [
            StepAttempts(id: "b", version: "2.0", failed: 1), StepAttempts(id: "a", version: "1.1", failed: 2),
        ]
        #expect(key(UpgradeState(attempts: attempts)) == key(UpgradeState(attempts: attempts.reversed())))
        #expect(key(UpgradeState(attempts: attempts)) != key(UpgradeState(attempts: [attempts[0]])))
        // A record that names no step of the catalog keeps its id and version.
        let unknown = UpgradeState(completed: [StepRecord(id: "zz", version: "1.1")])
        #expect(key(unknown) != key(UpgradeState(completed: [StepRecord(id: "zy", version: "1.1")])))
        #expect(key(unknown) != key(UpgradeState(completed: [ab[0]])))
    }

    @Test("the checker's launch counter stays out; whether a launch happened stays in")
    func launchCounter() {
        var tracker = GuaranteeTracker(catalog: catalog, policy: UpgradePolicy(), engine: .standard)
        let none = key(nil, tracker)
        let upToDate = IndexedObservation(outcome: .upToDate, upgradedThrough: "2.0")
        var findings: [(FindingKind, Int, String)] = []
        _ = tracker.record(upToDate, at: "2.0", build: 0, engine: .standard, findings: &findings)
        let once = key(nil, tracker)
        _ = tracker.record(upToDate, at: "2.0", build: 0, engine: .standard, findings: &findings)
        #expect(none != once)
        #expect(key(nil, tracker) == once)
    }
}

// Runs the built binary: only where a test can start a process (not on iOS, tvOS, watchOS or visionOS).
#if os(macOS) || os(Linux)
    @Suite("upgrade-sim explore --fixpoint end to end")
    struct FixpointEndToEndTests {
        @Test("the fixpoint is the default; it reports states, transitions and the longest shortest path")
        func byDefault() async throws {
            let path = shippedFixtures.appendingPathComponent("21-crash-loop-without-give-up.json").path
            let result = try await Binary.run(["explore", path, "--all-policies"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("(standard engine, to a fixpoint, 5 versions, 18 policies): "))
            #expect(result.stdout.contains(" transitions, longest shortest path "))
            #expect(result.stdout.contains("explored 1 fixture with the standard engine to a fixpoint: "))
            let explicit = try await Binary.run(["explore", path, "--all-policies", "--fixpoint"])
            #expect(explicit.status == 0)
            let json = try await Binary.run(["explore", path, "--format", "json"])
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect((document["states"] as? Int ?? 0) > 0)
            let fixture = try #require((document["fixtures"] as? [[String: Any]])?.first)
            #expect(fixture["search"] as? String == "fixpoint")
            #expect(fixture["depth"] is NSNull)
            #expect((fixture["transitions"] as? Int ?? 0) > 0 && (fixture["longestShortestPath"] as? Int ?? 0) > 0)
        }

        @Test("--fixpoint and --depth exclude each other: exit 2")
        func exclusive() async throws {
            let result = try await Binary.run(["explore", shippedFixtures.path, "--fixpoint", "--depth", "3"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("--fixpoint and --depth exclude each other"))
        }
    }
#endif
