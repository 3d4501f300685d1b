// Real processes: only where a test can start one (`Process` does not exist on iOS, tvOS, watchOS or
// visionOS).
#if os(macOS) || os(Linux)
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

        /// The `notes` binary that `swift build` put beside this test bundle, or `NOTES_BINARY`.
        ///
        /// Found from the image that holds these tests, not from the process that runs them: under
        /// `swift test` on macOS that process is a toolchain helper (`xctest`, or `swiftpm-testing-helper`
        /// for Swift Testing), so `CommandLine.arguments[0]`, `Bundle.main` and `Bundle.allBundles` point
        /// into the toolchain. On Linux the tests are linked into the executable that runs them
        /// (`/proc/self/exe`); on Apple platforms `dladdr` on this image's `#dsohandle` names the binary
        /// inside `NotesAppPackageTests.xctest/Contents/MacOS`. The products are in the folder that holds
        /// the bundle, whatever the configuration or build path; the last resort is `.build/debug`.
        static let binary: URL? = {
            if let path = ProcessInfo.processInfo.environment["NOTES_BINARY"] { return URL(fileURLWithPath: path) }
            var folders: [URL] = []
            var image: String?
            #if os(Linux)
                image = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            #elseif canImport(Darwin)
                var info = Dl_info()
                if dladdr(#dsohandle, &info) != 0, let name = info.dli_fname { image = String(cString: name) }
            #endif
            if let image {
                // The image's folder, and the folder that holds the `.xctest` bundle the image is in, if any.
                var folder = URL(fileURLWithPath: image).standardizedFileURL.deletingLastPathComponent()
                folders.append(folder)
                while folder.pathComponents.count > 1 {
                    if folder.pathExtension == "xctest" {
                        folders.append(folder.deletingLastPathComponent())
                        break
                    }
                    folder = folder.deletingLastPathComponent()
                }
            }
            let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            folders.append(package.appendingPathComponent(".build/debug"))
            return folders.map { $0.appendingPathComponent("notes") }.first {
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0.path, isDirectory: &isFolder) && !isFolder.boolValue
                    && FileManager.default.isExecutableFile(atPath: $0.path)
            }
        }()

        /// How long a test waits at most for a launch to end or to print a line: a guard against a hang,
        /// far longer than a launch takes on a loaded machine. No outcome depends on it.
        static let failureGuard = Duration.seconds(300)

        /// Runs one launch to its end: `notes --data DATA --version VERSION ARGUMENTS...`.
        @discardableResult
        func launch(_ version: String, _ arguments: String..., environment: [String: String] = [:]) async throws
            -> Launch
        {
            let running = try start(version, arguments, environment: environment)
            // Ends the launch if it hangs; otherwise cancelled at once.
            let watchdog = Task { [pid = running.pid, ending = running.ending] in
                guard (try? await Task.sleep(for: Self.failureGuard)) != nil else { return }
                ending.markTimedOut()
                kill(pid, SIGKILL)
            }
            let ended = await running.ending.wait()
            watchdog.cancel()
            if running.ending.timedOut {
                throw Failure(description: "notes \(version) \(arguments) did not finish within \(Self.failureGuard)")
            }
            return running.launch(ended)
        }

        /// Starts a launch, waits until it prints a line that starts with `marker`, then kills it with
        /// SIGKILL, as the system kills an app: no clean-up, no last write. The launch waits to be killed
        /// once it has printed the marker, so the test decides the moment, not a race.
        func launchAndKill(
            _ version: String, _ arguments: String..., environment: [String: String], whenPrinted marker: String
        ) async throws -> Launch {
            let running = try start(version, arguments, environment: environment)
            let clock = ContinuousClock()
            let deadline = clock.now + Self.failureGuard
            // The output file is read again every few milliseconds, with the task suspended in between.
            while !read(running.output).split(separator: "\n").contains(where: { $0.hasPrefix(marker) }) {
                guard !running.ending.hasEnded, clock.now < deadline else {
                    kill(running.pid, SIGKILL)
                    _ = await running.ending.wait()
                    throw Failure(
                        description: "notes \(version) never printed \"\(marker)\":\n\(read(running.output))"
                            + read(running.errors))
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            kill(running.pid, SIGKILL)
            return running.launch(await running.ending.wait())
        }

        /// A launch that was started: its process id, its output files and its ending.
        private struct Running {
            var pid: pid_t
            var output: URL
            var errors: URL
            var ending: Ending

            func launch(_ ended: Ending.Ended) -> Launch {
                Launch(
                    status: ended.status, killed: ended.reason == .uncaughtSignal,
                    output: (try? String(contentsOf: output, encoding: .utf8)) ?? "",
                    errors: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
            }
        }

        /// How a process ended, set by its termination handler and awaited without blocking a thread.
        private final class Ending: @unchecked Sendable {
            typealias Ended = (reason: Process.TerminationReason, status: Int32)
            private let lock = NSLock()  // `NSLock.withLock` needs macOS 14
            private var ended: Ended?
            private var waiters: [CheckedContinuation<Ended, Never>] = []
            private var timedOutFlag = false

            private func locked<Value>(_ body: () -> Value) -> Value {
                lock.lock()
                defer { lock.unlock() }
                return body()
            }

            var hasEnded: Bool { locked { ended != nil } }
            var timedOut: Bool { locked { timedOutFlag } }

            func markTimedOut() { locked { timedOutFlag = true } }

            func finish(reason: Process.TerminationReason, status: Int32) {
                let waiting = locked {
                    ended = (reason, status)
                    defer { waiters.removeAll() }
                    return waiters
                }
                for waiter in waiting { waiter.resume(returning: (reason, status)) }
            }

            func wait() async -> Ended {
                await withCheckedContinuation { continuation in
                    let now = locked {
                        if ended == nil { waiters.append(continuation) }
                        return ended
                    }
                    if let now { continuation.resume(returning: now) }
                }
            }
        }

        private func start(_ version: String, _ arguments: [String], environment: [String: String]) throws -> Running {
            guard let binary = Self.binary else {
                throw Failure(description: "the notes binary was not found beside the tests; run swift build first")
            }
            let logs = root.appendingPathComponent("launch-\(UUID().uuidString)")
            let output = logs.appendingPathExtension("out")
            let errors = logs.appendingPathExtension("err")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            let outputHandle = try FileHandle(forWritingTo: output)
            let errorsHandle = try FileHandle(forWritingTo: errors)
            defer {
                try? outputHandle.close()
                try? errorsHandle.close()
            }
            let ending = Ending()
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--data", data.path, "--version", version] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = outputHandle
            process.standardError = errorsHandle
            process.terminationHandler = { process in
                ending.finish(reason: process.terminationReason, status: process.terminationStatus)
            }
            try process.run()
            return Running(pid: process.processIdentifier, output: output, errors: errors, ending: ending)
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
            try FileManager.default.contentsOfDirectory(atPath: url("notes").path).filter { $0.hasSuffix(".json") }
                .sorted()
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
#endif
