import Foundation
import StrictJSON
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

/// The replay of one fixture.
public struct FixtureResult: Sendable, Hashable {
    /// The fixture's name.
    public var name: String
    /// The file it was read from, if any.
    package var file: String?
    /// One result per history, in the fixture's order.
    public var histories: [HistoryResult]
    /// The fixture replayed, when known: its steps, floor, policy and expectations let the reports
    /// draw each history step by step.
    package var fixture: Fixture?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - name: The fixture's name.
    ///   - file: The file it was read from.
    ///   - histories: One result per history.
    ///   - fixture: The fixture replayed, if known.
    package init(name: String, file: String?, histories: [HistoryResult], fixture: Fixture? = nil) {
        self.name = name
        self.file = file
        self.histories = histories
        self.fixture = fixture
    }

    /// How many histories held every expectation.
    package var passedCount: Int { histories.filter(\.passed).count }
    /// How many histories had a mismatch.
    package var failedCount: Int { histories.count - passedCount }
    /// Whether every history passed.
    public var passed: Bool { failedCount == 0 }
    /// Every mismatch of every history, in order.
    public var mismatches: [Mismatch] { histories.flatMap(\.mismatches) }
}
