import Testing
import UpgradeCore
import VersionKit

/// Rule 1: what a launch with no stored state does, under each fresh-install policy.
@Suite("Rule 1: fresh install")
struct FreshInstallTests {
    @Test("skip records the running version and runs nothing")
    func skip() async throws {
        let journal = Journal()
        let store = RecordingStore()
        let upgrader = makeUpgrader(
            store: store,
            steps: [journal.step("1.0", id: "a"), journal.step("2.0", id: "b"), journal.step("2.1", id: "c")])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(report.outcome == .freshInstall)
        #expect(report.steps.isEmpty)
        #expect(report.previousVersion == nil)
        #expect(report.upgradedThrough == "2.0")
        #expect(journal.ids.isEmpty)
        #expect(store.saves.count == 1)
        let state = try #require(store.state)
        #expect(state.upgradedThrough == "2.0")
        #expect(state.lastLaunched == "2.0")
        #expect(state.completed.isEmpty && state.abandoned.isEmpty && state.attempts.isEmpty)

        // The next update runs only what lies above the baseline.
        let next = try await upgrader.run(currentVersion: "2.1")
        #expect(next.outcome == .upgraded)
        #expect(journal.ids == ["c"])
    }

    @Test(
        "runAll and upgradeFrom start from their baseline and go on as for a stored state",
        arguments: [
            (UpgradePolicy.FreshInstall.runAll, ["a", "b"], Version?.none),
            (.upgradeFrom("1.0"), ["b"], "1.0"),
            (.upgradeFrom("1.0.0"), ["b"], "1.0"),
            (.upgradeFrom("0.9"), ["a", "b"], "0.9"),
            (.upgradeFrom("2.0"), [], "2.0"),
        ])
    func startFromBaseline(policy: UpgradePolicy.FreshInstall, ran: [String], baseline: Version?) async throws {
        let journal = Journal()
        let store = RecordingStore()
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(freshInstall: policy),
            steps: [journal.step("1.0", id: "a"), journal.step("2.0", id: "b"), journal.step("2.1", id: "c")])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(journal.ids == ran)
        #expect(report.outcome == (ran.isEmpty ? .upToDate : .upgraded))
        #expect(report.upgradedThroughBefore == baseline)
        #expect(report.upgradedThrough == "2.0")
        #expect(store.state?.upgradedThrough == "2.0")
        #expect(store.state?.lastLaunched == "2.0")
    }

    @Test(
        "upgradeFrom a version above the running one is a downgrade",
        arguments: [UpgradePolicy.Downgrade.keep, .rewind])
    func upgradeFromAboveRunning(downgrade: UpgradePolicy.Downgrade) async throws {
        let journal = Journal()
        let store = RecordingStore()
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("3.0"), downgrade: downgrade),
            steps: [journal.step("1.0", id: "a")])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(report.outcome == .downgraded)
        #expect(journal.ids.isEmpty)
        #expect(store.state?.upgradedThrough == (downgrade == .keep ? "3.0" : "2.0"))
        #expect(store.state?.lastLaunched == "2.0")
    }
}
