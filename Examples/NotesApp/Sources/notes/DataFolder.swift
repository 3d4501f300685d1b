import Foundation
import VersionKit

/// The notes app's data folder, and how each release lays it out.
///
/// ```
/// DIR/
///   upgrade-state.json   the upgrader's state (FileUpgradeStore)
///   notes/note-0001.json one JSON object a note: {"created": ..., "text": ...} until 2.1, "body" from 2.1
///   settings.plist       the settings until 2.0, a property list
///   settings.json        the settings from 2.0
///   Cache/thumbnails/    a cache that 1.0 keeps and 1.1 no longer uses
/// ```
struct DataFolder: Sendable {
    let url: URL

    var upgradeState: URL { url.appendingPathComponent("upgrade-state.json") }
    var notes: URL { url.appendingPathComponent("notes", isDirectory: true) }
    var settingsPropertyList: URL { url.appendingPathComponent("settings.plist") }
    var settingsJSON: URL { url.appendingPathComponent("settings.json") }
    var obsoleteCache: URL { url.appendingPathComponent("Cache", isDirectory: true) }

    /// The key that holds a note's text in the given release: `text` before 2.1, `body` from 2.1.
    static func noteTextKey(at version: Version) -> String { version < "2.1" ? "text" : "body" }

    /// The settings a new user starts with.
    static var defaultSettings: [String: Any] { ["sortOrder": "oldestFirst", "showDates": true, "fontSize": 14] }

    /// The note files, in name order (which is creation order).
    func noteFiles() throws -> [URL] {
        guard FileManager.default.fileExists(atPath: notes.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: notes, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Creates what the given release expects to find and that is not there yet.
    func prepare(for version: Version) throws {
        let files = FileManager.default
        try files.createDirectory(at: notes, withIntermediateDirectories: true)
        if version < "1.1" {
            // 1.0 keeps rendered thumbnails in a cache that later releases no longer use.
            let thumbnails = obsoleteCache.appendingPathComponent("thumbnails", isDirectory: true)
            try files.createDirectory(at: thumbnails, withIntermediateDirectories: true)
            try Data("cached".utf8).write(to: thumbnails.appendingPathComponent("note-0001.png"), options: .atomic)
        }
        let hasSettings =
            files.fileExists(atPath: settingsJSON.path) || files.fileExists(atPath: settingsPropertyList.path)
        if !hasSettings {
            if version < "2.0" {
                let data = try PropertyListSerialization.data(
                    fromPropertyList: Self.defaultSettings, format: .xml, options: 0)
                try data.write(to: settingsPropertyList, options: .atomic)
            } else {
                try Self.writeJSON(Self.defaultSettings, to: settingsJSON)
            }
        }
    }

    /// Reads the settings, from the property list before 2.0 and from the JSON file after.
    func settings(at version: Version) throws -> [String: Any] {
        if version < "2.0" {
            let data = try Data(contentsOf: settingsPropertyList)
            return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
        }
        return try Self.readJSONObject(settingsJSON)
    }

    /// Adds a note in the format of the given release; returns its file.
    func addNote(_ text: String, at version: Version, now: Date = Date()) throws -> URL {
        let next =
            (try noteFiles().compactMap { Int($0.deletingPathExtension().lastPathComponent.dropFirst(5)) }.max() ?? 0)
            + 1
        let file = notes.appendingPathComponent("note-\(String(format: "%04d", next)).json")
        let note: [String: Any] = [
            "created": ISO8601DateFormatter().string(from: now), Self.noteTextKey(at: version): text,
        ]
        try Self.writeJSON(note, to: file)
        return file
    }

    /// Reads a JSON object from a file.
    static func readJSONObject(_ file: URL) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        guard let dictionary = object as? [String: Any] else {
            throw NotesError("\(file.path) does not hold a JSON object")
        }
        return dictionary
    }

    /// Writes a JSON object to a file atomically: a reader sees the old file or the new one, never half of one.
    static func writeJSON(_ object: [String: Any], to file: URL) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: file, options: .atomic)
    }
}

/// An error of the notes app, with a message for the person at the terminal.
struct NotesError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
