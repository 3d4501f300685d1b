import Testing
import UpgradeCore
import VersionKit

/// A store whose writes fail: the launch stops with that error, and the store never claims more than
/// what was done.
@Suite("Store failures")
struct StoreFailureTests {
    // A fresh install under runAll with steps a, b, c writes (merged writes, k + 1 for k steps):
    // 1 inProgress a, 2 a done with inProgress b, 3 b done with inProgress c, 4 c done with the end of
    // the launch.
    @Test("the n-th write fails", arguments: 1...4)
    func failingWrite(number: Int) async throws {
        let journal = Journal()
        let events = EventLog()
        let store = RecordingStore()
        store.failWrite(number: number)
        let ids = ["a", "b", "c"]
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(freshInstall: .runAll), events: events,
            steps: ids.enumerated().map { journal.step(Version(major: 1, minor: $0.offset), id: $0.element) })

        let error = await #expect(throws: StoreFault.self) { try await upgrader.run(currentVersion: "1.2") }

        #expect(error == StoreFault(write: number, afterDeath: false))
        // Step k runs only after write k, its inProgress write, succeeded; none runs after the failure.
        let ran = Array(ids.prefix(number - 1))
        #expect(journal.ids == ran)
        // The store lists as done only what finished and was written as done.
        let stored = store.state
        let finishedAndWritten = Array(ids.prefix(max(number - 2, 0)))
        #expect(stored?.completed.map(\.id) ?? [] == finishedAndWritten)
        #expect(stored?.upgradedThrough == nil)
        if number == 1 {
            // Not even the first write went through: nothing is stored.
            #expect(stored == nil)
        } else {
            // The write that would have recorded the step done failed: it stays in progress, to run again.
            #expect(stored?.inProgress?.id == ids[number - 2])
        }
        guard case .launchAborted(let abortError, let partial) = events.events.last else {
            Issue.record("expected launchAborted last, got \(events.lines)")
            return
        }
        #expect(abortError as? StoreFault == error)
        #expect(partial.ranStepIDs == ran)
        #expect(!events.lines.contains { $0.hasPrefix("launchFinished") })

        // The next launch, with a working store, finishes the job; a step whose completion was not
        // written runs again, told that its previous attempt was interrupted.
        journal.reset()
        let report = try await upgrader.run(currentVersion: "1.2")
        #expect(report.outcome == .upgraded)
        #expect(journal.ids == Array(ids.dropFirst(finishedAndWritten.count)))
        #expect(store.state?.upgradedThrough == "1.2")
    }

    @Test("a failing write after a failed step stops the launch with the store's error")
    func failingWriteAfterFailure() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        // 1 inProgress a, 2 the failure of a.
        store.failWrite(number: 2)
        let upgrader = makeUpgrader(
            store: store, steps: [journal.step("1.1", id: "a", script: [.fail]), journal.step("1.2", id: "b")])

        await #expect(throws: StoreFault(write: 2, afterDeath: false)) { try await upgrader.run(currentVersion: "1.2") }

        #expect(journal.ids == ["a"])
        #expect(store.state?.inProgress?.id == "a")
        #expect(store.state?.attempts == [])
    }

    @Test("a failing write of an abandonment stops the launch before the next step")
    func failingAbandonWrite() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "1.2",
                attempts: [StepAttempts(id: "a", version: "1.1", failed: 1)]))
        store.failWrite(number: 1)
        let upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 1),
            steps: [journal.step("1.1", id: "a"), journal.step("1.2", id: "b")])

        await #expect(throws: StoreFault.self) { try await upgrader.run(currentVersion: "1.2") }

        #expect(journal.ids.isEmpty)
        #expect(store.state?.abandoned == [])
    }

    @Test("a failing write under skip leaves the install fresh")
    func failingFreshInstallWrite() async throws {
        let store = RecordingStore()
        store.failWrite(number: 1)
        let upgrader = makeUpgrader(store: store, steps: [])

        await #expect(throws: StoreFault.self) { try await upgrader.run(currentVersion: "1.0") }
        #expect(store.state == nil)
        #expect(try await upgrader.run(currentVersion: "1.0").outcome == .freshInstall)
    }
}
