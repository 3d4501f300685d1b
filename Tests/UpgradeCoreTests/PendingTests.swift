import Testing
import UpgradeCore
import VersionKit

/// Rule 3: which steps are pending, and in what order.
@Suite("Rule 3: pending steps")
struct PendingTests {
    @Test(
        "pending steps lie above the mark and at or below the running version; 8.8 == 8.8.0",
        arguments: [
            // (mark, running version, step versions that run)
            ("1.0", "2.0", ["1.5", "2.0"]),
            ("1.5", "2.0", ["2.0"]),
            ("8.8", "8.8.0", []),
            ("8.7", "8.8.0", ["8.8", "8.8.0"]),
            ("8.7", "8.8", ["8.8", "8.8.0"]),
            ("8.8.0", "8.8.1", ["8.8.1"]),
            ("8.8", "9.0", ["8.8.1", "8.10", "9.0"]),
            ("0.1", "8.9", ["1.0", "1.5", "2.0", "2.1", "8.8", "8.8.0", "8.8.1"]),
        ] as [(Version, Version, [String])])
    func bounds(mark: Version, current: Version, expected: [String]) async throws {
        let versions = ["1.0", "1.5", "2.0", "2.1", "8.8", "8.8.0", "8.8.1", "8.10", "9.0", "9.0.1"]
        let journal = Journal()
        let store = RecordingStore(settledState(at: mark))
        // Ids are the step-name forms: 8.8 and 8.8.0 are two steps of one version.
        let upgrader = makeUpgrader(
            store: store, steps: versions.map { journal.step(Version(stringLiteral: $0)) })

        _ = try await upgrader.run(currentVersion: current)

        #expect(journal.ids == expected.map { Version(stringLiteral: $0).stepName })
    }

    @Test("with no mark, every step at or below the running version is pending")
    func nullMark() async throws {
        let journal = Journal()
        let store = RecordingStore(UpgradeState(upgradedThrough: nil, lastLaunched: "0.1"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [journal.step("0.0", id: "zero"), journal.step("1.0", id: "a"), journal.step("2.0", id: "b")])

        _ = try await upgrader.run(currentVersion: "1.0")

        #expect(journal.ids == ["zero", "a"])
    }

    @Test("steps of equal version run in registration order, after lower versions")
    func equalVersionsInRegistrationOrder() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "0.1"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [
                journal.step("2.0.0", id: "y"), journal.step("3.0", id: "late"), journal.step("1.0", id: "first"),
                journal.step("2.0", id: "x"), journal.step("2.0", id: "z"),
            ])

        #expect(upgrader.steps.map(\.id) == ["first", "y", "x", "z", "late"])
        _ = try await upgrader.run(currentVersion: "3.0")
        #expect(journal.ids == ["first", "y", "x", "z", "late"])
    }

    @Test("completed and abandoned steps are not pending")
    func completedAndAbandonedExcluded() async throws {
        let journal = Journal()
        let store = RecordingStore(
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "2.0",
                completed: [StepRecord(id: "b", version: "1.2")],
                abandoned: [StepRecord(id: "c", version: "1.3")]))
        let upgrader = makeUpgrader(
            store: store,
            steps: [
                journal.step("1.1", id: "a"), journal.step("1.2", id: "b"), journal.step("1.3", id: "c"),
                journal.step("1.4", id: "d"),
            ])

        let report = try await upgrader.run(currentVersion: "2.0")

        #expect(journal.ids == ["a", "d"])
        #expect(report.outcome == .upgraded)
        #expect(store.state?.completed.isEmpty == true)
        #expect(store.state?.abandoned.isEmpty == true)
    }
}
