// The samples of the UpgradeCore overview, Modules/UpgradeCore/UpgradeCore.docc/UpgradeCore.md.

// snippet.getting-started
import UpgradeCore
import VersionKit

// `store` is any UpgradeStore, such as a file or UserDefaults store from UpgradeStorage.
func upgrade(store: any UpgradeStore, appVersion: String) async throws {
    var upgrader = try Upgrader(store: store, policy: UpgradePolicy(giveUpAfter: 3)) {
        UpgradeStep("8.8.8") { try removeLegacyCaches() }
        UpgradeStep("9.0", id: "move-settings", summary: "Moves settings to the new format") { context in
            try await migrateSettings(resuming: context.previousAttemptInterrupted)
        }
        try UpgradeStep(named: "appUpgradeTo_9_1") { reindexSearch() }  // returns Bool: false fails
    }
    upgrader.observer = UpgradeEvent.lineObserver { line in print(line) }  // one line per event

    let report = try await upgrader.run(currentVersion: try Version(parsing: appVersion))
    print(report)  // such as "upgraded 8.8 -> 9.1: ran appUpgradeTo_8_8_8, move-settings, ..."
}
// snippet.end

// snippet.hide
func removeLegacyCaches() throws {}
func migrateSettings(resuming: Bool) async throws {}
func reindexSearch() -> Bool { true }

func registerOneByOne(store: any UpgradeStore) {
    // snippet.show
    // snippet.register
    var upgrader = Upgrader(store: store)
    upgrader.register(UpgradeStep("8.8.8") { try removeLegacyCaches() })
    upgrader.register(UpgradeStep("9.0", id: "move-settings") { context in /* ... */ })
    // snippet.hide
    _ = upgrader
}
