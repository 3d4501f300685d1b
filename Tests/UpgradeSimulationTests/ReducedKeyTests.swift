import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeExplorer
@testable import UpgradeFixtures

private let shippedFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures")

private func shippedFixtures() throws -> [Fixture] {
    let loaded = FixtureLoader.load(paths: [shippedFolder.path])
    #expect(loaded.errors.isEmpty)
    return loaded.fixtures
}

/// Every broken guarantee and finding of an exploration, with the length of its shortest history.
private func found(_ result: ExplorationResult) -> [String: Int] {
    var found: [String: Int] = [:]
    for violation in result.violations { found["broken \(violation.guarantee)"] = violation.launches.count }
    for finding in result.findings { found["\(finding.kind) \(finding.stepID)"] = finding.launches.count }
    return found
}

/// Explores a fixture to a fixpoint with the reduced key and with the full one, on `cores` cores.
private func bothKeys(
    _ fixture: Fixture, allPolicies: Bool = true, engine: ExplorationOptions.Engine = .standard,
    fault: PlantedFault? = nil, cores: Int = 1
) async throws -> (reduced: ExplorationResult, full: ExplorationResult) {
    var options = ExplorationOptions(allPolicies: allPolicies, engine: engine)
    options.plantedFault = fault
    options.cores = cores
    let reduced = try await Explorer(fixture: fixture, options: options).run()
    options.fullStateKey = true
    let full = try await Explorer(fixture: fixture, options: options).run()
    return (reduced, full)
}

/// Checks that both searches found the same, with histories of the same lengths, and that the
/// reduced one needed no more states.
private func expectSame(
    _ results: (reduced: ExplorationResult, full: ExplorationResult), _ what: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(found(results.reduced) == found(results.full), "\(what)", sourceLocation: sourceLocation)
    let reduced = results.reduced.stateSpace?.states ?? 0
    let full = results.full.stateSpace?.states ?? 0
    #expect(
        reduced > 0 && reduced <= full, "\(what): \(reduced) states against \(full)", sourceLocation: sourceLocation)
}

/// Fixtures drawn from a seeded generator: a few steps over a few versions, every behaviour, some
/// steps with `since` and `until` (and `allow`), sometimes a floor, under a random policy.
struct RandomFixtures {
    static let versions: [Version] = ["1.0", "1.1", "1.2", "1.3", "2.0", "2.1"]

    static func make(seed: UInt64) -> Fixture {
        var random = SeededRandomNumberGenerator(seed: seed)
        func behavior() -> StepBehavior {
            switch Int.random(in: 0..<8, using: &random) {
            case 0: .fail
            case 1: .crash
            case 2: .failTimes(Int.random(in: 1...2, using: &random))
            case 3: .crashTimes(Int.random(in: 1...2, using: &random))
            case 4: .script([.fail, .crash, .ok].shuffled(using: &random))
            default: .succeed
            }
        }
        func release() -> (Version?, Version?) {
            guard Int.random(in: 0..<3, using: &random) == 0 else { return (nil, nil) }
            let since = Bool.random(using: &random) ? versions.randomElement(using: &random) : nil
            var until = Bool.random(using: &random) ? versions.randomElement(using: &random) : nil
            if let since, let low = until, low < since { until = since }
            return (since, until)
        }
        let hasFloor = Int.random(in: 0..<4, using: &random) == 0
        // A floor at 1.0 lies below every step (which start at 1.1), so every build is valid.
        let stepVersions = hasFloor ? Array(versions.dropFirst()) : versions
        var steps: [ScriptedStep] = []
        for index in 0..<Int.random(in: 1...4, using: &random) {
            let (since, until) = release()
            steps.append(
                ScriptedStep(
                    version: stepVersions.randomElement(using: &random)!, id: "s\(index)", behavior: behavior(),
                    since: since, until: until, allow: Int.random(in: 0..<5, using: &random) == 0 ? [.lost] : []))
        }
        var floor: ScriptedStep?
        if hasFloor {
            let (since, until) = release()
            floor = .floor("1.0", behavior: behavior(), since: since, until: until)
        }
        let fresh: UpgradePolicy.FreshInstall = [.skip, .runAll, .upgradeFrom("1.1")].randomElement(using: &random)!
        let policy = UpgradePolicy(
            freshInstall: fresh, downgrade: Bool.random(using: &random) ? .keep : .rewind,
            giveUpAfter: [nil, 1, 2].randomElement(using: &random)!)
        return Fixture(name: "random-\(seed)", policy: policy, steps: steps, floor: floor)
    }
}

@Suite("explore to a fixpoint: the reduced key finds what the full one finds")
struct ReducedKeyTests {
    @Test("every shipped fixture under every policy, the standard engine")
    func shipped() async throws {
        let fixtures = try shippedFixtures()
        #expect(fixtures.count >= 39)
        for fixture in fixtures {
            expectSame(try await bothKeys(fixture), fixture.name)
        }
    }

    @Test("the naive engine, every shipped fixture")
    func naive() async throws {
        var broken = 0
        for fixture in try shippedFixtures() {
            let results = try await bothKeys(fixture, allPolicies: false, engine: .naive)
            expectSame(results, fixture.name)
            broken += results.reduced.violations.count
        }
        #expect(broken > 39)
    }

    @Test(
        "the planted fault, under every policy",
        arguments: [
            "08-always-failing-step-blocks-by-default.json", "21-crash-loop-without-give-up.json",
            "38-crash-looping-step-removed-in-hotfix.json",
        ])
    func plantedFault(file: String) async throws {
        let fixture = try FixtureLoader.load(file: shippedFolder.appendingPathComponent(file).path)
        let results = try await bothKeys(fixture, fault: .retryLimitMarksDone(attempts: 4))
        #expect(!results.reduced.violations.isEmpty)
        expectSame(results, file)
    }

    @Test("240 random fixtures with releases and floors, each under its own policy, some under all policies")
    func random() async throws {
        var findings = 0
        var violations = 0
        for seed in 0..<240 as Range<UInt64> {
            let fixture = RandomFixtures.make(seed: seed)
            // One in 24 under all 18 policies; the rest under their own, with a fault now and then.
            let fault: PlantedFault? = seed % 5 == 1 ? .retryLimitMarksDone(attempts: 2) : nil
            let results = try await bothKeys(fixture, allPolicies: seed % 24 == 0, fault: fault)
            expectSame(results, "seed \(seed): \(fixture.steps.map { "\($0.id) \($0.version) \($0.behavior)" })")
            findings += results.reduced.findings.count
            violations += results.reduced.violations.count
        }
        // The generator makes fixtures with findings and, with the fault, broken guarantees.
        #expect(findings > 20 && violations > 20)
    }

    @Test("the order of what it finds is the same on one core and on four")
    func deterministic() async throws {
        let scale = Fixture(
            name: "scale", policy: UpgradePolicy(freshInstall: .runAll, giveUpAfter: 2),
            steps: (0..<20).map { index in
                ScriptedStep(
                    version: Version(major: 1 + index / 10, minor: index % 10),
                    behavior: index % 7 == 3 ? .failTimes(1) : index % 11 == 5 ? .crashTimes(1) : .succeed)
            })
        // The standard engine on the scale fixture and on random ones (with a fault), the naive engine on
        // random ones (with 20 steps its checker's memory has too many states for a test).
        let randoms = (0..<6 as Range<UInt64>).map { RandomFixtures.make(seed: 1000 + $0) }
        let runs = [(scale, ExplorationOptions.Engine.standard)] + randoms.flatMap { [($0, .standard), ($0, .naive)] }
        for (fixture, engine) in runs {
            var options = ExplorationOptions(allPolicies: fixture.name != "scale", engine: engine)
            options.plantedFault =
                engine == .standard && fixture.name != "scale" ? .retryLimitMarksDone(attempts: 2) : nil
            options.cores = 1
            let one = try await Explorer(fixture: fixture, options: options).run()
            options.cores = 4
            options.parallelLaunches = 1
            let four = try await Explorer(fixture: fixture, options: options).run()
            #expect(Self.shown(one) == Self.shown(four), "\(fixture.name), \(engine)")
            #expect(one.stateSpace == four.stateSpace)
        }
    }

    /// Every counterexample and finding, in order, with its policy, history and sentence.
    static func shown(_ result: ExplorationResult) -> [String] {
        result.violations.map { "\($0.guarantee) \($0.policy) \($0.launches) \($0.detail)" }
            + result.findings.map { "\($0.kind) \($0.stepID) \($0.policy) \($0.launches) \($0.detail)" }
    }
}
