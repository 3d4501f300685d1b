import Testing
import UpgradeCore
import VersionKit

/// Follower launches (the launch algorithm article, "Follower launches"), rule by rule: one read, no
/// lock, no write, no step, whatever the policy.
@Suite("Follower launches")
struct FollowerTests {
    static let policies: [UpgradePolicy] = [
        UpgradePolicy(),
        UpgradePolicy(freshInstall: .runAll, downgrade: .rewind, giveUpAfter: 1),
        UpgradePolicy(freshInstall: .upgradeFrom("1.0")),
    ]

    /// A follower's launch at `version` over `state`: its outcome, after checking that it read once
    /// and did nothing else.
    static func follow(
        _ state: UpgradeState?, at version: Version, policy: UpgradePolicy, floor: Bool = false
    ) async throws -> UpgradeOutcome {
        let store = RecordingStore(state)
        let journal = Journal()
        var steps = [journal.step("2.0", id: "a", store: store), journal.step("2.1", id: "b", store: store)]
        if floor { steps.append(journal.step("1.5", store: store).asFloor()) }
        let events = EventLog()
        let upgrader = makeUpgrader(store: store, policy: policy, events: events, steps: steps)
        let report = try await upgrader.run(currentVersion: version, role: .follower)
        #expect(store.saves.isEmpty)
        #expect(store.lockCount == 0)
        #expect(store.loadCount == 1)
        #expect(journal.ids.isEmpty)
        #expect(report.steps.isEmpty)
        #expect(report.upgradedThrough == state?.upgradedThrough)
        #expect(events.events.count == 1)
        return report.outcome
    }

    @Test("no state is deferred under every fresh-install policy", arguments: policies)
    func noState(policy: UpgradePolicy) async throws {
        #expect(try await Self.follow(nil, at: "2.1", policy: policy) == .deferred)
        #expect(try await Self.follow(nil, at: "0.1", policy: policy) == .deferred)
    }

    @Test("below the mark is downgraded, and a rewind policy writes nothing", arguments: policies)
    func downgrade(policy: UpgradePolicy) async throws {
        #expect(try await Self.follow(settledState(at: "2.1"), at: "2.0", policy: policy) == .downgraded)
    }

    @Test("steps pending at C, the floor included, are deferred; nothing pending is up to date", arguments: policies)
    func pending(policy: UpgradePolicy) async throws {
        #expect(try await Self.follow(settledState(at: "1.0"), at: "2.0", policy: policy) == .deferred)
        #expect(try await Self.follow(settledState(at: "2.0"), at: "2.1", policy: policy) == .deferred)
        #expect(try await Self.follow(settledState(at: "2.0"), at: "2.0.5", policy: policy) == .upToDate)
        #expect(try await Self.follow(settledState(at: "2.1"), at: "3.0", policy: policy) == .upToDate)
        #expect(try await Self.follow(settledState(at: "1.0"), at: "1.6", policy: policy, floor: true) == .deferred)
        var done = settledState(at: "2.0")
        done.completed = [StepRecord(id: "b", version: "2.1")]
        #expect(try await Self.follow(done, at: "2.1", policy: policy) == .upToDate)
        var abandoned = settledState(at: "2.0")
        abandoned.abandoned = [StepRecord(id: "b", version: "2.1")]
        #expect(try await Self.follow(abandoned, at: "2.1", policy: policy) == .upToDate)
    }

    @Test("a step the app's process is running, or died in, is deferred")
    func inProgress() async throws {
        var state = settledState(at: "2.0")
        state.inProgress = StepInProgress(id: "b", version: "2.1", attempt: 1)
        #expect(try await Self.follow(state, at: "2.1", policy: UpgradePolicy(giveUpAfter: 1)) == .deferred)
    }

    @Test("the app's role is the plain launch")
    func appRole() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let journal = Journal()
        let upgrader = makeUpgrader(store: store, steps: [journal.step("2.0", id: "a", store: store)])
        let report = try await upgrader.run(currentVersion: "2.0", role: .app)
        #expect(report.outcome == .upgraded)
        #expect(journal.ids == ["a"])
        #expect(LaunchRole.allCases.map(\.description) == ["app", "follower"])
    }
}
