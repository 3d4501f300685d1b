import Foundation
import StrictJSON
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

/// One launch whose observation differs from its fixture's expectation on one key.
public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
    /// The expectation key that differs.
    package enum Key: String, Sendable, Hashable, CaseIterable {
        /// The outcome.
        case outcome
        /// The steps started.
        case ran
        /// The steps abandoned.
        case abandoned
        /// The mark after the launch.
        case upgradedThrough
        /// The version adopted from a legacy key.
        case adoptedFrom
    }

    /// The fixture's name.
    package var fixture: String
    /// The history's name.
    package var history: String
    /// Which launch of the history, from 1.
    package var launch: Int
    /// The app version of that launch.
    package var version: Version
    /// The key that differs.
    package var key: Key
    /// The expected value, as JSON: `"failed"`, `["a", "b"]`, `"2.0"`, `null`.
    package var expected: String
    /// The observed value, as JSON.
    package var got: String
    /// The device's condition at that launch (`locked`, or an expiry), if any.
    package var condition: LaunchCondition?

    /// Creates a mismatch.
    ///
    /// - Parameters:
    ///   - fixture: The fixture's name.
    ///   - history: The history's name.
    ///   - launch: Which launch, from 1.
    ///   - version: The launch's app version.
    ///   - key: The key that differs.
    ///   - expected: The expected value, as JSON.
    ///   - got: The observed value, as JSON.
    ///   - condition: The device's condition at that launch; none by default.
    package init(
        fixture: String, history: String, launch: Int, version: Version, key: Key, expected: String, got: String,
        condition: LaunchCondition? = nil
    ) {
        self.condition = condition
        self.fixture = fixture
        self.history = history
        self.launch = launch
        self.version = version
        self.key = key
        self.expected = expected
        self.got = got
    }

    /// `FIXTURE / HISTORY / launch N (VERSION) / KEY: expected E, got G`; the version followed by the
    /// launch's condition when it has one, such as `(2.0, locked)`.
    public var description: String {
        let launchText = "\(version)" + (condition.map { ", \($0)" } ?? "")
        return "\(fixture) / \(history) / launch \(launch) (\(launchText)) / \(key.rawValue): expected \(expected),"
            + " got \(got)"
    }
}
