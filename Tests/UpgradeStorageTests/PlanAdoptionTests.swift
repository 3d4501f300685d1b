import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import VersionKit

/// `Upgrader.plan(currentVersion:)` over a store that would adopt a legacy version: the plan starts
/// from the adopted state and says, in its notices and its text, that the launch will adopt it,
/// without writing anything (<doc:LaunchAlgorithm>: a plan runs and writes nothing).
@Suite("A plan says it will adopt the legacy version")
struct PlanAdoptionTests {
    static let legacyKey = "localAppVersion"

    static func upgrader(_ store: any UpgradeStore) -> Upgrader {
        Upgrader(store: store) {
            UpgradeStep("9.0") {}
            UpgradeStep("9.0.1") {}
            UpgradeStep("9.1") {}
        }
    }

    /// A place for the state (`nil`: the defaults store adopting the key of its own suite), a suite for
    /// the legacy key, and a store over them as a launch makes it.
    struct Setup {
        let state: StoreFixture
        let legacy: StoreFixture
        let kind: StoreKind?

        init(_ kind: StoreKind?) throws {
            self.kind = kind
            state = try StoreFixture(kind ?? .defaults)
            legacy = try StoreFixture(.defaults)
        }

        var legacySuite: String { kind == nil ? state.suite : legacy.suite }

        func store() throws -> any UpgradeStore {
            if kind == nil {
                return try UserDefaultsUpgradeStore(suiteName: state.suite, legacyVersionKey: legacyKey)
            }
            return try LegacyVersionAdopter(state.relaunched(), key: legacyKey, suiteName: legacySuite)
        }
    }

    @Test(
        "with no state and a version under the key, the plan adopts it, says so, and writes nothing",
        arguments: StoreKind.builtIn.map(Optional.some) + [nil])
    func planSaysAdoption(kind: StoreKind?) async throws {
        let setup = try Setup(kind)
        UserDefaults(suiteName: setup.legacySuite)!.set("9.0.1", forKey: Self.legacyKey)

        let plan = try Self.upgrader(setup.store()).plan(currentVersion: "9.1")
        #expect(plan.upgradedThrough == "9.0.1")
        #expect(!plan.isFreshInstall)
        #expect(plan.expectedOutcome == .upgraded)
        #expect(plan.stepsToRun == ["appUpgradeTo_9_1"])
        let notice = try #require(plan.notices.first)
        #expect(plan.notices.count == 1)
        #expect(notice.hasPrefix("will adopt version 9.0.1 from the legacy key \"\(Self.legacyKey)\""))
        #expect(notice.contains(setup.legacySuite))
        let lines = plan.description.split(separator: "\n").map(String.init)
        #expect(lines.first == "launch at 9.1: upgraded (upgraded through 9.0.1)")
        #expect(lines.dropFirst().first == "  notice: \(notice)")
        #expect(lines.last == "  appUpgradeTo_9_1 (9.1): will run, attempt 1")

        // The plan wrote nothing: the wrapped store still holds no state, and the launch adopts.
        #expect(try setup.store().loadWithoutAdopting() == nil)
        let report = try await Self.upgrader(setup.store()).run(currentVersion: "9.1")
        #expect(report.ranStepIDs == plan.stepsToRun)
        #expect(report.notices.first?.hasPrefix("adopted version 9.0.1 from the legacy key") == true)

        // Once the state is stored, a plan adopts nothing and says nothing of the key.
        let later = try Self.upgrader(setup.store()).plan(currentVersion: "9.1")
        #expect(later.notices.isEmpty)
        #expect(later.expectedOutcome == .upToDate)
        #expect(!later.description.contains("notice:"))
    }

    @Test(
        "with no version under the key, the plan is a fresh install's, without a notice",
        arguments: StoreKind.builtIn.map(Optional.some) + [nil])
    func noLegacyVersion(kind: StoreKind?) throws {
        let setup = try Setup(kind)
        let plan = try Self.upgrader(setup.store()).plan(currentVersion: "9.1")
        #expect(plan.isFreshInstall)
        #expect(plan.expectedOutcome == .freshInstall)
        #expect(plan.notices.isEmpty)
    }

    @Test("a store that adopts nothing plans without a notice")
    func plainStore() throws {
        let plan = try Self.upgrader(InMemoryUpgradeStore(state: UpgradeState(upgradedThrough: "9.0.1")))
            .plan(currentVersion: "9.1")
        #expect(plan.notices.isEmpty)
        #expect(plan.stepsToRun == ["appUpgradeTo_9_1"])
    }
}
