// Real processes: only where a test can start one (no process can be started on iOS, tvOS, watchOS
// or visionOS, whose test builds leave this file out).
#if os(macOS) || os(Linux)
    import Foundation
    import ProcessSpawning

    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// A helper executable run by a test as a real process, awaited without blocking a thread of the
    /// concurrency pool.
    ///
    /// Its standard output and error are read by two threads of their own; its end is reported by the
    /// thread that reaps it (`SpawnedProcess`). A test waits for a positive signal (``nextLine()``,
    /// ``exit()``); ``failureGuard`` only ends a wait for something that never comes, with an error that says what the test was waiting for and what the child printed.
    /// A child still running when this object goes away is killed, so that a failed test leaves no
    /// process behind.
    public final class ChildProcess: Sendable {
        /// How a child ended.
        public struct Exit: Sendable, CustomStringConvertible {
            /// The exit status, when it exited.
            public var status: Int32?
            /// The signal that ended it, when one did.
            public var signal: Int32?
            /// What it printed on standard output.
            public var output: String
            /// What it printed on standard error.
            public var errors: String

            /// How it ended, then what it printed.
            public var description: String {
                "status \(status.map(String.init) ?? "-") signal \(signal.map(String.init) ?? "-"): \(output)\(errors)"
            }
        }

        /// A wait that ended without what it waited for.
        public struct Failure: Error, CustomStringConvertible {
            /// What went wrong, what the test waited for and what the child printed.
            public let description: String
        }

        /// How long a wait lasts at most: a guard against a child that hangs, far longer than anything
        /// a test waits for takes on a loaded machine. No outcome depends on it.
        public static let failureGuard = Duration.seconds(300)

        /// The process id.
        public let pid: pid_t
        private let name: String
        private let process: SpawnedProcess
        private let input: Int32
        private let state = State()

        /// Starts `executable` with `arguments`; its standard input is a pipe that ``closeInput()`` closes.
        ///
        /// The child is spawned through `SpawnedProcess`: it inherits its three pipes and nothing else
        /// of this process, and every descriptor made here is close-on-exec, so that no other child
        /// (another test's, or an exit test's) holds one of these pipes open.
        ///
        /// - Parameters:
        ///   - executable: The program.
        ///   - arguments: Its arguments.
        ///   - environment: Its environment; this process's when `nil`.
        /// - Throws: When it cannot be started.
        public init(_ executable: URL, arguments: [String], environment: [String: String]? = nil) throws {
            name = ([executable.lastPathComponent] + arguments).joined(separator: " ")
            var made: [Int32] = []
            func pipe() throws -> (read: Int32, write: Int32) {
                do {
                    let ends = try Descriptors.pipe()
                    made += [ends.read, ends.write]
                    return ends
                } catch {
                    for descriptor in made { close(descriptor) }
                    throw error
                }
            }
            let input = try pipe()
            let output = try pipe()
            let errors = try pipe()
            // The child's ends are its own once it has started: this process keeps only the others.
            defer {
                close(input.read)
                close(output.write)
                close(errors.write)
            }
            do {
                process = try SpawnedProcess(
                    executable.path, arguments: arguments, environment: environment, standardInput: input.read,
                    standardOutput: output.write, standardError: errors.write
                ) { [state] ending in state.ended(ending) }
            } catch {
                for descriptor in [input.write, output.read, errors.read] { close(descriptor) }
                throw error
            }
            pid = process.pid
            self.input = input.write
            for (descriptor, isOutput) in [(output.read, true), (errors.read, false)] {
                // `read` returns what has arrived; each stream has a thread of its own, off the pool.
                Thread { [state] in
                    var chunk = [UInt8](repeating: 0, count: 65_536)
                    while true {
                        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                        if count < 0 && errno == EINTR { continue }
                        if count <= 0 { break }
                        state.append(Data(chunk[0..<count]), isOutput: isOutput)
                    }
                    close(descriptor)
                    state.closed(isOutput: isOutput)
                }.start()
            }
        }

        deinit {
            process.send(SIGKILL)
            closeInput()
        }

        /// Sends a signal, unless the child has already ended.
        public func send(_ signal: Int32) {
            process.send(signal)
        }

        /// Closes the child's standard input: it reads the end of it. Closing it again does nothing.
        public func closeInput() {
            state.closeInputOnce { close(input) }
        }

        /// The next line the child prints, or `nil` once it has closed its standard output.
        ///
        /// - Throws: ``Failure`` after ``failureGuard``.
        public func nextLine() async throws -> String? {
            try await wait(for: "a line") { buffer in
                if let line = buffer.takeLine() { return .some(line) }
                return buffer.outputClosed ? .some(nil) : nil
            }
        }

        /// Waits for the child to end and to close its output.
        ///
        /// - Returns: How it ended, and what it printed.
        /// - Throws: ``Failure`` after ``failureGuard``.
        public func exit() async throws -> Exit {
            try await wait(for: "its end") { buffer in
                guard let ending = buffer.ending, buffer.outputClosed, buffer.errorsClosed else { return nil }
                let output = String(decoding: buffer.output, as: UTF8.self)
                let errors = String(decoding: buffer.errors, as: UTF8.self)
                switch ending {
                case .exited(let status): return Exit(status: status, signal: nil, output: output, errors: errors)
                case .killed(let signal): return Exit(status: nil, signal: signal, output: output, errors: errors)
                }
            }
        }

        /// Runs `executable` to its end.
        ///
        /// - Returns: How it ended, and what it printed.
        /// - Throws: When it cannot be started; ``Failure`` after ``failureGuard``.
        public static func run(_ executable: URL, arguments: [String]) async throws -> Exit {
            try await ChildProcess(executable, arguments: arguments).exit()
        }

        /// Waits until `check` finds what it looks for in the child's output and ending, checking again
        /// at each change; throws after ``failureGuard``.
        private func wait<Value>(
            for what: String, _ check: @escaping (inout Buffer) -> Value?
        ) async throws -> Value {
            let clock = ContinuousClock()
            let deadline = clock.now + Self.failureGuard
            // Wakes the wait below when the guard expires.
            let alarm = Task { [state] in
                try? await Task.sleep(until: deadline, clock: clock)
                state.changed()
            }
            defer { alarm.cancel() }
            while true {
                let (value, generation) = state.withBuffer { buffer in (check(&buffer), buffer.generation) }
                if let value { return value }
                if clock.now >= deadline {
                    throw Failure(
                        description:
                            "waited \(Self.failureGuard) for \(what) from `\(name)`; it printed: \(state.printed)"
                    )
                }
                await state.change(after: generation)
            }
        }

        /// What the readers, the termination handler and the waits share.
        struct Buffer: Sendable {
            var output = Data()
            var errors = Data()
            var unread = Data()
            var outputClosed = false
            var errorsClosed = false
            var ending: ProcessEnding?
            var inputClosed = false
            /// Counts the changes, so that a wait can tell whether one came since it looked.
            var generation = 0

            mutating func takeLine() -> String? {
                guard let newline = unread.firstIndex(of: UInt8(ascii: "\n")) else {
                    guard outputClosed, !unread.isEmpty else { return nil }
                    defer { unread.removeAll() }
                    return String(decoding: unread, as: UTF8.self)
                }
                let line = String(decoding: unread[unread.startIndex..<newline], as: UTF8.self)
                unread.removeSubrange(unread.startIndex...newline)
                return line
            }
        }

        final class State: Sendable {
            private struct Shared {
                var buffer = Buffer()
                var waiters: [CheckedContinuation<Void, Never>] = []
            }

            private let shared = Locked(Shared())

            func withBuffer<Value>(_ body: (inout Buffer) -> Value) -> Value {
                shared.withLock { body(&$0.buffer) }
            }

            var hasEnded: Bool { withBuffer { $0.ending != nil } }

            var printed: String {
                withBuffer { String(decoding: $0.output + $0.errors, as: UTF8.self) }
            }

            func append(_ chunk: Data, isOutput: Bool) {
                update {
                    if isOutput {
                        $0.output.append(chunk)
                        $0.unread.append(chunk)
                    } else {
                        $0.errors.append(chunk)
                    }
                }
            }

            func closed(isOutput: Bool) {
                update { if isOutput { $0.outputClosed = true } else { $0.errorsClosed = true } }
            }

            func ended(_ ending: ProcessEnding) {
                update { $0.ending = ending }
            }

            /// Runs `body` the first time only.
            func closeInputOnce(_ body: () -> Void) {
                let first = withBuffer { buffer in
                    defer { buffer.inputClosed = true }
                    return !buffer.inputClosed
                }
                if first { body() }
            }

            func changed() { update { _ in } }

            /// Returns once the buffer has changed after `generation`.
            func change(after generation: Int) async {
                await withCheckedContinuation { continuation in
                    let changed = shared.withLock { shared in
                        if shared.buffer.generation != generation { return true }
                        shared.waiters.append(continuation)
                        return false
                    }
                    if changed { continuation.resume() }
                }
            }

            private func update(_ body: (inout Buffer) -> Void) {
                let waiting = shared.withLock { shared in
                    body(&shared.buffer)
                    shared.buffer.generation += 1
                    defer { shared.waiters = [] }
                    return shared.waiters
                }
                for waiter in waiting { waiter.resume() }
            }
        }
    }
#endif
