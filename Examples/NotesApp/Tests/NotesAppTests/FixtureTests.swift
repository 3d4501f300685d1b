import Foundation
import Testing
import UpgradeFixtures
import UpgradeReplay

@testable import notes

/// The app's fixtures (Fixtures/*.json), replayed through the real engine with the other tests.
@Test("the app's upgrade-path fixtures hold")
func upgradePathFixturesHold() async throws {
    // Tests/NotesAppTests/FixtureTests.swift -> the package's Fixtures folder
    let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    let loaded = FixtureLoader.load(paths: [fixtures.path])
    #expect(loaded.errors.isEmpty, "\(loaded.errors)")
    #expect(loaded.fixtures.map(\.name).sorted() == ["notes-app", "notes-app-faults"])
    let report = try await ReplayReport.replay(loaded.fixtures)
    #expect(report.passed, "\(report.mismatches)")
    #expect(report.passedCount == 6)
}

/// The fixtures describe the app's real steps: the same ids and versions, in the same order.
@Test("each fixture lists the app's own steps, in order")
func fixturesListTheAppsSteps() throws {
    let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    let loaded = FixtureLoader.load(paths: [fixtures.path])
    #expect(loaded.errors.isEmpty, "\(loaded.errors)")
    // Only the steps are read: the data folder is never touched.
    let upgrader = NotesUpgrades.upgrader(for: DataFolder(url: URL(fileURLWithPath: NSTemporaryDirectory())))
    for fixture in loaded.fixtures {
        try fixture.checkSteps(against: upgrader)
    }
}
