import Foundation
import UpgradeCore

/// The end of an adoption: after `Upgrader.reset()` the next launch is a fresh install, whatever
/// adopts a legacy version in front of the store.
extension LegacyVersionReader {
    /// The key, in the same defaults as the legacy key, under which a reset records that the
    /// adoption has ended: `AppUpgrade.adoptionReset.KEY`.
    var resetMarkerKey: String { "AppUpgrade.adoptionReset.\(key)" }

    /// Whether a reset ended the adoption: the legacy key is then never read.
    var adoptionEnded: Bool { defaults.defaults.bool(forKey: resetMarkerKey) }

    /// Records that the adoption has ended, before a reset removes the state, so that the launch
    /// after the reset is a fresh install rather than an adoption of the key again.
    ///
    /// It goes first: a reset that fails after it leaves the state the store read before the key,
    /// and one that dies before it leaves everything as it was.
    ///
    /// - Throws: `UpgradeStoreError` with code `writeFailed` naming the defaults and the key when
    ///   they cannot be written to disk.
    func endAdoption() throws(UpgradeStoreError) {
        let defaults = self.defaults.defaults
        defaults.set(true, forKey: resetMarkerKey)
        #if !canImport(Darwin)
            guard defaults.synchronize() else {
                throw UpgradeStoreError(
                    code: .writeFailed, location: "\(label), key \"\(resetMarkerKey)\"",
                    detail: "the end of the legacy version's adoption could not be written to disk; nothing was"
                        + " removed")
            }
        #else
            // A system service writes defaults to disk on Apple platforms.
        #endif
    }
}
