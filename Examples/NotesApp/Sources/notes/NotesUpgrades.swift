import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

/// The notes app's upgrade steps: one for each of three releases, each doing real work on the data
/// folder, each safe to run again after an interrupted attempt.
enum NotesUpgrades {
    /// The environment variable that makes the 2.1 step stop after renaming that many notes and wait
    /// to be killed. For the end-to-end test only: it lets the test kill the app in the middle of a step.
    static let testPauseVariable = "NOTES_TEST_PAUSE_AFTER_RENAMING"

    /// The upgrader of the app, keeping its state in the data folder.
    static func upgrader(for folder: DataFolder, observer: UpgradeObserver? = nil) -> Upgrader {
        var upgrader = Upgrader(
            store: FileUpgradeStore(url: folder.upgradeState),
            policy: UpgradePolicy(freshInstall: .skip, downgrade: .keep, giveUpAfter: 3)
        ) {
            UpgradeStep("1.1", summary: "delete the thumbnail cache that 1.0 kept") {
                try deleteObsoleteCache(in: folder)
            }
            UpgradeStep("2.0", id: "settings-to-json", summary: "move the settings from a property list to JSON") {
                try moveSettingsToJSON(in: folder)
            }
            UpgradeStep("2.1", id: "rename-note-text-key", summary: "rename the text key of every note to body") {
                context in
                try renameNoteTextKey(in: folder, context: context)
            }
        }
        upgrader.observer = observer
        return upgrader
    }

    /// 1.1: the thumbnail cache is gone from the app; delete its folder.
    static func deleteObsoleteCache(in folder: DataFolder) throws {
        let files = FileManager.default
        guard files.fileExists(atPath: folder.obsoleteCache.path) else { return }  // already deleted
        try files.removeItem(at: folder.obsoleteCache)
    }

    /// 2.0: the settings move from `settings.plist` to `settings.json`.
    ///
    /// The property list stays the source until it is removed, so a retry after a crash between
    /// writing the JSON and removing the property list writes the same JSON again.
    static func moveSettingsToJSON(in folder: DataFolder) throws {
        let files = FileManager.default
        guard files.fileExists(atPath: folder.settingsPropertyList.path) else { return }  // already moved
        let data = try Data(contentsOf: folder.settingsPropertyList)
        var format = PropertyListSerialization.PropertyListFormat.xml
        guard
            let settings = try PropertyListSerialization.propertyList(from: data, format: &format)
                as? [String: Any]
        else {
            throw NotesError("\(folder.settingsPropertyList.path) does not hold a dictionary")
        }
        try DataFolder.writeJSON(settings, to: folder.settingsJSON)
        try files.removeItem(at: folder.settingsPropertyList)
    }

    /// 2.1: in every note, the key `text` becomes `body`.
    ///
    /// Each note is rewritten atomically, and a note that already has `body` was renamed by an
    /// earlier, interrupted attempt and is left alone: no note is damaged or renamed twice.
    static func renameNoteTextKey(in folder: DataFolder, context: UpgradeContext) throws {
        if context.previousAttemptInterrupted {
            say("step rename-note-text-key: resuming after an interrupted attempt")
        }
        let pauseAfter = ProcessInfo.processInfo.environment[testPauseVariable].flatMap { Int($0) }
        var renamed = 0
        for file in try folder.noteFiles() {
            var note = try DataFolder.readJSONObject(file)
            guard let text = note.removeValue(forKey: "text") else { continue }
            if note["body"] != nil {
                throw NotesError("\(file.path) has both text and body; leaving it for a person to look at")
            }
            note["body"] = text
            try DataFolder.writeJSON(note, to: file)
            say("renamed text to body in \(file.lastPathComponent)")
            renamed += 1
            if renamed == pauseAfter {
                say("test pause: renamed \(renamed) notes; waiting to be killed")
                while true { sleep(60) }
            }
        }
    }
}
