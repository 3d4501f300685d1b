// The Swift samples of README.md; Scripts/check-snippets.py checks that the README shows them exactly.

// snippet.quick-start
import Foundation
import UpgradeCore
import UpgradeStorage

let folder = try FileManager.default.url(
    for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
let store = FileUpgradeStore(url: folder.appending(path: "AppUpgrade/upgrade-state.json"))
let policy = UpgradePolicy(freshInstall: .skip, downgrade: .keep, giveUpAfter: 3)
var upgrader = try Upgrader(store: store, policy: policy) {
    UpgradeStep("8.8.8") { try removeLegacyCaches() }
    UpgradeStep("9.0", id: "move-settings") { context in
        try await migrateSettings(resuming: context.previousAttemptInterrupted)
    }
    // Declared by its old method name, which can be malformed: hence `try`.
    try UpgradeStep(named: "appUpgradeTo_9_0_1") { reindexSearch() }  // returns Bool: false is a failure
}
upgrader.observer = UpgradeEvent.lineObserver { print($0) }  // each event as one line (or to an os.Logger)
let report = try await upgrader.run(currentVersion: "9.0.1")
// From 8.8.0: "upgraded 8.8.0 -> 9.0.1: ran appUpgradeTo_8_8_8, move-settings, appUpgradeTo_9_0_1";
// the first run, a new install: "freshInstall (fresh) -> 9.0.1" (the skip policy runs nothing).
print(report)
// snippet.end

// snippet.hide
func removeLegacyCaches() throws {}
func migrateSettings(resuming: Bool) async throws {}
func reindexSearch() -> Bool { true }
