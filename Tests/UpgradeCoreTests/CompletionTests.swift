import Testing
import UpgradeCore
import VersionKit

/// Rule 5, and the launches that change nothing.
@Suite("Rule 5: completion and quiet launches")
struct CompletionTests {
    @Test("when every pending step is handled the mark moves to C and entries at or below C are dropped")
    func markMovesAndEntriesDrop() async throws {
        let journal = Journal()
        // As after a launch at 3.0 that finished a and x, then crashed in y.
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "3.0",
                completed: [StepRecord(id: "a", version: "2.0"), StepRecord(id: "x", version: "3.0")],
                inProgress: StepInProgress(id: "y", version: "3.0", attempt: 1)))
        let upgrader = makeUpgrader(
            store: store,
            steps: [journal.step("2.0", id: "a"), journal.step("3.0", id: "x"), journal.step("3.0", id: "y")])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(report.outcome == .upToDate)
        #expect(journal.ids.isEmpty)
        let state = try #require(store.state)
        #expect(state.upgradedThrough == "2.0")
        #expect(state.completed == [StepRecord(id: "x", version: "3.0")])
        #expect(state.attempts == [StepAttempts(id: "y", version: "3.0", failed: 1, lastAttemptInterrupted: true)])
    }

    @Test("a state with every pending step done but the mark below C: the next launch at C moves the mark")
    func diedBeforeTheFinalWrite() async throws {
        // Merged writes never leave this state (the last completion is written with rule 5), but a
        // state written by an earlier version of the package, or by hand, can hold it.
        let journal = Journal()
        var before = settledState(at: "1.0")
        before.lastLaunched = "2.0"
        before.completed = [StepRecord(id: "a", version: "2.0")]
        let store = RecordingStore(before)
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(downgrade: .rewind), steps: [journal.step("2.0", id: "a")])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(report.outcome == .upToDate)
        #expect(report.upgradedThrough == "2.0")
        #expect(store.state?.upgradedThrough == "2.0")
        #expect(store.state?.completed == [])
        #expect(journal.ids.isEmpty)

        // So a later downgrade is one, and rewinds.
        #expect(try await upgrader.run(currentVersion: "1.5").outcome == .downgraded)
        _ = try await upgrader.run(currentVersion: "2.0")
        #expect(journal.ids == ["a"])
    }

    @Test("the outcome is upgraded when a step ran or was abandoned, else upToDate")
    func outcome() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [journal.step("2.0", id: "a")])

        #expect(try await upgrader.run(currentVersion: "1.5").outcome == .upToDate)
        #expect(store.state?.upgradedThrough == "1.5")
        #expect(try await upgrader.run(currentVersion: "2.0").outcome == .upgraded)
        #expect(try await upgrader.run(currentVersion: "2.1").outcome == .upToDate)
        #expect(store.state?.upgradedThrough == "2.1")
        #expect(journal.ids == ["a"])
    }

    @Test("the fast path: same C and nothing pending reads once, takes no lock and writes nothing")
    func fastPath() async throws {
        let journal = Journal()
        let events = EventLog()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, events: events, steps: [journal.step("2.0", id: "a")])
        _ = try await upgrader.run(currentVersion: "2.0")
        let saves = store.saves.count
        let locks = store.lockCount
        let loads = store.loadCount
        events.reset()

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(report.outcome == .upToDate)
        #expect(report.steps.isEmpty)
        #expect(store.saves.count == saves)
        #expect(store.lockCount == locks)
        #expect(store.loadCount == loads + 1)
        #expect(events.lines == ["launchFinished upToDate"])
        #expect(journal.ids == ["a"])
    }

    @Test("a launch at a new version with nothing pending writes once")
    func newVersionNothingPending() async throws {
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [])

        #expect(try await upgrader.run(currentVersion: "1.1").outcome == .upToDate)
        #expect(store.saves.count == 1)
        #expect(store.state?.lastLaunched == "1.1")
        #expect(store.state?.upgradedThrough == "1.1")
    }
}
