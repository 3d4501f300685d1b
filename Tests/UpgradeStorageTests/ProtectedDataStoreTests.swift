import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// Protected data unavailable, through every store and policy (<doc:LaunchAlgorithm>, "Protected
/// data"; <doc:ProtectedData>): a launch that cannot establish that the data is readable decides
/// nothing, and "no stored state" is a fresh install only when it is known to be readable.
@Suite("Protected data unavailable, through every store")
struct ProtectedDataStoreTests {
    static let policies: [UpgradePolicy] = [UpgradePolicy.FreshInstall.skip, .runAll, .upgradeFrom("0.5")].flatMap {
        freshInstall in
        [UpgradePolicy.Downgrade.keep, .rewind].flatMap { downgrade in
            [nil, 2].map { UpgradePolicy(freshInstall: freshInstall, downgrade: downgrade, giveUpAfter: $0) }
        }
    }

    /// A defaults suite for the legacy key, removed when the test ends.
    final class LegacySuite: Sendable {
        let name = "AppUpgradeTests.legacy.\(UUID().uuidString)"
        var defaults: UserDefaults { UserDefaults(suiteName: name)! }
        deinit { UserDefaults().removePersistentDomain(forName: name) }
    }

    static func upgrader(_ store: any UpgradeStore, policy: UpgradePolicy, log: StepLog) -> Upgrader {
        Upgrader(store: store, policy: policy) {
            UpgradeStep("1.1", id: "legacy-1.1") { context in log.record(context) }
            UpgradeStep("2.0", id: "legacy-2.0") { context in log.record(context) }
        }
    }

    @Test(
        "a locked first launch of an adopting release decides nothing; the unlocked launch runs the legacy steps",
        arguments: StoreKind.builtIn, policies)
    func lockedAdoptingRelease(kind: StoreKind, policy: UpgradePolicy) async throws {
        let fixture = try StoreFixture(kind)
        let legacy = LegacySuite()
        legacy.defaults.set("1.0", forKey: "localAppVersion")
        let log = StepLog()

        // The overnight reboot: the system launches the app before the first unlock. The legacy key
        // reads as empty then, as UserDefaults do on iOS; the state file cannot be read (or made).
        fixture.setProtectedDataAvailable(false)
        legacy.defaults.removeObject(forKey: "localAppVersion")
        let store = try fixture.lockableStore(legacyKey: "localAppVersion", legacySuite: legacy.name)
        let upgrader = Self.upgrader(store, policy: policy, log: log)
        let locked = try await upgrader.run(currentVersion: "2.0")
        #expect(locked.outcome == .deferred)
        guard case .protectedDataUnavailable(let detail) = locked.deferral else {
            Issue.record("deferral \(String(describing: locked.deferral))")
            return
        }
        #expect(detail.contains("protected data is unavailable"))
        #expect(locked.steps.isEmpty)
        #expect(locked.notices.isEmpty)  // nothing adopted
        #expect(log.entries.isEmpty)
        #expect(locked.description.contains("protected data is unavailable, so nothing was decided"))
        // Nothing written, history included, and no lock kept.
        fixture.setProtectedDataAvailable(true)
        #expect(fixture.readRaw() == nil)
        #expect(try fixture.store().load() == nil)
        #expect(try fixture.store().history().isEmpty)
        try await fixture.store(lockTimeout: .zero).lockForLaunch().unlock()
        fixture.setProtectedDataAvailable(false)
        // A follower and the plan say the same.
        #expect(try await upgrader.run(currentVersion: "2.0", role: .follower).outcome == .deferred)
        #expect(try await UpgradeFollower(store: store).launch(currentVersion: "2.0").outcome == .deferred)
        let plan = try upgrader.plan(currentVersion: "2.0")
        #expect(plan.expectedOutcome == .deferred)
        #expect(plan.stepsToRun.isEmpty)

        // The first unlock: the key reads again, and the launch adopts it and runs the legacy steps.
        fixture.setProtectedDataAvailable(true)
        legacy.defaults.set("1.0", forKey: "localAppVersion")
        let unlocked = try await Self.upgrader(
            try fixture.lockableStore(legacyKey: "localAppVersion", legacySuite: legacy.name), policy: policy, log: log
        ).run(currentVersion: "2.0")
        #expect(unlocked.outcome == .upgraded)
        #expect(unlocked.ranStepIDs == ["legacy-1.1", "legacy-2.0"])
        #expect(unlocked.notices.contains { $0.contains("adopted version 1.0") })
        #expect(try fixture.store().load()?.upgradedThrough == "2.0")
    }

    @Test("no state is a fresh install only once the data is known readable", arguments: StoreKind.builtIn)
    func freshInstallOnlyWhenReadable(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let legacy = LegacySuite()
        let log = StepLog()
        fixture.setProtectedDataAvailable(false)
        let store = try fixture.lockableStore(legacyKey: "localAppVersion", legacySuite: legacy.name)
        let error = #expect(throws: UpgradeStoreError.self) { _ = try store.load() }
        #expect(error?.code == .protectedDataUnavailable)
        #expect(
            try await Self.upgrader(store, policy: UpgradePolicy(), log: log).run(currentVersion: "2.0").outcome
                == .deferred)

        fixture.setProtectedDataAvailable(true)
        #expect(try store.load() == nil)
        #expect(
            try await Self.upgrader(store, policy: UpgradePolicy(), log: log).run(currentVersion: "2.0").outcome
                == .freshInstall)
        #expect(log.entries.isEmpty)
    }

    @Test("the adopter reads its own probe before the legacy key, over a store that cannot tell")
    func adopterProbe() async throws {
        let fixture = try StoreFixture(.custom)
        let legacy = LegacySuite()
        let calls = FaultInjectingCalls()
        let folder = try TemporaryDirectory("probe")
        let probe = ProtectedDataProbe(url: folder.file("protected-data.probe"), calls: calls)
        let log = StepLog()
        // The custom store knows nothing of protected data; the key reads as empty while locked.
        calls.setProtectedDataAvailable(false)
        let store = try LegacyVersionAdopter(
            fixture.store(), key: "localAppVersion", suiteName: legacy.name, probe: probe)
        let locked = try await Self.upgrader(store, policy: UpgradePolicy(), log: log).run(currentVersion: "2.0")
        #expect(locked.outcome == .deferred)
        #expect(try fixture.store().load() == nil)

        calls.setProtectedDataAvailable(true)
        legacy.defaults.set("1.0", forKey: "localAppVersion")
        let unlocked = try await Self.upgrader(store, policy: UpgradePolicy(), log: log).run(currentVersion: "2.0")
        #expect(unlocked.ranStepIDs == ["legacy-1.1", "legacy-2.0"])
        // The probe was made once, beside nothing else, and read since.
        #expect(FileManager.default.fileExists(atPath: folder.file("protected-data.probe").path))
    }

    @Test("a stored state that cannot be read while locked defers the launch", arguments: StoreKind.builtIn)
    func storedStateLocked(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let legacy = LegacySuite()
        let log = StepLog()
        let store = try fixture.lockableStore(legacyKey: "localAppVersion", legacySuite: legacy.name)
        #expect(
            try await Self.upgrader(store, policy: UpgradePolicy(), log: log).run(currentVersion: "1.0").outcome
                == .freshInstall)
        let before = fixture.readRaw()
        fixture.setProtectedDataAvailable(false)
        if kind == .defaults {
            // Defaults read as empty while locked.
            UserDefaults(suiteName: fixture.suite)!.removeObject(forKey: StoreFixture.defaultsKey)
        }
        let report = try await Self.upgrader(store, policy: UpgradePolicy(), log: log).run(currentVersion: "2.0")
        #expect(report.outcome == .deferred)
        #expect(log.entries.isEmpty)
        if kind == .file { #expect(fixture.readRaw() == before) }
    }
}

/// A follower that links no step, through every store (<doc:LaunchAlgorithm>, "Follower launches").
@Suite("Followers without steps, through every store")
struct StepFreeFollowerStoreTests {
    static func launchSynchronously(_ follower: UpgradeFollower, at version: Version) throws -> UpgradeReport {
        try follower.launch(currentVersion: version)
    }

    @Test("by the mark alone, synchronously and asynchronously, changing nothing", arguments: StoreKind.allCases)
    func outcomes(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let cases: [(state: UpgradeState?, version: Version, outcome: UpgradeOutcome)] = [
            (nil, "1.0", .deferred),
            (UpgradeState(upgradedThrough: nil, lastLaunched: "1.0"), "1.0", .deferred),
            (UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"), "2.0", .deferred),
            (UpgradeState(upgradedThrough: "2.0", lastLaunched: "2.0"), "2.0", .upToDate),
            (UpgradeState(upgradedThrough: "2.0", lastLaunched: "2.0"), "1.5", .downgraded),
        ]
        for (state, version, outcome) in cases {
            if let state { try fixture.store().save(state) }
            let raw = fixture.readRaw()
            let follower = UpgradeFollower(store: try fixture.store())
            let synchronous = try Self.launchSynchronously(follower, at: version)
            let asynchronous = try await follower.launch(currentVersion: version)
            for report in [synchronous, asynchronous] {
                #expect(report.outcome == outcome, "\(String(describing: state)) at \(version)")
                #expect(report.deferral == (outcome == .deferred ? .leftToApp : nil))
                #expect(report.upgradedThrough == state?.upgradedThrough)
            }
            #expect(fixture.readRaw() == raw)
        }
    }
}
