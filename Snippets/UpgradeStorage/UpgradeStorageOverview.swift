// The sample of the UpgradeStorage overview, Modules/UpgradeStorage/UpgradeStorage.docc/UpgradeStorage.md.

// snippet.file-store
import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

let folder = try FileManager.default.url(
    for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
let store = FileUpgradeStore(url: folder.appending(path: "AppUpgrade/upgrade-state.json"))
let upgrader = Upgrader(store: store) {
    UpgradeStep("8.8.8") { try removeLegacyCaches() }
}
let appVersion = try Version(parsing: "8.9")  // in an app, its CFBundleShortVersionString
let report = try await upgrader.run(currentVersion: appVersion)
// snippet.end

// snippet.hide
func removeLegacyCaches() throws {}
