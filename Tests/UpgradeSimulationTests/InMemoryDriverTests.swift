import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeExplorer
@testable import UpgradeFixtures
@testable import UpgradeReplay

/// `explore` drives the launch rules synchronously over an in-memory state (`launchInMemory`), while
/// apps and `run` drive the same rules through the async `Upgrader.run` and a store. These tests pin
/// that the two drivers agree, launch by launch, on what ran and on the state left behind.
@Suite("explore's in-memory driver agrees with Upgrader.run")
struct InMemoryDriverTests {
    static let versions: [Version] = ["1.0", "1.1", "1.2", "1.2.0", "2.0", "2.1", "3.0"]

    static func randomBehavior(_ generator: inout SeededRandomNumberGenerator) -> StepBehavior {
        switch Int.random(in: 0..<7, using: &generator) {
        case 0, 1: .succeed
        case 2: .fail
        case 3: .crash
        case 4: .failTimes(Int.random(in: 1...2, using: &generator))
        case 5: .crashTimes(Int.random(in: 1...2, using: &generator))
        default:
            .script(
                (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    AttemptResult.allCases.randomElement(using: &generator)!
                })
        }
    }

    static func randomPolicy(_ generator: inout SeededRandomNumberGenerator) -> UpgradePolicy {
        let fresh: [UpgradePolicy.FreshInstall] = [.skip, .runAll, .upgradeFrom("1.1")]
        return UpgradePolicy(
            freshInstall: fresh.randomElement(using: &generator)!,
            downgrade: Bool.random(using: &generator) ? .keep : .rewind,
            giveUpAfter: [nil, 1, 2, 3].randomElement(using: &generator)!)
    }

    @Test(
        "random steps, behaviours, policies and histories, downgrades and crashes included",
        arguments: [1, 2, 3] as [UInt64])
    func agree(seed: UInt64) async throws {
        var generator = SeededRandomNumberGenerator(seed: seed)
        for _ in 0..<150 {
            let steps = (0..<Int.random(in: 1...5, using: &generator)).map { index in
                ScriptedStep(
                    version: Self.versions.randomElement(using: &generator)!, id: "s\(index)",
                    behavior: Self.randomBehavior(&generator))
            }
            let app = SimulatedApp(steps: steps, policy: Self.randomPolicy(&generator))
            let catalog = ExplorationCatalog(steps: steps)
            let throughRun = InMemoryLauncher(app: app)
            let throughMachine = ExplorationLauncher(app: app, catalog: catalog)
            var runState: UpgradeState?
            var machineState: UpgradeState?
            var observation = IndexedObservation(outcome: .upToDate, upgradedThrough: nil)
            for _ in 0..<8 {
                let version = Self.versions.randomElement(using: &generator)!
                let run = try await throughRun.launch(at: version, from: runState)
                let written = try throughMachine.launch(at: version, from: machineState, into: &observation)
                machineState = written ?? machineState
                runState = run.state
                #expect(observation.observation(catalog: catalog) == run.observation, "\(steps) at \(version)")
                #expect(throughMachine.wrote == (written != nil))
                #expect(machineState == runState, "\(steps) at \(version)")
            }
        }
    }

    @Test(
        "random builds (since, until) and a floor: the two drivers agree launch by launch",
        arguments: [4, 5, 6] as [UInt64])
    func agreeWithReleases(seed: UInt64) async throws {
        var generator = SeededRandomNumberGenerator(seed: seed)
        for _ in 0..<150 {
            var floor: ScriptedStep?
            if Bool.random(using: &generator) {
                let since = Self.versions.dropFirst().randomElement(using: &generator)!
                floor = .floor(
                    Self.versions.randomElement(using: &generator)!, behavior: Self.randomBehavior(&generator),
                    since: since)
            }
            var steps: [ScriptedStep] = []
            for index in 0..<Int.random(in: 1...5, using: &generator) {
                var step = ScriptedStep(
                    version: Self.versions.randomElement(using: &generator)!, id: "s\(index)",
                    behavior: Self.randomBehavior(&generator))
                if Bool.random(using: &generator) { step.since = Self.versions.randomElement(using: &generator)! }
                if Bool.random(using: &generator) {
                    step.until = Self.versions.filter { $0 >= step.since ?? $0 }.randomElement(using: &generator)
                }
                // The floor rule: no build has the floor and a step at or below it.
                if let floor, let floorSince = floor.since, step.version <= floor.version {
                    guard let until = Self.versions.filter({ $0 < floorSince && $0 >= step.since ?? $0 }).last else {
                        continue
                    }
                    step.until = min(step.until ?? until, until)
                }
                steps.append(step)
            }
            let app = SimulatedApp(steps: steps, floor: floor, policy: Self.randomPolicy(&generator))
            let catalog = ExplorationCatalog(steps: steps, floor: floor)
            let throughRun = InMemoryLauncher(app: app)
            let throughMachine = ExplorationLauncher(app: app, catalog: catalog)
            var runState: UpgradeState?
            var machineState: UpgradeState?
            var observation = IndexedObservation(outcome: .upToDate, upgradedThrough: nil)
            for _ in 0..<8 {
                let version = Self.versions.randomElement(using: &generator)!
                let run = try await throughRun.launch(at: version, from: runState)
                let written = try throughMachine.launch(at: version, from: machineState, into: &observation)
                machineState = written ?? machineState
                runState = run.state
                #expect(
                    observation.observation(catalog: catalog) == run.observation,
                    "\(steps) \(String(describing: floor)) at \(version)")
                #expect(machineState == runState, "\(steps) at \(version)")
            }
        }
    }
}
