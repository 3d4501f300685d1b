import Foundation
import StrictJSON
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

/// The replay of one history: every launch's observation and the mismatches.
public struct HistoryResult: Sendable, Hashable {
    /// The history's name.
    public var name: String
    /// The app version of each launch.
    public var launches: [Version]
    /// What each launch did.
    public var observations: [LaunchObservation]
    /// Where the observations differ from the expectations, in launch order.
    public var mismatches: [Mismatch]
    /// The device's condition at some launches, by position (from 0), as the history gave them.
    package var conditions: [Int: LaunchCondition]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - name: The history's name.
    ///   - launches: The app version of each launch.
    ///   - observations: What each launch did.
    ///   - mismatches: Where they differ from the expectations.
    ///   - conditions: The device's condition at some launches, by position; none by default.
    package init(
        name: String, launches: [Version], observations: [LaunchObservation], mismatches: [Mismatch],
        conditions: [Int: LaunchCondition] = [:]
    ) {
        self.name = name
        self.launches = launches
        self.observations = observations
        self.mismatches = mismatches
        self.conditions = conditions
    }

    /// Whether every expectation held.
    public var passed: Bool { mismatches.isEmpty }
}
