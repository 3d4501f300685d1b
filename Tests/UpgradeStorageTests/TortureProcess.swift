// Real processes: only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #elseif canImport(Musl)
        import Musl
    #endif

    /// The `store-torture` helper (Tests/StoreTorture) run as a real process, with its standard output
    /// read line by line. Its methods block; call them off the concurrency pool (see ``offPool(_:)``).
    final class TortureProcess: @unchecked Sendable {
        /// How a process ended.
        struct Exit: CustomStringConvertible {
            /// The exit status, when it exited.
            var status: Int32?
            /// The signal that ended it, when one did.
            var signal: Int32?
            /// What it printed on standard output.
            var output: String

            var description: String {
                "status \(status.map(String.init) ?? "-") signal \(signal.map(String.init) ?? "-"): \(output)"
            }
        }

        /// The helper's executable, found in the build folder that holds the test bundle.
        static let executable: URL? = {
            var starts = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL]
            starts += Bundle.allBundles.map(\.bundleURL)
            for start in starts {
                var folder = start.standardizedFileURL
                while folder.pathComponents.count > 1 {
                    let candidate = folder.appendingPathComponent("store-torture")
                    var isFolder: ObjCBool = false
                    if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder),
                        !isFolder.boolValue,
                        FileManager.default.isExecutableFile(atPath: candidate.path)
                    {
                        return candidate
                    }
                    folder = folder.deletingLastPathComponent()
                }
            }
            return nil
        }()

        private let process = Process()
        private let output = Pipe()
        private var buffer = Data()
        private var printed = Data()

        /// Starts the helper with `arguments`.
        init(_ arguments: [String]) throws {
            let executable = try #require(
                Self.executable, "store-torture was not found near \(CommandLine.arguments[0])")
            process.executableURL = executable
            process.arguments = arguments
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            try process.run()
        }

        /// The process id.
        var pid: pid_t { process.processIdentifier }

        /// The next line printed, or `nil` once the process has closed its output. Blocks.
        func readLine() -> String? {
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    return line
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { return nil }
                buffer.append(chunk)
                printed.append(chunk)
            }
        }

        /// Sends a signal.
        func send(_ signal: Int32) {
            kill(process.processIdentifier, signal)
        }

        /// Waits for the process to end. Blocks.
        func wait() -> Exit {
            while readLine() != nil {}
            process.waitUntilExit()
            let output = String(decoding: printed, as: UTF8.self)
            switch process.terminationReason {
            case .uncaughtSignal: return Exit(status: nil, signal: process.terminationStatus, output: output)
            default: return Exit(status: process.terminationStatus, signal: nil, output: output)
            }
        }

        /// Runs the helper to its end.
        static func run(_ arguments: [String]) async throws -> Exit {
            try await offPool { try TortureProcess(arguments).wait() }
        }
    }

    /// Runs blocking work on a thread of its own, so that it does not hold one of the few threads of the
    /// concurrency pool that the other tests share.
    func offPool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
        }
    }
#endif
