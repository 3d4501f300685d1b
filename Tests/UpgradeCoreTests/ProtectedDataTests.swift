import Foundation
import Testing
import UpgradeCore
import VersionKit

/// The error a store throws while protected data is unavailable.
let protectedDataUnavailable = UpgradeStoreError(
    code: .protectedDataUnavailable, location: "test store", detail: "protected data is unavailable")

/// A launch that cannot establish that protected data is readable decides nothing
/// (<doc:LaunchAlgorithm>, "Protected data"), whatever the stored state and the policy.
@Suite("Protected data unavailable")
struct ProtectedDataTests {
    static let policies: [UpgradePolicy] = [
        UpgradePolicy(), UpgradePolicy(freshInstall: .runAll), UpgradePolicy(freshInstall: .upgradeFrom("1.0")),
        UpgradePolicy(downgrade: .rewind, giveUpAfter: 1),
    ]

    static let states: [UpgradeState?] = [
        nil, settledState(at: "1.0"),
        UpgradeState(
            upgradedThrough: "1.0", lastLaunched: "1.1", inProgress: StepInProgress(id: "a", version: "1.1", attempt: 1)
        ),
    ]

    @Test("a locked launch runs nothing, writes nothing, keeps no lock, and says why", arguments: policies, states)
    func lockedLaunch(policy: UpgradePolicy, state: UpgradeState?) async throws {
        let store = RecordingStore(state)
        store.failLoads(with: protectedDataUnavailable)
        let journal = Journal()
        let events = EventLog()
        let upgrader = makeUpgrader(
            store: store, policy: policy, events: events, steps: [journal.step("1.1", id: "a")])

        let report = try await upgrader.run(currentVersion: "1.1")

        #expect(report.outcome == .deferred)
        #expect(report.deferral == .protectedDataUnavailable(detail: protectedDataUnavailable.description))
        #expect(report.steps.isEmpty)
        #expect(journal.ids.isEmpty)
        #expect(store.saves.isEmpty)
        #expect(store.history().isEmpty)
        #expect(store.lockCount == 0)
        #expect(store.state == state)
        #expect(report.description.contains("protected data is unavailable, so nothing was decided"))
        #expect(events.events.map(\.description) == ["launch finished: \(report.description)"])

        let plan = try upgrader.plan(currentVersion: "1.1")
        #expect(plan.expectedOutcome == .deferred)
        #expect(plan.deferral == report.deferral)
        #expect(plan.stepsToRun.isEmpty)
        #expect(plan.entries.map(\.disposition) == [.notDecided])
        #expect(plan.description.hasPrefix("launch at 1.1: deferred (protected data is unavailable"))

        // Unlocked, the same launch decides as it would have.
        store.failLoads(with: nil)
        let unlocked = try await upgrader.run(currentVersion: "1.1")
        #expect(unlocked.outcome != .deferred)
        #expect(unlocked.deferral == nil)
    }

    @Test("a follower under locked data reports deferred, with and without the step list")
    func lockedFollower() async throws {
        let store = RecordingStore(settledState(at: "1.1"))
        store.failLoads(with: protectedDataUnavailable)
        let upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1") {}])
        let expected = UpgradeDeferral.protectedDataUnavailable(detail: protectedDataUnavailable.description)

        let withSteps = try await upgrader.run(currentVersion: "1.1", role: .follower)
        #expect(withSteps.outcome == .deferred)
        #expect(withSteps.deferral == expected)

        let follower = UpgradeFollower(store: store)
        let synchronous = try launchSynchronously(follower, at: "1.1")
        #expect(synchronous.outcome == .deferred)
        #expect(synchronous.deferral == expected)
        let asynchronous = try await follower.launch(currentVersion: "1.1")
        #expect(asynchronous.outcome == .deferred)
        #expect(store.saves.isEmpty)
        #expect(store.lockCount == 0)
    }
}

/// A follower that links no step judges by the mark alone (<doc:LaunchAlgorithm>, "Follower launches").
@Suite("Followers without steps")
struct StepFreeFollowerTests {
    static let cases: [(state: UpgradeState?, current: Version, outcome: UpgradeOutcome)] = [
        (nil, "1.0", .deferred),
        (UpgradeState(upgradedThrough: nil, lastLaunched: "1.0"), "1.0", .deferred),
        (settledState(at: "1.0"), "2.0", .deferred),
        (settledState(at: "2.0"), "2.0", .upToDate),
        (settledState(at: "2.0"), "2.0.0", .upToDate),
        (settledState(at: "2.0"), "1.9", .downgraded),
    ]

    @Test("outcome by the mark, synchronously and asynchronously, never writing or locking", arguments: cases)
    func outcome(state: UpgradeState?, current: Version, outcome: UpgradeOutcome) async throws {
        let store = RecordingStore(state)
        let follower = UpgradeFollower(store: store)
        let synchronous = try launchSynchronously(follower, at: current)
        let asynchronous = try await follower.launch(currentVersion: current)
        for report in [synchronous, asynchronous] {
            #expect(report.outcome == outcome)
            #expect(report.deferral == (outcome == .deferred ? .leftToApp : nil))
            #expect(report.upgradedThrough == state?.upgradedThrough)
            #expect(report.steps.isEmpty)
        }
        #expect(store.saves.isEmpty)
        #expect(store.lockCount == 0)
    }

    @Test("a store error other than locked data is thrown")
    func otherErrors() {
        let store = RecordingStore(nil)
        store.failLoads(with: UpgradeStoreError(code: .corrupt, location: "x", detail: "bad"))
        #expect(throws: UpgradeStoreError.self) { try UpgradeFollower(store: store).launch(currentVersion: "1.0") }
    }
}

/// The synchronous follower launch, as code that cannot await (a widget's placeholder) calls it.
func launchSynchronously(_ follower: UpgradeFollower, at version: Version) throws -> UpgradeReport {
    try follower.launch(currentVersion: version)
}
