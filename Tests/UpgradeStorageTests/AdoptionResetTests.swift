import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import VersionKit

/// After `Upgrader.reset()` the next launch is a fresh install, whatever adopts a legacy version in
/// front of the store: a `LegacyVersionAdopter` over each store, and the defaults store's own
/// `legacyVersionKey`. The legacy key stays in place and is not adopted again.
@Suite("A reset ends the adoption of a legacy version")
struct AdoptionResetTests {
    static let legacyKey = "localAppVersion"
    static let markerKey = "AppUpgrade.adoptionReset.localAppVersion"

    static func upgrader(_ store: any UpgradeStore, log: StepLog, policy: UpgradePolicy) -> Upgrader {
        Upgrader(store: store, policy: policy) {
            UpgradeStep("8.7") { context in log.record(context) }
            UpgradeStep("8.8.1") { context in log.record(context) }
            UpgradeStep("9.0") { context in log.record(context) }
        }
    }

    /// What stands in front of the state: an adopter over one of the three stores, or the defaults
    /// store adopting the key itself (from its own suite, or from another one).
    enum Front: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case adopterOverMemory, adopterOverFile, adopterOverDefaults, defaultsOwnSuite, defaultsOtherSuite
        var testDescription: String { rawValue }
    }

    /// The state's place and the legacy key's suite, removed when the test ends.
    struct Setup {
        let front: Front
        let state: StoreFixture
        let legacy: StoreFixture

        init(_ front: Front) throws {
            self.front = front
            switch front {
            case .adopterOverMemory: state = try StoreFixture(.memory)
            case .adopterOverFile: state = try StoreFixture(.file)
            case .adopterOverDefaults, .defaultsOwnSuite, .defaultsOtherSuite: state = try StoreFixture(.defaults)
            }
            legacy = try StoreFixture(.defaults)
        }

        /// The suite that holds the legacy key.
        var legacySuite: String { front == .defaultsOwnSuite ? state.suite : legacy.suite }
        var legacyDefaults: UserDefaults { UserDefaults(suiteName: legacySuite)! }

        /// The store as a new launch makes it.
        func store() throws -> any UpgradeStore {
            switch front {
            case .adopterOverMemory, .adopterOverFile, .adopterOverDefaults:
                try LegacyVersionAdopter(state.relaunched(), key: AdoptionResetTests.legacyKey, suiteName: legacySuite)
            case .defaultsOwnSuite:
                try UserDefaultsUpgradeStore(suiteName: state.suite, legacyVersionKey: AdoptionResetTests.legacyKey)
            case .defaultsOtherSuite:
                try UserDefaultsUpgradeStore(
                    suiteName: state.suite, legacyVersionKey: AdoptionResetTests.legacyKey,
                    legacyDefaults: .suite(legacySuite))
            }
        }
    }

    @Test(
        "after a reset the next launch is a fresh install: the legacy key stays and is not adopted again",
        arguments: Front.allCases, [UpgradePolicy.FreshInstall.skip, .runAll])
    func resetIsAFreshInstall(front: Front, freshInstall: UpgradePolicy.FreshInstall) async throws {
        let setup = try Setup(front)
        setup.legacyDefaults.set("8.8", forKey: Self.legacyKey)
        let log = StepLog()
        let policy = UpgradePolicy(freshInstall: freshInstall)
        let adopted = try await Self.upgrader(setup.store(), log: log, policy: policy).run(currentVersion: "9.0")
        #expect(adopted.previousVersion == "8.8")
        #expect(adopted.notices.count == 1)
        #expect(log.entries == ["appUpgradeTo_8_8_1#1", "appUpgradeTo_9_0#1"])

        try await Self.upgrader(setup.store(), log: log, policy: policy).reset()
        #expect(setup.legacyDefaults.string(forKey: Self.legacyKey) == "8.8")
        #expect(try setup.store().load() == nil)
        #expect(try setup.store().loadForLaunch().notice == nil)

        let next = try await Self.upgrader(setup.store(), log: log, policy: policy).run(currentVersion: "9.0")
        #expect(next.previousVersion == nil)
        #expect(next.notices.isEmpty)
        if freshInstall == .skip {
            #expect(next.outcome == .freshInstall)
            #expect(next.ranStepIDs.isEmpty)
        } else {
            #expect(next.outcome == .upgraded)
            #expect(next.ranStepIDs == ["appUpgradeTo_8_7", "appUpgradeTo_8_8_1", "appUpgradeTo_9_0"])
        }
        #expect(try setup.store().load()?.upgradedThrough == "9.0")
        #expect(setup.legacyDefaults.string(forKey: Self.legacyKey) == "8.8")
    }

    @Test("a reset before the first launch ends the adoption too", arguments: Front.allCases)
    func resetBeforeAdoption(front: Front) async throws {
        let setup = try Setup(front)
        setup.legacyDefaults.set("8.8", forKey: Self.legacyKey)
        let log = StepLog()
        try await Self.upgrader(setup.store(), log: log, policy: UpgradePolicy()).reset()
        let report = try await Self.upgrader(setup.store(), log: log, policy: UpgradePolicy()).run(
            currentVersion: "9.0")
        #expect(report.outcome == .freshInstall)
        #expect(report.notices.isEmpty)
        #expect(log.entries.isEmpty)
    }

    @Test("after a reset a legacy value that is not a version is no longer read", arguments: Front.allCases)
    func resetIgnoresAMalformedKey(front: Front) async throws {
        let setup = try Setup(front)
        setup.legacyDefaults.set("8.8-beta", forKey: Self.legacyKey)
        #expect(throws: UpgradeStoreError.self) { try setup.store().load() }
        try await Self.upgrader(setup.store(), log: StepLog(), policy: UpgradePolicy()).reset()
        #expect(try setup.store().load() == nil)
    }

    @Test("the end of the adoption is recorded under its own key beside the legacy key; removed, the key is adopted")
    func markerKey() async throws {
        let setup = try Setup(.adopterOverFile)
        setup.legacyDefaults.set("8.8", forKey: Self.legacyKey)
        try await Self.upgrader(setup.store(), log: StepLog(), policy: UpgradePolicy()).reset()
        #expect(setup.legacyDefaults.bool(forKey: Self.markerKey))
        setup.legacyDefaults.removeObject(forKey: Self.markerKey)
        #expect(try setup.store().load() == UpgradeState(upgradedThrough: "8.8", lastLaunched: "8.8"))
    }

    @Test("a reset whose store cannot remove the state leaves that state, which is read before the key")
    func failedRemoval() async throws {
        let setup = try Setup(.adopterOverMemory)
        setup.legacyDefaults.set("8.8", forKey: Self.legacyKey)
        let log = StepLog()
        let store = try setup.store()
        _ = try await Self.upgrader(store, log: log, policy: UpgradePolicy()).run(currentVersion: "9.0")
        let memory = try #require((store as? LegacyVersionAdopter)?.base as? InMemoryUpgradeStore)
        memory.simulateProcessDeath()
        await #expect(throws: UpgradeStoreError.self) {
            try await Self.upgrader(store, log: log, policy: UpgradePolicy()).reset()
        }
        #expect(try store.load()?.upgradedThrough == "9.0")
        #expect(try store.loadForLaunch().notice == nil)
    }
}
