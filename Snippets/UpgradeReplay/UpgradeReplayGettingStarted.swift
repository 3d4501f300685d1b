// The sample of Modules/UpgradeReplay/UpgradeReplay.docc/GettingStarted.md: a test of an app's
// test target that replays the app's fixtures.

// snippet.fixture-test
import Foundation
import Testing
import UpgradeFixtures
import UpgradeReplay

@Test func upgradePathsHold() async throws {
    let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/MyAppTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package
        .appending(path: "Fixtures")
    let loaded = FixtureLoader.load(paths: [fixtures.path])
    #expect(loaded.errors.isEmpty, "\(loaded.errors)")
    let report = try await ReplayReport.replay(loaded.fixtures)
    #expect(report.passed, "\(report.mismatches)")
}
// snippet.end
