import Testing
import UpgradeCore
import VersionKit

/// Merged writes (the launch algorithm article, "Writes"): a step's completion and the next step's
/// `inProgress` record are one write, the last completion and rule 5 are one write, so that a launch
/// that runs k step actions makes at most k + 1 writes.
@Suite("Merged writes")
struct MergedWritesTests {
    static func steps(_ count: Int, journal: Journal, store: RecordingStore, failing: Set<Int> = []) -> [UpgradeStep] {
        (0..<count).map { index in
            journal.step(
                Version(major: 1, minor: index + 1), id: "s\(index)", store: store,
                script: failing.contains(index) ? [.fail] : [.ok])
        }
    }

    @Test("k pending steps that finish cost exactly k + 1 writes", arguments: [0, 1, 2, 5, 20])
    func everyStepFinishes(count: Int) async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: Self.steps(count, journal: journal, store: store))
        let report = try await upgrader.run(currentVersion: Version(major: 1, minor: max(count, 1)))
        #expect(report.outcome == (count == 0 ? .upToDate : .upgraded))
        #expect(journal.ids.count == count)
        // Nothing pending but a new version: one write (lastLaunched and the mark); else k + 1.
        #expect(store.saves.count == count + 1)
        #expect(store.savesWithRecord.filter { $0 }.count == 1)
        #expect(store.savesWithRecord.last == true)
        // Each step saw, in the store, every earlier step done and itself in progress.
        for (index, entry) in journal.entries.enumerated() {
            #expect(entry.stored?.inProgress?.id == "s\(index)")
            #expect(entry.stored?.completed.map(\.id) == (0..<index).map { "s\($0)" })
        }
    }

    @Test("abandoning steps adds no write of its own")
    func abandonsAreMerged() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "1.0",
                attempts: [
                    StepAttempts(id: "s0", version: "1.1", failed: 2),
                    StepAttempts(id: "s2", version: "1.3", failed: 2),
                ]))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 2), steps: Self.steps(4, journal: journal, store: store))
        let report = try await upgrader.run(currentVersion: "1.4")
        #expect(report.outcome == .upgraded)
        #expect(report.abandonedStepIDs == ["s0", "s2"])
        #expect(journal.ids == ["s1", "s3"])
        // Two step actions, three writes: s0's abandonment rides on s1's inProgress write.
        #expect(store.saves.count == 3)
        #expect(journal.entries.first?.stored?.abandoned.map(\.id) == ["s0"])
        #expect(journal.entries.last?.stored?.abandoned.map(\.id) == ["s0", "s2"])
    }

    @Test("a step abandoned when it fails is written with the next step's inProgress record")
    func abandonedAfterFailure() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 1),
            steps: Self.steps(3, journal: journal, store: store, failing: [1]))
        let report = try await upgrader.run(currentVersion: "1.3")
        #expect(report.outcome == .upgraded)
        #expect(store.saves.count == 4)
        let seenByLast = try #require(journal.entries.last?.stored)
        #expect(seenByLast.abandoned.map(\.id) == ["s1"])
        #expect(seenByLast.completed.map(\.id) == ["s0"])
    }

    @Test("a failed step ends the launch with one write: its failed attempt")
    func failureEndsWithOneWrite() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store, steps: Self.steps(3, journal: journal, store: store, failing: [1]))
        let report = try await upgrader.run(currentVersion: "1.3")
        #expect(report.outcome == .failed)
        #expect(journal.ids == ["s0", "s1"])
        #expect(store.saves.count == 3)
        #expect(store.state?.completed.map(\.id) == ["s0"])
        #expect(store.state?.attempts == [StepAttempts(id: "s1", version: "1.2", failed: 1)])
        #expect(store.state?.inProgress == nil)
    }

    @Test("a launch that changes nothing writes nothing, history included")
    func quietLaunch() async throws {
        let store = RecordingStore(settledState(at: "1.1"))
        let upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1") {}])
        #expect(try await upgrader.run(currentVersion: "1.1").outcome == .upToDate)
        #expect(store.saves.isEmpty)
        #expect(store.history().isEmpty)
    }
}
