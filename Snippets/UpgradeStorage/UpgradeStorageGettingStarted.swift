// The samples of Modules/UpgradeStorage/UpgradeStorage.docc/GettingStarted.md (the test is in
// UpgradeStorageTesting.swift).

// snippet.file-store
import Foundation
import UpgradeCore
import UpgradeStorage

let folder = try FileManager.default.url(
    for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
let store = FileUpgradeStore(url: folder.appending(path: "upgrade-state.json"))
// snippet.end

// snippet.hide
func adopter() throws {
    // snippet.show
    // snippet.legacy-adopter
    let store = try LegacyVersionAdopter(
        FileUpgradeStore(url: folder.appending(path: "upgrade-state.json")), key: "localAppVersion")
    // snippet.hide
    _ = store
}

func defaults() throws {
    // snippet.show
    // snippet.defaults-store
    let store = try UserDefaultsUpgradeStore(
        suiteName: "com.example.app.upgrades", legacyVersionKey: "localAppVersion", legacyDefaults: .standard)
    // snippet.hide
    _ = store
}
