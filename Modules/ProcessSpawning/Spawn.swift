#if os(macOS) || os(Linux)
    import Foundation

    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Descriptors for a child's standard streams, all opened close-on-exec: a child started by anyone
    /// else in this process (Swift Testing's exit tests, Foundation's `Process`) never inherits them.
    package enum Descriptors {
        /// A pipe whose two ends are close-on-exec.
        ///
        /// - Returns: Its read end and its write end.
        /// - Throws: ``SpawnError`` when the system refuses one.
        package static func pipe() throws(SpawnError) -> (read: Int32, write: Int32) {
            var ends: [Int32] = [-1, -1]
            #if !canImport(Darwin)
                // Atomically close-on-exec where the C library has pipe2 (a child spawned meanwhile by
                // another thread cannot catch the ends between the pipe and the fcntl below).
                if let pipe2 = Spawn.pipe2 {
                    guard pipe2(&ends, O_CLOEXEC) == 0 else { throw SpawnError("cannot create a pipe", code: errno) }
                    return (ends[0], ends[1])
                }
            #else
                // Apple platforms have no pipe2; their spawners (this package's, Foundation's, Swift
                // Testing's) all spawn with POSIX_SPAWN_CLOEXEC_DEFAULT.
            #endif
            guard systemPipe(&ends) == 0 else { throw SpawnError("cannot create a pipe", code: errno) }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            return (ends[0], ends[1])
        }

        /// Opens `path`, close-on-exec.
        ///
        /// - Parameters:
        ///   - path: The file.
        ///   - flags: `O_RDONLY`, `O_WRONLY | O_CREAT | O_TRUNC`, ...
        /// - Returns: The descriptor.
        /// - Throws: ``SpawnError`` when it cannot be opened.
        package static func open(_ path: String, _ flags: Int32) throws(SpawnError) -> Int32 {
            var descriptor: Int32 = -1
            repeat {
                descriptor = path.withCString { systemOpen($0, flags | O_CLOEXEC, mode_t(0o644)) }
            } while descriptor == -1 && errno == EINTR
            guard descriptor >= 0 else { throw SpawnError("cannot open \(path)", code: errno) }
            return descriptor
        }

        /// Reads `descriptor` to its end on the calling thread (for tools, never on the concurrency
        /// pool), then closes it.
        ///
        /// - Parameter descriptor: A pipe's read end, or a file.
        /// - Returns: What was read.
        package static func readToEnd(_ descriptor: Int32) -> [UInt8] {
            defer { close(descriptor) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return bytes }
                bytes += chunk[0..<count]
            }
        }

        private static func systemPipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 {
            #if canImport(Darwin)
                Darwin.pipe(ends)
            #elseif canImport(Glibc)
                Glibc.pipe(ends)
            #else
                Musl.pipe(ends)
            #endif
        }

        private static func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
            #if canImport(Darwin)
                Darwin.open(path, flags, mode)
            #elseif canImport(Glibc)
                Glibc.open(path, flags, mode)
            #else
                Musl.open(path, flags, mode)
            #endif
        }
    }

    /// The `posix_spawn` call of ``SpawnedProcess``.
    enum Spawn {
        #if canImport(Darwin)
            typealias FileActions = posix_spawn_file_actions_t?
            typealias Attributes = posix_spawnattr_t?
        #else
            typealias FileActions = posix_spawn_file_actions_t
            typealias Attributes = posix_spawnattr_t
        #endif
        typealias ActionsPointer = UnsafeMutablePointer<FileActions>

        /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), looked up at run time: a
        /// C library without it leaves the child to the close actions of ``start(_:arguments:environment:currentDirectory:standardStreams:)``.
        private static let addCloseFrom: (@convention(c) (ActionsPointer, Int32) -> Int32)? = {
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else {
                return nil
            }
            return unsafeBitCast(symbol, to: (@convention(c) (ActionsPointer, Int32) -> Int32).self)
        }()

        /// `pipe2`, looked up at run time: Swift's Glibc module does not import it (it is declared only
        /// with `_GNU_SOURCE`).
        static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "pipe2") else { return nil }
            return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
        }()

        /// `posix_spawn_file_actions_addchdir_np` (glibc 2.29 and later, macOS 10.15 and later),
        /// looked up at run time for the same reason.
        private static let addChangeDirectory: (@convention(c) (ActionsPointer, UnsafePointer<CChar>) -> Int32)? = {
            guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addchdir_np") else {
                return nil
            }
            return unsafeBitCast(symbol, to: (@convention(c) (ActionsPointer, UnsafePointer<CChar>) -> Int32).self)
        }()

        /// Spawns the child with `standardStreams` as its descriptors 0, 1 and 2 and no other.
        static func start(
            _ executable: String, arguments: [String], environment: [String: String], currentDirectory: String?,
            standardStreams: [Int32]
        ) throws(SpawnError) -> pid_t {
            var actions = FileActions()
            var attributes = Attributes()
            guard posix_spawn_file_actions_init(&actions) == 0, posix_spawnattr_init(&attributes) == 0 else {
                throw SpawnError("cannot start \(executable)", code: errno)
            }
            defer {
                posix_spawn_file_actions_destroy(&actions)
                posix_spawnattr_destroy(&attributes)
            }
            var failure: Int32 = 0
            func check(_ result: Int32) { if failure == 0 && result != 0 { failure = result } }

            for (target, source) in standardStreams.enumerated() {
                check(posix_spawn_file_actions_adddup2(&actions, source, Int32(target)))
            }
            // The child starts with no signal blocked and every signal at its default action, whatever
            // the spawning thread (a dispatch or pool thread) blocks or this process handles.
            var signals = sigset_t()
            sigemptyset(&signals)
            check(posix_spawnattr_setsigmask(&attributes, &signals))
            sigfillset(&signals)
            check(posix_spawnattr_setsigdefault(&attributes, &signals))
            var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
            #if canImport(Darwin)
                flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
            #else
                if let addCloseFrom {
                    check(addCloseFrom(&actions, 3))
                } else {
                    for descriptor in openDescriptors() where descriptor > 2 {
                        check(posix_spawn_file_actions_addclose(&actions, descriptor))
                    }
                }
            #endif
            check(posix_spawnattr_setflags(&attributes, Int16(flags)))
            if let currentDirectory {
                guard let addChangeDirectory else {
                    throw SpawnError("cannot start \(executable) in \(currentDirectory)", code: ENOSYS)
                }
                check(currentDirectory.withCString { addChangeDirectory(&actions, $0) })
            }
            guard failure == 0 else { throw SpawnError("cannot start \(executable)", code: failure) }

            let argv = arguments.map { strdup($0) }
            let envp = environment.map { strdup("\($0.key)=\($0.value)") }
            defer { for string in argv + envp { free(string) } }
            var pid: pid_t = 0
            let result = executable.withCString { path in
                posix_spawn(&pid, path, &actions, &attributes, argv + [nil], envp + [nil])
            }
            guard result == 0 else {
                let place = currentDirectory.map { " in \($0)" } ?? ""
                throw SpawnError("cannot start \(executable)\(place)", code: result)
            }
            return pid
        }

        /// The descriptors open in this process, for a C library without `addclosefrom`.
        private static func openDescriptors() -> [Int32] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return names.compactMap { Int32($0) }
        }
    }
#else
    // iOS, tvOS, watchOS and visionOS: the package starts no process there.
#endif
