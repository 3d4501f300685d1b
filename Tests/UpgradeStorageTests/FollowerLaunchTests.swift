import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import VersionKit

/// Follower launches (an app extension's) through every store: they read, never write, never adopt,
/// never run a step and never take the lock.
@Suite("Follower launches through every store")
struct FollowerLaunchTests {
    static func upgrader(_ store: any UpgradeStore, log: StepLog, policy: UpgradePolicy = UpgradePolicy()) -> Upgrader {
        Upgrader(store: store, policy: policy) {
            UpgradeStep("1.5", id: "move-settings") { context in log.record(context) }
            UpgradeStep("2.0", id: "reindex") { context in log.record(context) }
        }
    }

    /// What a store holds, to show that a follower changed nothing: the state, the history's length,
    /// the raw document, and the in-memory store's write count.
    struct Snapshot: Equatable {
        var state: UpgradeState?
        var history: Int
        var raw: Data?
        var writes: Int?

        init(_ fixture: StoreFixture) throws {
            let store = try fixture.store()
            state = try store.load()
            history = try store.history().count
            raw = fixture.readRaw()
            writes = (store as? InMemoryUpgradeStore)?.writeCount
        }
    }

    /// A follower launch at `version`, with the snapshot before and after.
    static func follow(_ fixture: StoreFixture, at version: Version, log: StepLog) async throws -> UpgradeOutcome {
        let before = try Snapshot(fixture)
        let report = try await upgrader(try fixture.store(), log: log).run(currentVersion: version, role: .follower)
        #expect(try Snapshot(fixture) == before, "a follower launch at \(version) changed the store")
        #expect(report.steps.isEmpty)
        #expect(report.upgradedThrough == before.state?.upgradedThrough)
        #expect(report.upgradedThroughBefore == before.state?.upgradedThrough)
        return report.outcome
    }

    @Test(
        "deferred with no state and with steps pending, upToDate with none, downgraded below the mark",
        arguments: StoreKind.allCases)
    func outcomes(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let log = StepLog()
        // An extension launches before the app's first launch: nothing is stored, whatever the policy.
        #expect(try await Self.follow(fixture, at: "1.0", log: log) == .deferred)
        #expect(try fixture.store().load() == nil)
        #expect(try await Self.upgrader(fixture.store(), log: log).run(currentVersion: "1.0").outcome == .freshInstall)
        #expect(try await Self.follow(fixture, at: "1.0", log: log) == .upToDate)
        // After the update, before the app's launch: two steps pending.
        #expect(try await Self.follow(fixture, at: "2.0", log: log) == .deferred)
        #expect(try await Self.follow(fixture, at: "0.9", log: log) == .downgraded)
        #expect(log.entries.isEmpty)
        #expect(try await Self.upgrader(fixture.store(), log: log).run(currentVersion: "2.0").outcome == .upgraded)
        #expect(log.entries == ["move-settings#1", "reindex#1"])
        #expect(try await Self.follow(fixture, at: "2.0", log: log) == .upToDate)
        // An update with no step of its own has nothing pending: up to date, though the app has not
        // launched it yet (and the follower records nothing of it).
        #expect(try await Self.follow(fixture, at: "2.1", log: log) == .upToDate)
        #expect(try fixture.store().load()?.lastLaunched == "2.0")
    }

    @Test(
        "a step that failed, or that the app's process is running or died in, is deferred to the app",
        arguments: StoreKind.allCases)
    func interruptedAndFailedSteps(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let log = StepLog()
        try fixture.store().save(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "2.0",
                completed: [StepRecord(id: "move-settings", version: "1.5")],
                inProgress: StepInProgress(id: "reindex", version: "2.0", attempt: 1)))
        #expect(try await Self.follow(fixture, at: "2.0", log: log) == .deferred)
        // Even when the app would give up on it: giving up is the app's to write.
        try fixture.store().save(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "2.0",
                completed: [StepRecord(id: "move-settings", version: "1.5")],
                attempts: [StepAttempts(id: "reindex", version: "2.0", failed: 3)]))
        let store = try fixture.store()
        let report = try await Self.upgrader(store, log: log, policy: UpgradePolicy(giveUpAfter: 3))
            .run(currentVersion: "2.0", role: .follower)
        #expect(report.outcome == .deferred)
        #expect(try store.load()?.attempts.first?.failed == 3)
        #expect(log.entries.isEmpty)
    }

    @Test("a follower never waits for the lock: it reads while a launch holds it", arguments: StoreKind.allCases)
    func neverLocks(kind: StoreKind) async throws {
        // A store whose lock gives up at once: a follower that asked for it would report busy.
        let fixture = try StoreFixture(kind, memoryLockTimeout: .zero)
        let log = StepLog()
        _ = try await Self.upgrader(fixture.store(), log: log).run(currentVersion: "1.0")
        let held = try await fixture.store().lockForLaunch()
        defer { held.unlock() }
        let store = try fixture.store(lockTimeout: .zero)
        #expect(
            try await Self.upgrader(store, log: log).run(currentVersion: "2.0", role: .follower).outcome == .deferred)
        #expect(
            try await Self.upgrader(store, log: log).run(currentVersion: "1.0", role: .follower).outcome == .upToDate)
    }

    @Test(
        "a follower never adopts a legacy version, through the adopter or the defaults store's own key",
        arguments: StoreKind.allCases)
    func neverAdopts(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let legacy = try StoreFixture(.defaults)
        UserDefaults(suiteName: legacy.suite)!.set("1.5", forKey: "localAppVersion")
        let log = StepLog()
        let adopter = try LegacyVersionAdopter(fixture.store(), key: "localAppVersion", suiteName: legacy.suite)
        #expect(try adopter.load()?.upgradedThrough == "1.5")
        #expect(try adopter.loadWithoutAdopting() == nil)
        // Adopted, 1.5 would leave nothing pending at 1.5: the follower must not say up to date.
        let report = try await Self.upgrader(adopter, log: log).run(currentVersion: "1.5", role: .follower)
        #expect(report.outcome == .deferred)
        #expect(report.upgradedThrough == nil)
        #expect(try fixture.store().load() == nil)
        #expect(adopter.stateIdentity == (try fixture.store().stateIdentity))

        let defaults = try UserDefaultsUpgradeStore(
            suiteName: legacy.suite, key: "state", legacyVersionKey: "localAppVersion")
        #expect(try defaults.load()?.upgradedThrough == "1.5")
        #expect(try defaults.loadWithoutAdopting() == nil)
        #expect(
            try await Self.upgrader(defaults, log: log).run(currentVersion: "1.5", role: .follower).outcome
                == .deferred)
        #expect(UserDefaults(suiteName: legacy.suite)!.object(forKey: "state") == nil)
        // The app's own launch adopts, as before.
        #expect(try await Self.upgrader(adopter, log: log).run(currentVersion: "2.0").outcome == .upgraded)
        #expect(log.entries == ["reindex#1"])
    }

    @Test("a follower's configuration mistakes and unreadable states are errors, as the app's are")
    func errors() async throws {
        let fixture = try StoreFixture(.file)
        try Data("{not json".utf8).write(to: fixture.fileURL)
        let log = StepLog()
        await #expect(throws: UpgradeStoreError.self) {
            _ = try await Self.upgrader(try fixture.store(), log: log).run(currentVersion: "2.0", role: .follower)
        }
        let duplicate = Upgrader(store: InMemoryUpgradeStore()) {
            UpgradeStep("1.0", id: "same") {}
            UpgradeStep("2.0", id: "same") {}
        }
        await #expect(throws: UpgradeError.self) { _ = try await duplicate.run(currentVersion: "2.0", role: .follower) }
    }
}
