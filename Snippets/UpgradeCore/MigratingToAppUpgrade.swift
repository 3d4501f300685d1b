// The samples of Modules/UpgradeCore/UpgradeCore.docc/MigratingToAppUpgrade.md.

// snippet.named-steps
import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

enum AppUpdater {
    static func makeUpgrader() throws -> Upgrader {
        // A folder of the app's own (on macOS, Application Support itself is shared by every app that
        // is not sandboxed).
        let folder = try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true
        ).appending(path: "com.example.app")
        // The key your updateAppVersion wrote to, in UserDefaults.standard: read once, at the first
        // launch with AppUpgrade, as the version the app has upgraded through.
        let store = try LegacyVersionAdopter(
            FileUpgradeStore(url: folder.appending(path: "upgrade-state.json")), key: "localAppVersion")
        return try Upgrader(store: store, policy: UpgradePolicy(giveUpAfter: 3)) {
            // The Objective-C methods can stay where they are, for now: each returns its BOOL, and
            // runs on the main thread, as the old updater called it.
            try UpgradeStep(named: "appUpgradeTo_8_8_8") { @MainActor in
                XXAppUpdater.appUpgradeTo_8_8_8()
            }
            try UpgradeStep(named: "appUpgradeTo_9_0") { @MainActor in
                print("moving settings")
                // Two statements: `return` keeps the BOOL, which Swift would otherwise discard without
                // a warning.
                return XXAppUpdater.appUpgradeTo_9_0()
            }
        }
    }
}

// snippet.hide
let shortVersion = "9.0"
// snippet.show
// At launch, instead of [XXAppUpdater updateToVersion]; shortVersion is CFBundleShortVersionString.
let upgrader = try AppUpdater.makeUpgrader()
let report = try await upgrader.run(currentVersion: Version(parsing: shortVersion))
// snippet.end

// snippet.hide
/// Stands for the app's Objective-C class of `+ (BOOL)appUpgradeTo_X_Y_Z` methods, main-actor code as
/// UIKit-era code is.
// swift-format-ignore: AlwaysUseLowerCamelCase
@MainActor enum XXAppUpdater {
    static func appUpgradeTo_8_8_8() -> Bool { true }
    static func appUpgradeTo_9_0() -> Bool { true }
}

/// Stand for the app's own objects, main-actor classes as UIKit-era objects are.
@MainActor final class DataStore {
    static let shared = DataStore()
    func normalizeData() {}
}

@MainActor final class Newness {
    static let shared = Newness()
    func presentNewness() {}
}

@MainActor final class Metrics {
    static let shared = Metrics()
    func resetStats() {}
}

func defaultsStore() throws -> Upgrader {
    // snippet.show
    // snippet.defaults-store
    // Only for an app that runs the upgrader from foreground launches: before the first unlock, and
    // when its file is damaged, the defaults read as empty, which looks like a fresh install.
    let store = try UserDefaultsUpgradeStore(
        suiteName: "com.example.app.upgrades", legacyVersionKey: "localAppVersion",
        legacyDefaults: .standard)
    // snippet.hide
    return Upgrader(store: store) {}
}

@MainActor func fromMTMigration(applicationSupport: URL, shortVersion: String) async throws {
    // snippet.show
    // snippet.mtmigration
    // At launch, on the main actor. MTMigration wrote to the standard defaults: adopt its
    // version through the policy, empty as none. "1.0": see "Fresh installs" below.
    let last = UserDefaults.standard.string(forKey: "MTMigration.lastMigrationVersion")
    let adopted = try last.flatMap { $0.isEmpty ? nil : try Version(parsing: $0) }
    let upgrader = Upgrader(
        store: FileUpgradeStore(url: applicationSupport.appending(path: "upgrade-state.json")),
        policy: UpgradePolicy(freshInstall: .upgradeFrom(adopted ?? "1.0"))
    ) {
        // A step runs off the main actor and captures nothing that is not Sendable: it reaches
        // the app's main-actor objects through their shared instances, with `await`.
        UpgradeStep("1.1") { await DataStore.shared.normalizeData() }
        UpgradeStep("1.2") { await Newness.shared.presentNewness() }
    }
    let report = try await upgrader.run(currentVersion: Version(parsing: shortVersion))
    // applicationUpdateBlock: the first launch of a new version (an update, a downgrade or a fresh install).
    if report.previousVersion != report.currentVersion { Metrics.shared.resetStats() }
    // snippet.hide
}
