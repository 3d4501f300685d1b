import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

/// The naive pattern's version under a legacy key before a device's first launch with AppUpgrade (a
/// history's `legacyVersion`, <doc:/UpgradeFixtures/UpgradeFixtures>, "A legacy key"), replayed through the
/// real `LegacyVersionAdopter`.
///
/// The key, `localAppVersion`, lives in a defaults file of its own at ``suitePath`` (a suite named by
/// an absolute path: `PATH.plist`), never in the standard defaults. It is written before each launch,
/// as the naive pattern left it, and never changed by the adopter.
package struct LegacyKey: Sendable {
    /// The key the naive pattern kept its version under.
    package static let key = "localAppVersion"

    /// The version under the key.
    package let version: Version
    /// The defaults file's path without `.plist`, the suite name the adopter is given.
    package let suitePath: String

    /// A legacy key holding `version` in the defaults file `suitePath` + `.plist`.
    package init(version: Version, suitePath: String) {
        self.version = version
        self.suitePath = suitePath
    }

    /// The store a launch uses: `base` behind an adopter of the key, which holds ``version``.
    ///
    /// The adopter's probe always reads: `base` already says whether protected data is readable
    /// (a locked in-memory store or file store throws before the key is read).
    ///
    /// - Parameter base: The store that keeps the state.
    /// - Returns: The adopter.
    /// - Throws: `SimulationError` when the defaults file cannot be opened or written.
    package func adopter(over base: any UpgradeStore) throws -> LegacyVersionAdopter {
        guard let defaults = UserDefaults(suiteName: suitePath) else {
            throw SimulationError("cannot open the legacy key's defaults at \(suitePath).plist")
        }
        if defaults.string(forKey: Self.key) != version.description {
            defaults.set(version.description, forKey: Self.key)
            #if !canImport(Darwin)
                guard defaults.synchronize() else {
                    throw SimulationError("cannot write the legacy key's defaults at \(suitePath).plist")
                }
            #else
                // Apple platforms: a system service writes defaults to disk.
            #endif
        }
        return try LegacyVersionAdopter(base, key: Self.key, suiteName: suitePath, probe: .alwaysReadable)
    }

    /// Whether a launch's report says that it adopted ``version`` from the key: the notice of
    /// `LegacyVersionAdopter.loadForLaunch()` (<doc:/UpgradeCore/MigratingToAppUpgrade>).
    ///
    /// - Parameter report: The launch's report.
    /// - Returns: `true` when one of its notices names the adoption of ``version``.
    package func adopted(in report: UpgradeReport) -> Bool {
        report.notices.contains { $0.contains("adopted version \(version) from the legacy key \"\(Self.key)\"") }
    }
}
