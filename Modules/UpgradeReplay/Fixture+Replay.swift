import Foundation
import StrictJSON
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

extension Fixture {
    /// The app these steps, this floor and this policy make, ready to launch.
    public var app: SimulatedApp { SimulatedApp(steps: steps, floor: floor, policy: policy) }

    /// Replays every history, each from a fresh install, and compares every launch with its
    /// expectation.
    ///
    /// - Parameter mode: In memory (the default) or one process per launch.
    /// - Returns: The result.
    /// - Throws: `SimulationError` when a launch cannot be carried out (for processes: a child that
    ///   fails or prints something unexpected); the engine's errors.
    public func replay(mode: ReplayMode = .inMemory) async throws -> FixtureResult {
        let app = self.app
        var results: [HistoryResult] = []
        results.reserveCapacity(histories.count)
        for history in histories {
            let observations: [LaunchObservation]
            switch mode {
            case .inMemory:
                observations = try await app.replay(
                    launches: history.launches, followers: history.followers, conditions: history.conditions,
                    legacyVersion: history.legacyVersion)
            case .processes(let executable, let durability):
                observations = try await ProcessReplay(executable: executable, durability: durability)
                    .replay(history, of: self)
            }
            results.append(result(of: history, observations: observations))
        }
        return FixtureResult(name: name, file: file, histories: results, fixture: self)
    }

    /// Compares a history's observations with its expectations.
    ///
    /// - Parameters:
    ///   - history: The history.
    ///   - observations: What each of its launches did.
    /// - Returns: The result, with a mismatch per differing key.
    package func result(of history: FixtureHistory, observations: [LaunchObservation]) -> HistoryResult {
        var mismatches: [Mismatch] = []
        if let expect = history.expect {
            for (index, (expectation, observation)) in zip(expect, observations).enumerated() {
                for difference in expectation.differences(from: observation) {
                    mismatches.append(
                        Mismatch(
                            fixture: name, history: history.name, launch: index + 1, version: history.launches[index],
                            key: difference.key, expected: difference.expected, got: difference.got,
                            condition: history.conditions[index]))
                }
            }
        }
        return HistoryResult(
            name: history.name, launches: history.launches, observations: observations, mismatches: mismatches,
            conditions: history.conditions)
    }
}
