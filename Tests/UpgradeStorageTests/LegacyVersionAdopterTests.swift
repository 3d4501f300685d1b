import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import VersionKit

/// `LegacyVersionAdopter`: the naive pattern's stored version adopted while no state is stored, in
/// front of any store. The legacy key lives in a uniquely named suite, never the standard defaults.
@Suite("Adopting the naive pattern's version with any store")
struct LegacyVersionAdopterTests {
    static let legacyKey = "localAppVersion"

    /// A place for the state and a suite for the legacy key, both removed when the test ends.
    struct Setup {
        let state: StoreFixture
        let legacy: StoreFixture

        init(_ kind: StoreKind) throws {
            state = try StoreFixture(kind)
            legacy = try StoreFixture(.defaults)
        }

        var legacyDefaults: UserDefaults { UserDefaults(suiteName: legacy.suite)! }

        /// An adopter over a new store object on the state's place, as a new launch makes it.
        func store() throws -> LegacyVersionAdopter {
            try LegacyVersionAdopter(
                state.relaunched(), key: LegacyVersionAdopterTests.legacyKey, suiteName: legacy.suite)
        }
    }

    static func upgrader(_ store: some UpgradeStore, log: StepLog, policy: UpgradePolicy = UpgradePolicy()) -> Upgrader
    {
        Upgrader(store: store, policy: policy) {
            UpgradeStep("8.7") { context in log.record(context) }
            UpgradeStep("8.8.0") { context in log.record(context) }  // equal to 8.8: done by the naive pattern
            UpgradeStep("8.8.1") { context in log.record(context) }
            UpgradeStep("9.0") { context in log.record(context) }
            UpgradeStep("9.1") { context in log.record(context) }
        }
    }

    @Test(
        "while no state is stored, the legacy version is the starting mark; the key is then left alone",
        arguments: StoreKind.builtIn)
    func adoption(kind: StoreKind) async throws {
        let setup = try Setup(kind)
        setup.legacyDefaults.set("8.8", forKey: Self.legacyKey)
        let store = try setup.store()
        #expect(try store.load() == UpgradeState(upgradedThrough: "8.8", lastLaunched: "8.8"))
        let (state, notice) = try store.loadForLaunch()
        #expect(state?.upgradedThrough == "8.8")
        let adoption = try #require(notice)
        #expect(adoption.contains(Self.legacyKey))
        #expect(adoption.contains(setup.legacy.suite))
        #expect(adoption.contains("8.8"))

        let log = StepLog()
        let report = try await Self.upgrader(store, log: log).run(currentVersion: "9.0")
        #expect(report.outcome == .upgraded)
        #expect(report.previousVersion == "8.8")
        #expect(log.entries == ["appUpgradeTo_8_8_1#1", "appUpgradeTo_9_0#1"])
        #expect(report.notices == [adoption])
        // The state is the wrapped store's now, written by the launch.
        #expect(try setup.state.relaunched().load()?.upgradedThrough == "9.0")

        // Once a state is stored, the key is no longer read, and it was left as it was.
        setup.legacyDefaults.set("1.0", forKey: Self.legacyKey)
        let next = try setup.store()
        #expect(try next.loadForLaunch().notice == nil)
        #expect(try next.load()?.upgradedThrough == "9.0")
        #expect(setup.legacyDefaults.string(forKey: Self.legacyKey) == "1.0")
        let later = try await Self.upgrader(next, log: log).run(currentVersion: "9.1")
        #expect(later.ranStepIDs == ["appUpgradeTo_9_1"])
        #expect(later.notices.isEmpty)
    }

    @Test(
        "without a legacy value, the launch is a fresh install and the policy applies",
        arguments: [UpgradePolicy.FreshInstall.skip, .runAll])
    func noLegacyValue(policy: UpgradePolicy.FreshInstall) async throws {
        let setup = try Setup(.file)
        let store = try setup.store()
        #expect(try store.load() == nil)
        #expect(try store.loadForLaunch().notice == nil)
        let log = StepLog()
        let report = try await Self.upgrader(store, log: log, policy: UpgradePolicy(freshInstall: policy))
            .run(currentVersion: "9.0")
        if policy == .skip {
            #expect(report.outcome == .freshInstall)
            #expect(log.entries.isEmpty)
        } else {
            #expect(log.entries.count == 4)
        }
        #expect(report.notices.isEmpty)
    }

    @Test(
        "a legacy value that is not a version is an error naming the key; nothing runs or is stored",
        arguments: ["8.8.x", "", "v1.2", "1", "1.2.3.4"])
    func malformed(text: String) async throws {
        let setup = try Setup(.file)
        setup.legacyDefaults.set(text, forKey: Self.legacyKey)
        let store = try setup.store()
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .corrupt)
        #expect(error?.location.contains(Self.legacyKey) == true)
        #expect(error?.location.contains(setup.legacy.suite) == true)
        let log = StepLog()
        await #expect(throws: UpgradeStoreError.self) {
            _ = try await Self.upgrader(store, log: log).run(currentVersion: "9.0")
        }
        #expect(log.entries.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: setup.state.fileURL.path))
        #expect(setup.legacyDefaults.string(forKey: Self.legacyKey) == text)
    }

    @Test("a legacy value that is not a string is an error")
    func notAString() throws {
        let setup = try Setup(.defaults)
        setup.legacyDefaults.set(8, forKey: Self.legacyKey)
        let error = #expect(throws: UpgradeStoreError.self) { try setup.store().load() }
        #expect(error?.code == .corrupt)
        #expect(error?.description.contains("not a version string") == true)
    }

    @Test("a stored state that cannot be read is reported, never replaced by the legacy version")
    func unreadableStateIsNotAdoption() throws {
        let setup = try Setup(.file)
        setup.legacyDefaults.set("8.8", forKey: Self.legacyKey)
        try setup.state.writeRaw(Data("{not json".utf8))
        let error = #expect(throws: UpgradeStoreError.self) { try setup.store().load() }
        #expect(error?.location == setup.state.fileURL.path)
    }

    @Test("a first launch at exactly the legacy version with nothing to run writes nothing")
    func launchAtTheLegacyVersion() async throws {
        let setup = try Setup(.file)
        setup.legacyDefaults.set("9.0", forKey: Self.legacyKey)
        let log = StepLog()
        let report = try await Self.upgrader(setup.store(), log: log).run(currentVersion: "9.0")
        #expect(report.outcome == .upToDate)
        #expect(log.entries.isEmpty)
        // As any launch with nothing to do: the next launch reads the key again, to the same effect.
        #expect(try setup.state.relaunched().load() == nil)
        #expect(try setup.store().load()?.upgradedThrough == "9.0")
    }
}
