import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

/// The notes app: `notes --data DIR --version V [list | add TEXT]`.
///
/// One binary plays every release of the app: `--version` says which release is running, and the
/// data folder is read and written in that release's format. Each launch first runs the upgrade
/// steps, as a real app does before it touches its data.
enum NotesApp {
    static let usage = """
        usage: notes --data DIR --version V [list | add TEXT]
          --data DIR     the data folder (created if missing)
          --version V    the release that is running, such as 1.0, 1.1, 2.0 or 2.1
          list           print the notes (the default)
          add TEXT       add a note
        """

    enum Command: Equatable {
        case list
        case add(String)
    }

    /// Runs one launch and returns the exit status: 0 done, 1 failed, 2 bad arguments.
    static func main(arguments: [String]) async -> Int32 {
        var data: String?
        var versionText: String?
        var rest: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--data", "--version":
                guard index + 1 < arguments.count else { return usageError("\(argument) needs a value") }
                if argument == "--data" { data = arguments[index + 1] } else { versionText = arguments[index + 1] }
                index += 2
            case "-h", "--help":
                say(usage)
                return 0
            default:
                rest.append(argument)
                index += 1
            }
        }
        guard let data else { return usageError("--data is required") }
        guard let versionText else { return usageError("--version is required") }
        let version: Version
        do {
            version = try Version(parsing: versionText)
        } catch {
            return usageError("--version: \(error)")
        }
        let command: Command
        switch (rest.first, rest.count) {
        case (nil, _), ("list", 1): command = .list
        case ("add", 2): command = .add(rest[1])
        default: return usageError("unexpected arguments: \(rest.joined(separator: " "))")
        }

        let folder = DataFolder(url: URL(fileURLWithPath: data, isDirectory: true))
        do {
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            try await upgrade(folder, to: version)
            try folder.prepare(for: version)
            try run(command, in: folder, at: version)
            return 0
        } catch {
            complain("notes: \(error)")
            return 1
        }
    }

    /// Runs the upgrade steps, saying what happens.
    static func upgrade(_ folder: DataFolder, to version: Version) async throws {
        let upgrader = NotesUpgrades.upgrader(for: folder) { event in
            switch event {
            case .stepWillStart(let context):
                say(
                    "upgrade: step \(context.stepID) (\(context.stepVersion)) started, attempt \(context.attempt)"
                        + (context.previousAttemptInterrupted ? ", the previous attempt was interrupted" : ""))
            case .stepFinished(let context, _):
                say("upgrade: step \(context.stepID) finished")
            case .stepFailed(let context, let error, _, let willRetry):
                say(
                    "upgrade: step \(context.stepID) failed: \(error)"
                        + (willRetry ? "; it is retried at the next launch" : ""))
            case .stepAbandoned(let id, _, let attempts):
                say("upgrade: step \(id) abandoned after \(attempts) failed attempts")
            default:
                break
            }
        }
        let report = try await upgrader.run(currentVersion: version)
        say("upgrade: \(report)")
    }

    /// Runs the command of the launch.
    static func run(_ command: Command, in folder: DataFolder, at version: Version) throws {
        switch command {
        case .add(let text):
            let file = try folder.addNote(text, at: version)
            say("added \(file.lastPathComponent)")
        case .list:
            let settings = try folder.settings(at: version)
            var files = try folder.noteFiles()
            if settings["sortOrder"] as? String == "newestFirst" { files.reverse() }
            let key = DataFolder.noteTextKey(at: version)
            for file in files {
                let note = try DataFolder.readJSONObject(file)
                let text = note[key] as? String ?? "(no \(key) in this note)"
                let date = settings["showDates"] as? Bool == true ? "\(note["created"] as? String ?? "?")  " : ""
                say("\(file.deletingPathExtension().lastPathComponent)  \(date)\(text)")
            }
            say("\(files.count) note\(files.count == 1 ? "" : "s")")
        }
    }

    static func usageError(_ message: String) -> Int32 {
        complain("notes: \(message)\n\(usage)")
        return 2
    }
}

/// Writes a line to standard output at once, unbuffered, so that a test reading the output of a
/// process it kills sees every line written before the kill.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes a line to standard error.
func complain(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
