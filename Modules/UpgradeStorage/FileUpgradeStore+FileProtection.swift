import Foundation
import UpgradeCore

// Data protection of the store's files, following Apple's "Encrypting Your App's Files" and
// `FileProtectionType.completeUntilFirstUserAuthentication`: a file of that class can be read from
// the first unlock after a reboot on, also while the device is locked again, so that a launch in the
// background (a push, a background fetch) reads the state; before the first unlock, reading fails
// and the store reports the file as unreadable, never as missing.

extension FileUpgradeStore {
    /// Gives a new file or folder the data protection class `completeUntilFirstUserAuthentication`
    /// on the platforms that have data protection, so that it can be read in the background after
    /// the first unlock. Nothing to do elsewhere.
    func setDataProtection(_ target: String) throws(UpgradeStoreError) {
        #if (os(iOS) && !targetEnvironment(macCatalyst)) || os(tvOS) || os(watchOS) || os(visionOS)
            do {
                try FileManager.default.setAttributes(
                    [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: target)
            } catch {
                throw UpgradeStoreError(
                    code: .writeFailed, location: path,
                    detail: "could not give \(target) the data protection class"
                        + " completeUntilFirstUserAuthentication: \(error)", underlying: error)
            }
        #else
            // macOS (Mac Catalyst included) and Linux: no data protection classes to set; the files
            // are owner-only (0600, folders 0700) as everywhere.
        #endif
    }
}
