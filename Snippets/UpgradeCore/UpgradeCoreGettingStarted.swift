// The samples of Modules/UpgradeCore/UpgradeCore.docc/GettingStarted.md, on the steps of the example
// app, Examples/NotesApp.

// snippet.run-at-launch
import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

do {
    let folder = try FileManager.default.url(
        for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
    var upgrader = Upgrader.forMyApp(store: FileUpgradeStore(url: folder.appending(path: "upgrade-state.json")))
    upgrader.observer = UpgradeEvent.lineObserver { line in print("upgrade: \(line)") }
    let shortVersion = Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String
    let report = try await upgrader.run(currentVersion: try Version(parsing: shortVersion ?? ""))
    print(report)  // upgraded 1.0 -> 2.1: ran appUpgradeTo_1_1, settings-to-json, rename-note-text-key
} catch {
    print("upgrade steps did not run: \(error)")  // such as a malformed version, or a store error
}
// snippet.end

// snippet.declare-steps
extension Upgrader {
    static func forMyApp(store: any UpgradeStore) -> Upgrader {
        Upgrader(store: store, policy: UpgradePolicy(giveUpAfter: 3)) {
            UpgradeStep("1.1", summary: "delete the thumbnail cache that 1.0 kept") {
                try deleteObsoleteCache()
            }
            UpgradeStep("2.0", id: "settings-to-json", summary: "move the settings from a property list to JSON") {
                try moveSettingsToJSON()
            }
            UpgradeStep("2.1", id: "rename-note-text-key", summary: "rename the text key of every note to body") {
                context in
                try renameNoteTextKey(resuming: context.previousAttemptInterrupted)
            }
        }
    }
}
// snippet.end

// snippet.hide
func deleteObsoleteCache() throws {}
func moveSettingsToJSON() throws {}
func renameNoteTextKey(resuming: Bool) throws {}
func noteFiles() throws -> [URL] { [] }
func readNote(_ note: URL) throws -> [String: String] { [:] }
func writeNoteAtomically(_ fields: [String: String], to note: URL) throws {}

func idempotent(store: any UpgradeStore) -> Upgrader {
    Upgrader(store: store) {
        // snippet.show
        // snippet.idempotent-step
        UpgradeStep("2.1", id: "rename-note-text-key") { context in
            for note in try noteFiles() {
                var fields = try readNote(note)
                // Already renamed by an attempt that was interrupted: leave it alone.
                guard let text = fields.removeValue(forKey: "text") else { continue }
                fields["body"] = text
                try writeNoteAtomically(fields, to: note)
            }
        }
        // snippet.hide
    }
}

func look(upgrader: Upgrader) throws {
    // snippet.show
    // snippet.plan
    print(try upgrader.plan(currentVersion: "2.1"))
    // launch at 2.1: upgraded (upgraded through 1.0)
    //   appUpgradeTo_1_1 (1.1): will run, attempt 1
    //   settings-to-json (2.0): will run, attempt 1
    //   rename-note-text-key (2.1): will run, attempt 1
    // snippet.hide
}

func lookBack(upgrader: Upgrader) throws {
    // snippet.show
    // snippet.history
    for record in try upgrader.history().suffix(3) {  // oldest first
        print(record)
    }
    // 2026-11-20T08:02:11Z (fresh install) -> 1.0 freshInstall
    // 2026-12-01T09:30:00Z 1.0 -> 2.1 failed: appUpgradeTo_1_1 (attempt 1, completed, 3.2 ms),
    //   settings-to-json (attempt 1, failed, 12 ms)
    // 2026-12-02T07:45:20Z 2.1 -> 2.1 upgraded: settings-to-json (attempt 2, completed, 9.5 ms),
    //   rename-note-text-key (attempt 1, completed, 41 ms)
    // snippet.hide
}
