import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `notes` binary in a data folder of its own, as a user would, and reads the folder.
struct NotesProcess {
    /// What one launch printed, and how it ended.
    struct Launch {
        var status: Int32
        var killed: Bool
        var output: String
        var errors: String

        var lines: [String] { output.split(separator: "\n").map(String.init) }

        /// The ids of the steps the launch started, in order.
        var startedSteps: [String] {
            lines.compactMap { line in
                guard line.hasPrefix("upgrade: step "), line.contains(") started, attempt ") else { return nil }
                return String(line.dropFirst("upgrade: step ".count).prefix { $0 != " " })
            }
        }

        /// The note files whose key the launch renamed, in order.
        var renamedNotes: [String] {
            lines.compactMap { line in
                line.hasPrefix("renamed text to body in ")
                    ? String(line.dropFirst("renamed text to body in ".count)) : nil
            }
        }

        /// The one-line report of the upgrader, such as `upgraded 1.0 -> 2.1: ran ...`.
        var report: String? {
            lines.last { $0.hasPrefix("upgrade: ") && !$0.hasPrefix("upgrade: step ") }.map {
                String($0.dropFirst("upgrade: ".count))
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A new temporary folder that holds the data folder and the launches' output.
    let root: URL
    /// The data folder.
    var data: URL { root.appendingPathComponent("data", isDirectory: true) }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notes-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// Removes the data folder and the output of the launches.
    func removeFolder() {
        try? FileManager.default.removeItem(at: root)
    }

    /// The `notes` binary that `swift build` put beside this test bundle (or `NOTES_BINARY`).
    static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["NOTES_BINARY"] { return URL(fileURLWithPath: path) }
        var folders: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        return folders.map { $0.appendingPathComponent("notes") }.first {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }
    }()

    /// Runs one launch to its end: `notes --data DATA --version VERSION ARGUMENTS...`.
    @discardableResult
    func launch(_ version: String, _ arguments: String..., environment: [String: String] = [:]) throws -> Launch {
        let (process, output, errors) = try start(version, arguments, environment: environment)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "notes \(version) \(arguments) did not finish within 60 s")
        }
        process.waitUntilExit()
        return Launch(
            status: process.terminationStatus, killed: process.terminationReason == .uncaughtSignal,
            output: read(output), errors: read(errors))
    }

    /// Starts a launch, waits until it prints a line that starts with `marker`, then kills it with
    /// SIGKILL, as the system kills an app: no clean-up, no last write.
    func launchAndKill(
        _ version: String, _ arguments: String..., environment: [String: String], whenPrinted marker: String
    ) throws -> Launch {
        let (process, output, errors) = try start(version, arguments, environment: environment)
        let deadline = Date().addingTimeInterval(60)
        while !read(output).split(separator: "\n").contains(where: { $0.hasPrefix(marker) }) {
            guard process.isRunning, Date() < deadline else {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
                throw Failure(
                    description: "notes \(version) never printed \"\(marker)\":\n\(read(output))\(read(errors))")
            }
            usleep(5_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return Launch(
            status: process.terminationStatus, killed: process.terminationReason == .uncaughtSignal,
            output: read(output), errors: read(errors))
    }

    private func start(
        _ version: String, _ arguments: [String], environment: [String: String]
    ) throws -> (Process, URL, URL) {
        guard let binary = Self.binary else {
            throw Failure(description: "the notes binary was not found beside the tests; run swift build first")
        }
        let logs = root.appendingPathComponent("launch-\(UUID().uuidString)")
        let output = logs.appendingPathExtension("out")
        let errors = logs.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--data", data.path, "--version", version] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        return (process, output, errors)
    }

    private func read(_ file: URL) -> String {
        (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    // MARK: The data folder

    func url(_ path: String) -> URL { data.appendingPathComponent(path) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: url(path).path) }

    func json(_ path: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url(path)))
        guard let dictionary = object as? [String: Any] else {
            throw Failure(description: "\(path) does not hold a JSON object")
        }
        return dictionary
    }

    /// The note files, by name.
    func noteNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url("notes").path).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// Every note as its parsed JSON object, by file name; throws if any note is not valid JSON.
    func notes() throws -> [String: [String: Any]] {
        var notes: [String: [String: Any]] = [:]
        for name in try noteNames() { notes[name] = try json("notes/\(name)") }
        return notes
    }

    /// The contents of every file in the folder, by path, to tell whether a launch changed anything.
    func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: data, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = enumerator?.nextObject() as? URL {
            guard try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[String(file.path.dropFirst(data.path.count))] = try Data(contentsOf: file)
        }
        return files
    }
}
