import Testing
import UpgradeCore
import VersionKit

/// Maintenance for debug menus and support tools: mark done, forget, clear failed attempts.
@Suite("Maintenance")
struct MaintenanceTests {
    func steps(_ journal: Journal) -> [UpgradeStep] {
        [
            journal.step("1.0", id: "a"), journal.step("1.1", id: "b"), journal.step("1.1", id: "c"),
            journal.step("1.1", id: "d"), journal.step("1.2", id: "e"), journal.step("2.0", id: "f"),
        ]
    }

    @Test("markStepDone records a pending step as done without running it, under the store's lock")
    func markStepDone() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.1", lastLaunched: "1.2",
                attempts: [StepAttempts(id: "e", version: "1.2", failed: 2)]))
        let upgrader = makeUpgrader(store: store, steps: steps(journal))

        try await upgrader.markStepDone("e")

        #expect(store.lockCount == 1)
        #expect(store.state?.completed == [StepRecord(id: "e", version: "1.2")])
        #expect(store.state?.attempts == [])
        _ = try await upgrader.run(currentVersion: "2.0")
        #expect(journal.ids == ["f"])
    }

    @Test("markStepDone of a step at or below the mark writes nothing")
    func markDoneBelowMark() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.1"))
        let upgrader = makeUpgrader(store: store, steps: steps(journal))

        try await upgrader.markStepDone("b")

        #expect(store.saves.isEmpty)
    }

    @Test("forgetStep of a step completed above the mark runs it again")
    func forgetCompleted() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.1", lastLaunched: "1.2",
                completed: [StepRecord(id: "e", version: "1.2")],
                abandoned: [StepRecord(id: "f", version: "2.0")]))
        let upgrader = makeUpgrader(store: store, steps: steps(journal))

        try await upgrader.forgetStep("e")
        try await upgrader.forgetStep("f")
        #expect(store.state?.completed == [])
        #expect(store.state?.abandoned == [])

        _ = try await upgrader.run(currentVersion: "2.0")
        #expect(journal.ids == ["e", "f"])
    }

    @Test(
        "forgetStep of a step at or below the mark: only that step runs again",
        arguments: ["a", "b", "c", "d", "e"])
    func forgetBelowMark(id: String) async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.2"))
        let upgrader = makeUpgrader(store: store, steps: steps(journal))

        try await upgrader.forgetStep(id)
        #expect(try upgrader.pendingSteps(currentVersion: "1.2").map(\.id) == [id])
        let report = try await upgrader.run(currentVersion: "1.2")

        #expect(report.outcome == .upgraded)
        #expect(journal.ids == [id])
        #expect(store.state?.upgradedThrough == "1.2")
        #expect(store.state?.completed == [])

        // Nothing more runs at the next update but the new step.
        _ = try await upgrader.run(currentVersion: "2.0")
        #expect(journal.ids == [id, "f"])
    }

    @Test("clearFailedAttempts lets a step that would be abandoned run afresh")
    func clearFailedAttempts() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.1", lastLaunched: "1.2",
                attempts: [StepAttempts(id: "e", version: "1.2", failed: 2)],
                inProgress: StepInProgress(id: "e", version: "1.2", attempt: 3)))
        let upgrader = makeUpgrader(store: store, policy: UpgradePolicy(giveUpAfter: 2), steps: steps(journal))

        try await upgrader.clearFailedAttempts(of: "e")

        #expect(store.state?.attempts == [])
        #expect(store.state?.inProgress == nil)
        _ = try await upgrader.run(currentVersion: "1.2")
        #expect(journal.entries.map { "\($0.id)#\($0.attempt)" } == ["e#1"])
    }

    @Test("an unknown step is an error naming it; nothing is written")
    func unknownStep() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: steps(journal))

        for call in [upgrader.markStepDone, upgrader.forgetStep, upgrader.clearFailedAttempts(of:)] {
            let error = await #expect(throws: UpgradeError.self) { try await call("nope") }
            #expect(error?.code == .unknownStep)
            #expect(error?.message.contains("\"nope\"") == true)
            #expect(error?.message.contains("registered: a, b, c") == true)
        }
        #expect(store.saves.isEmpty)
    }

    @Test("maintenance needs a stored state")
    func noStoredState() async throws {
        let journal = Journal()
        let store = RecordingStore()
        let upgrader = makeUpgrader(store: store, steps: steps(journal))

        for call in [upgrader.markStepDone, upgrader.forgetStep, upgrader.clearFailedAttempts(of:)] {
            let error = await #expect(throws: UpgradeError.self) { try await call("a") }
            #expect(error?.code == .noStoredState)
        }
        #expect(store.saves.isEmpty)
        #expect(store.state == nil)
    }

    @Test("a store write failure in maintenance is reported")
    func writeFailure() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        store.failWrite(number: 1)
        let upgrader = makeUpgrader(store: store, steps: steps(journal))

        await #expect(throws: StoreFault(write: 1, afterDeath: false)) { try await upgrader.markStepDone("e") }
        #expect(store.state == settledState(at: "1.0"))
    }
}
