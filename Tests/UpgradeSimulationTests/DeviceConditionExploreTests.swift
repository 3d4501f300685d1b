import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeExplorer
@testable import UpgradeFixtures

/// `explore` with the device's conditions (<doc:ExploringToAFixpoint>, "The device's conditions"): a
/// locked launch at every version and an expiry in every step a launch runs, and the two guarantees
/// they come with.
@Suite("explore: locked launches and expiries")
struct DeviceConditionExploreTests {
    /// Two steps, the second failing once, over the versions 1.0 to 1.3.
    static let fixture = Fixture(
        name: "two", policy: UpgradePolicy(freshInstall: .runAll),
        steps: [ScriptedStep(version: .v("1.1")), ScriptedStep(version: .v("1.2"), behavior: .failTimes(1))])

    @Test("from a fresh install: each version plainly, locked, and with an expiry in each step it runs")
    func transitions() async throws {
        // runAll at 1.0, 1.1, 1.2, 1.3 runs 0, 1, 2 and 2 steps: 4 plain, 4 locked and 5 expiries.
        let result = try await Explorer(fixture: Self.fixture, options: ExplorationOptions(depth: 1)).run()
        #expect(result.launches == 13)
        var plain = ExplorationOptions(depth: 1)
        plain.deviceConditions = false
        #expect(try await Explorer(fixture: Self.fixture, options: plain).run().launches == 4)
        // The fixpoint has the expiries' states too: more states than without them.
        let fixpoint = try await Explorer(fixture: Self.fixture).run()
        var plainFixpoint = ExplorationOptions()
        plainFixpoint.deviceConditions = false
        let without = try await Explorer(fixture: Self.fixture, options: plainFixpoint).run()
        #expect(try #require(fixpoint.stateSpace).states > #require(without.stateSpace).states)
        #expect(fixpoint.passed, "\(fixpoint.violations.map { "\($0.guarantee): \($0.detail)" })")
    }

    @Test("the standard engine keeps every guarantee under every policy with the conditions, shipped fixtures 42, 43")
    func shippedFixturesHold() async throws {
        for name in ["42-locked-launches-before-the-first-unlock.json", "43-long-step-expires-three-times.json"] {
            let fixture = try FixtureLoader.load(
                file: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)").path)
            let result = try await Explorer(fixture: fixture, options: ExplorationOptions(allPolicies: true)).run()
            #expect(result.passed, "\(name): \(result.violations.map { "\($0.guarantee): \($0.detail)" })")
        }
    }

    @Test(
        "a planted fault, an engine that counts an expiry as an attempt, is found in two launches (an expiry, then the abandonment), with its history"
    )
    func plantedExpiryFault() async throws {
        var options = ExplorationOptions(allPolicies: true)
        options.plantedFault = .expiryCountsAsAttempt
        let result = try await Explorer(fixture: Self.fixture, options: options).run()
        let violation = try #require(result.violations.first { $0.guarantee == .abandonedOnlyAfterCountedFailures })
        #expect(violation.policy.giveUpAfter == 1)
        #expect(violation.launches.count == 2)
        #expect(violation.conditions.values.contains { if case .expire = $0 { true } else { false } })
        #expect(violation.historyText.contains("(expire "))
        // The history replays as a fixture: the standard engine, without the fault, does otherwise at the
        // last launch (it does not abandon the step).
        let replayed = try await violation.fixture(from: Self.fixture, engine: .standard).replay()
        #expect(!replayed.passed)
        #expect(replayed.mismatches.contains { $0.key == .abandoned && $0.launch == 2 })
        // The bounded walk finds it too, with a history as short.
        options.depth = 2
        let bounded = try await Explorer(fixture: Self.fixture, options: options).run()
        #expect(
            bounded.violations.first { $0.guarantee == .abandonedOnlyAfterCountedFailures }?.launches.count == 2)
        // Without the fault, nothing breaks.
        options.plantedFault = nil
        #expect(try await Explorer(fixture: Self.fixture, options: options).run().guaranteesHeld)
    }

    @Test("the naive engine breaks the locked guarantee: it reads a locked store as empty and runs every step")
    func naiveEngineCaught() async throws {
        let result = try await Explorer(fixture: Self.fixture, options: ExplorationOptions(engine: .naive)).run()
        let violation = try #require(result.violations.first { $0.guarantee == .lockedLaunchChangesNothing })
        #expect(violation.conditions[violation.launches.count - 1] == .locked)
        #expect(violation.detail.contains("without protected data"))
    }

    @Test("the fixpoint and the bounded walk agree with the conditions: depth 4 finds what the fixpoint finds within 4")
    func agreement() async throws {
        var options = ExplorationOptions(allPolicies: true)
        options.plantedFault = .expiryCountsAsAttempt
        options.deviceConditions = true
        let fixpoint = try await Explorer(fixture: Self.fixture, options: options).run()
        options.depth = 4
        let bounded = try await Explorer(fixture: Self.fixture, options: options).run()
        expectAgreement(fixpoint: fixpoint, bounded: bounded, depth: 4)
        for engine in [ExplorationOptions.Engine.naive] {
            let (naiveFixpoint, naiveBounded) = try await explore(
                Self.fixture, engine: engine, depths: [4], deviceConditions: true)
            expectAgreement(fixpoint: naiveFixpoint, bounded: naiveBounded[4]!, depth: 4)
        }
    }

    @Test("the checker: a locked launch that runs, abandons or writes anything breaks lockedLaunchChangesNothing")
    func lockedChecks() {
        let catalog = ExplorationCatalog(steps: Self.fixture.steps)
        let tracker = GuaranteeTracker(catalog: catalog, policy: Self.fixture.policy, engine: .standard)
        var findings: [(FindingKind, Int, String)] = []
        let cases: [(IndexedObservation, Bool, Bool)] = [
            (IndexedObservation(outcome: .deferred, upgradedThrough: nil), false, true),
            (IndexedObservation(outcome: .deferred, upgradedThrough: nil), true, false),
            (IndexedObservation(outcome: .freshInstall, upgradedThrough: .v("1.0")), false, false),
            (IndexedObservation(outcome: .deferred, ran: [0], finished: [0], upgradedThrough: nil), false, false),
            (IndexedObservation(outcome: .deferred, abandoned: [1], upgradedThrough: nil), false, false),
        ]
        for (observation, wrote, holds) in cases {
            var copy = tracker
            let broken = copy.record(
                observation, at: .v("1.2"), build: 0, engine: .standard, findings: &findings, condition: .locked,
                wrote: wrote)
            #expect(broken.contains { $0.0 == .lockedLaunchChangesNothing } == !holds, "\(observation)")
        }
    }

    @Test("the checker: a step abandoned after expiries only breaks abandonedOnlyAfterCountedFailures")
    func abandonChecks() {
        let catalog = ExplorationCatalog(steps: Self.fixture.steps)
        var tracker = GuaranteeTracker(
            catalog: catalog, policy: UpgradePolicy(freshInstall: .runAll, giveUpAfter: 2), engine: .standard)
        var findings: [(FindingKind, Int, String)] = []
        func launch(_ observation: IndexedObservation) -> [Guarantee] {
            tracker.record(observation, at: .v("1.2"), build: 0, engine: .standard, findings: &findings).map(\.0)
        }
        // Two expiries in step 1, then abandoned without running: broken.
        _ = launch(IndexedObservation(outcome: .cancelled, ran: [0, 1], finished: [0], upgradedThrough: nil))
        _ = launch(IndexedObservation(outcome: .cancelled, ran: [1], upgradedThrough: nil))
        #expect(
            launch(IndexedObservation(outcome: .upgraded, abandoned: [1], upgradedThrough: .v("1.2")))
                .contains(.abandonedOnlyAfterCountedFailures))
        // A failure and a crash, then abandoned: fine.
        tracker = GuaranteeTracker(
            catalog: catalog, policy: UpgradePolicy(freshInstall: .runAll, giveUpAfter: 2), engine: .standard)
        _ = launch(IndexedObservation(outcome: .failed, ran: [0, 1], finished: [0], upgradedThrough: nil))
        _ = launch(IndexedObservation(outcome: .cancelled, ran: [1], upgradedThrough: nil))
        _ = launch(IndexedObservation(outcome: .crashed, ran: [1], upgradedThrough: nil))
        #expect(
            !launch(IndexedObservation(outcome: .upgraded, abandoned: [1], upgradedThrough: .v("1.2")))
                .contains(.abandonedOnlyAfterCountedFailures))
    }

    @Test("the state key tells a state with an expiry's mark from the same state without it")
    func keyHoldsTheMark() {
        let catalog = ExplorationCatalog(steps: Self.fixture.steps)
        let encoder = StateKeyEncoder(catalog: catalog)
        let plain = UpgradeState(upgradedThrough: .v("1.1"), lastLaunched: .v("1.2"))
        var marked = plain
        marked.attempts = [
            StepAttempts(id: "appUpgradeTo_1_2", version: .v("1.2"), failed: 0, lastAttemptInterrupted: true)
        ]
        var crashed = plain
        crashed.attempts = [
            StepAttempts(id: "appUpgradeTo_1_2", version: .v("1.2"), failed: 1, lastAttemptInterrupted: true)
        ]
        var words: [[UInt32]] = []
        for state in [plain, marked, crashed] {
            var key: [UInt32] = []
            encoder.append(state, to: &key)
            words.append(key)
        }
        #expect(Set(words).count == 3)
        #expect(marked.invariantViolations(writtenAt: .v("1.2"), crashed: false, checkEncoding: true).isEmpty)
    }
}
