import Foundation
import StrictJSON
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

extension ReplayReport {
    /// Replays fixtures one after another.
    ///
    /// - Parameters:
    ///   - fixtures: The fixtures.
    ///   - mode: In memory (the default) or one process per launch.
    /// - Returns: The report.
    /// - Throws: What ``UpgradeFixtures/Fixture/replay(mode:)`` throws.
    public static func replay(_ fixtures: [Fixture], mode: ReplayMode = .inMemory) async throws -> ReplayReport {
        var results: [FixtureResult] = []
        results.reserveCapacity(fixtures.count)
        for fixture in fixtures { results.append(try await fixture.replay(mode: mode)) }
        return ReplayReport(fixtures: results)
    }
}
