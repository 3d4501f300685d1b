// Real processes: only where the package starts one (macOS and Linux; iOS, tvOS, watchOS and visionOS
// have no posix_spawn an app may call).
#if os(macOS) || os(Linux)
    import Foundation

    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// How a child process ended.
    package enum ProcessEnding: Equatable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case killed(Int32)

        /// "exited with status N" or "was killed by signal N".
        package var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .killed(let signal): "was killed by signal \(signal)"
            }
        }
    }

    /// A child that could not be started, or a pipe or file that could not be opened for one.
    package struct SpawnError: Error, CustomStringConvertible {
        /// What failed, and the system's reason.
        package let description: String

        init(_ what: String, code: Int32) {
            description = "\(what): \(String(cString: strerror(code)))"
        }
    }

    /// A child process started with `posix_spawn`, reaped by a thread of its own.
    ///
    /// The child gets the descriptors it is given as its standard input, output and error and no
    /// other: every other descriptor of this process is closed in it (`POSIX_SPAWN_CLOEXEC_DEFAULT` on
    /// Apple platforms, `posix_spawn_file_actions_addclosefrom_np` where the C library has it, else
    /// each descriptor open at the spawn), so that a child never holds a pipe or lock that another
    /// part of this process (a concurrent test, Swift Testing's exit tests) waits to see closed.
    ///
    /// A dedicated thread waits for the child with `waitpid` from the moment it starts, so that it is
    /// reaped as soon as it ends whether or not anyone awaits it, and ``ending()`` suspends the task
    /// without blocking a thread of the concurrency pool.
    package final class SpawnedProcess: Sendable {
        /// The process id.
        package let pid: pid_t
        private let reaper: Reaper

        /// Starts `executable`.
        ///
        /// - Parameters:
        ///   - executable: The program's path (not searched for in `PATH`).
        ///   - arguments: Its arguments, after its name.
        ///   - environment: Its environment; this process's when `nil`.
        ///   - currentDirectory: Its working directory; this process's when `nil`.
        ///   - standardInput: The descriptor it reads as its standard input; `/dev/null` when `nil`.
        ///   - standardOutput: The descriptor its standard output goes to; `/dev/null` when `nil`.
        ///   - standardError: The descriptor its standard error goes to; `/dev/null` when `nil`.
        ///   - onEnd: Called once, on the reaping thread, with how the child ended.
        /// - Throws: ``SpawnError`` when it cannot be started.
        package init(
            _ executable: String, arguments: [String], environment: [String: String]? = nil,
            currentDirectory: String? = nil, standardInput: Int32? = nil, standardOutput: Int32? = nil,
            standardError: Int32? = nil, onEnd: (@Sendable (ProcessEnding) -> Void)? = nil
        ) throws(SpawnError) {
            let nullDevice = try Descriptors.open("/dev/null", O_RDWR)
            defer { close(nullDevice) }
            pid = try Spawn.start(
                executable, arguments: [executable] + arguments,
                environment: environment ?? ProcessInfo.processInfo.environment, currentDirectory: currentDirectory,
                standardStreams: [
                    standardInput ?? nullDevice, standardOutput ?? nullDevice, standardError ?? nullDevice,
                ])
            reaper = Reaper(pid: pid, onEnd: onEnd)
        }

        /// How the child ended, once it has; the task is suspended meanwhile.
        package func ending() async -> ProcessEnding {
            await reaper.ending()
        }

        /// How the child ended, once it has; the calling thread waits (for tools, never on the
        /// concurrency pool).
        package func waitForEnding() -> ProcessEnding {
            reaper.waitForEnding()
        }

        /// Sends `signal` to the child, unless it has already been reaped (its id may then be another
        /// process's).
        package func send(_ signal: Int32) {
            reaper.whileRunning { kill(pid, signal) }
        }

        /// Whether the child has ended and been reaped.
        package var hasEnded: Bool { reaper.hasEnded }

        /// Runs `executable` to its end, reading its standard output on the calling thread (for tools,
        /// never on the concurrency pool); its standard error is this process's.
        ///
        /// - Parameters:
        ///   - executable: The program's path.
        ///   - arguments: Its arguments, after its name.
        ///   - environment: Its environment; this process's when `nil`.
        /// - Returns: How it ended, and what it printed on its standard output.
        /// - Throws: ``SpawnError`` when it cannot be started.
        package static func run(
            _ executable: String, arguments: [String], environment: [String: String]? = nil
        ) throws(SpawnError) -> (ending: ProcessEnding, output: [UInt8]) {
            let output = try Descriptors.pipe()
            let child: SpawnedProcess
            do {
                defer { close(output.write) }
                child = try SpawnedProcess(
                    executable, arguments: arguments, environment: environment, standardOutput: output.write,
                    standardError: STDERR_FILENO)
            } catch {
                close(output.read)
                throw error
            }
            let printed = Descriptors.readToEnd(output.read)
            return (child.waitForEnding(), printed)
        }
    }

    /// Waits for one child on a thread of its own and hands its ending to whoever waits for it.
    private final class Reaper: @unchecked Sendable {
        private let condition = NSCondition()
        private var ended: ProcessEnding?
        private var waiters: [CheckedContinuation<ProcessEnding, Never>] = []

        init(pid: pid_t, onEnd: (@Sendable (ProcessEnding) -> Void)?) {
            let thread = Thread { [self] in
                // Waits without reaping, so that the id stays the child's until `ended` is set under
                // the lock, which ``whileRunning(_:)`` (a signal) takes too.
                var information = siginfo_t()
                while waitid(P_PID, id_t(pid), &information, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
                condition.lock()
                let ending = Self.reap(pid)
                ended = ending
                let waiting = waiters
                waiters.removeAll()
                condition.broadcast()
                condition.unlock()
                onEnd?(ending)
                for waiter in waiting { waiter.resume(returning: ending) }
            }
            thread.name = "reaper \(pid)"
            thread.start()
        }

        var hasEnded: Bool {
            condition.lock()
            defer { condition.unlock() }
            return ended != nil
        }

        func whileRunning(_ body: () -> Void) {
            condition.lock()
            defer { condition.unlock() }
            if ended == nil { body() }
        }

        func ending() async -> ProcessEnding {
            await withCheckedContinuation { continuation in
                condition.lock()
                if let ended {
                    condition.unlock()
                    continuation.resume(returning: ended)
                } else {
                    waiters.append(continuation)
                    condition.unlock()
                }
            }
        }

        func waitForEnding() -> ProcessEnding {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if let ended { return ended }
                condition.wait()
            }
        }

        /// Reaps `pid`, which has ended.
        private static func reap(_ pid: pid_t) -> ProcessEnding {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 {
                // Only EINTR can happen to a child of this process that nothing else reaps.
                if errno != EINTR { return .exited(-1) }
            }
            // The <sys/wait.h> macros, which Swift does not import: the low 7 bits are the signal that
            // ended the child (0 when it exited), bits 8 to 15 its exit status.
            let signal = status & 0x7f
            return signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal)
        }
    }
#else
    // iOS, tvOS, watchOS and visionOS: the package starts no process there.
#endif
