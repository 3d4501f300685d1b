import Foundation
import StrictJSON
import UpgradeCore
import UpgradeStorage
import VersionKit

/// The replay of a set of fixtures, a value: `upgrade-sim run` renders it (text, JSON, JUnit XML,
/// Markdown or HTML) and prints it.
public struct ReplayReport: Sendable, Hashable {
    /// One result per fixture, in order.
    public var fixtures: [FixtureResult]

    /// Creates a report.
    ///
    /// - Parameter fixtures: One result per fixture.
    package init(fixtures: [FixtureResult]) { self.fixtures = fixtures }

    /// How many histories held every expectation.
    public var passedCount: Int { fixtures.reduce(0) { $0 + $1.passedCount } }
    /// How many histories had a mismatch.
    public var failedCount: Int { fixtures.reduce(0) { $0 + $1.failedCount } }
    /// Whether every history of every fixture passed.
    public var passed: Bool { failedCount == 0 }
    /// Every mismatch, in order.
    public var mismatches: [Mismatch] { fixtures.flatMap(\.mismatches) }
    /// The closing line of the text report: `N passed, M failed`, counting histories.
    public var summaryLine: String { "\(passedCount) passed, \(failedCount) failed" }
}
