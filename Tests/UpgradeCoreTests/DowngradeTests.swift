import Testing
import UpgradeCore
import VersionKit

/// Rule 2: `lastLaunched` and downgrades under `keep` and `rewind`.
@Suite("Rule 2: downgrades")
struct DowngradeTests {
    /// A state upgraded through 2.0 with entries above it, as after launches at 3.5.
    static let upgradedThrough2 = UpgradeState(
        upgradedThrough: "2.0", lastLaunched: "3.5",
        completed: [StepRecord(id: "c", version: "3.0")],
        abandoned: [StepRecord(id: "d", version: "3.1")],
        attempts: [StepAttempts(id: "e", version: "3.2", failed: 2)])

    func steps(_ journal: Journal) -> [UpgradeStep] {
        [
            journal.step("1.0", id: "a"), journal.step("1.8", id: "b"), journal.step("3.0", id: "c"),
            journal.step("3.1", id: "d"), journal.step("3.2", id: "e", script: [.ok]),
        ]
    }

    @Test("keep: nothing runs, the mark stays, lastLaunched is recorded; re-upgrading runs nothing again")
    func keep() async throws {
        let journal = Journal()
        let store = RecordingStore(Self.upgradedThrough2)
        let upgrader = makeUpgrader(store: store, steps: steps(journal))

        let report = try await upgrader.run(currentVersion: "1.5")

        #expect(report.outcome == .downgraded)
        #expect(journal.ids.isEmpty)
        var expected = Self.upgradedThrough2
        expected.lastLaunched = "1.5"
        #expect(store.saves.count == 1)
        #expect(try #require(store.state) == expected)

        // Back up to 2.0: everything at or below the mark is still done.
        let again = try await upgrader.run(currentVersion: "2.0")
        #expect(again.outcome == .upToDate)
        #expect(journal.ids.isEmpty)
        #expect(store.state?.upgradedThrough == "2.0")
    }

    @Test("rewind: the mark drops to C and entries above C are dropped; steps above C run again")
    func rewind() async throws {
        let journal = Journal()
        let store = RecordingStore(Self.upgradedThrough2)
        let upgrader = makeUpgrader(store: store, policy: UpgradePolicy(downgrade: .rewind), steps: steps(journal))

        let report = try await upgrader.run(currentVersion: "1.5")

        #expect(report.outcome == .downgraded)
        #expect(report.upgradedThrough == "1.5")
        #expect(journal.ids.isEmpty)
        let state = try #require(store.state)
        #expect(state.upgradedThrough == "1.5")
        #expect(state.lastLaunched == "1.5")
        #expect(state.completed.isEmpty && state.abandoned.isEmpty && state.attempts.isEmpty)

        let upgrade = try await upgrader.run(currentVersion: "3.5")
        #expect(upgrade.outcome == .upgraded)
        #expect(journal.ids == ["b", "c", "d", "e"])
        #expect(journal.entries.allSatisfy { $0.attempt == 1 })
    }

    @Test("rewind drops by version: an entry at or below C stays")
    func rewindDropsByVersion() async throws {
        // A hand-edited state, with an entry below the mark, shows that rule 2 goes by each entry's version.
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "3.0", lastLaunched: "3.0",
                completed: [StepRecord(id: "x", version: "2.0"), StepRecord(id: "y", version: "3.5")],
                attempts: [StepAttempts(id: "z", version: "2.5", failed: 1)]))
        let upgrader = makeUpgrader(store: store, policy: UpgradePolicy(downgrade: .rewind), steps: [])

        #expect(try await upgrader.run(currentVersion: "2.5").outcome == .downgraded)
        #expect(store.state?.upgradedThrough == "2.5")
        #expect(store.state?.completed.map(\.id) == ["x"])
        #expect(store.state?.attempts.map(\.id) == ["z"])
    }

    @Test("a downgrade that changes nothing writes nothing", arguments: [UpgradePolicy.Downgrade.keep, .rewind])
    func repeatedDowngradeWritesNothing(policy: UpgradePolicy.Downgrade) async throws {
        let store = RecordingStore(Self.upgradedThrough2)
        let upgrader = makeUpgrader(store: store, policy: UpgradePolicy(downgrade: policy), steps: [])

        #expect(try await upgrader.run(currentVersion: "1.5").outcome == .downgraded)
        let saves = store.saves.count
        let again = try await upgrader.run(currentVersion: "1.5")
        #expect(again.outcome == (policy == .keep ? .downgraded : .upToDate))
        #expect(store.saves.count == saves)
    }

    @Test("every write of a launch records the running version as lastLaunched")
    func lastLaunchedInEveryWrite() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [journal.step("1.5", id: "a"), journal.step("2.0", id: "b", script: [.fail])])

        #expect(try await upgrader.run(currentVersion: "2.0").outcome == .failed)
        // In progress a; a done with b in progress; b's failure, the launch's last write.
        #expect(store.saves.count == 3)
        #expect(store.saves.allSatisfy { $0.lastLaunched == "2.0" })
    }
}
