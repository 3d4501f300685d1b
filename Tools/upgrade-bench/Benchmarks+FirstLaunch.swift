import Foundation
import ProcessSpawning
import UpgradeCore
import UpgradeStorage
import VersionKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The first launch in a fresh process, as an app pays it at every cold start: the store and the
/// upgrader made and the up-to-date launch run once, with every one-time cost of the process (lazy
/// globals, type metadata, the first calls into each library), against the first open + read + close
/// of the same file in a fresh process of its own.
///
/// Each iteration starts the tool again as a child (`upgrade-bench --child first-launch STATEFILE`
/// or `--child first-read STATEFILE`), which times that one operation inside itself and prints the
/// nanoseconds; the process's own start and exit are outside both figures.
enum FirstLaunchBenchmarks {
    /// What a child process measures.
    enum Measure: String, CaseIterable {
        /// `FileUpgradeStore(url:)`, `Upgrader(store:steps:)` and the first `run`, up to date.
        case launch = "first-launch"
        /// The first `run` alone, up to date, with the store and the upgrader made beforehand.
        case run = "first-run"
        /// As `first-launch`, with the app's steps made too (the builder's `UpgradeStep(...)` values),
        /// as an app makes them at every cold start.
        case launchWithSteps = "first-launch-steps"
        /// The first open + read + close of the file.
        case read = "first-read"
    }

    static var all: [Benchmark] {
        [
            Benchmark(
                name: "launch-first-in-process",
                summary:
                    "the first up-to-date launch of a fresh process (its steps, store and upgrader made, then run;"
                    + " the app of launch-up-to-date, warm page cache), against the first open + read + close of the same file"
                    + " in a fresh process; one process a contender a round, each timed inside itself",
                // A figure, not a target: page faults, dynamic loading and the runtime's first use, which
                // differ between machines, dominate it (CONTRIBUTING.md, "Budgets that hold on any machine").
                checks: [Check(subject: 1, reference: 0, target: nil)],
                fixedBatch: 1, minimumRounds: 21,
                makeContenders: {
                    let app = try await FileStoreBenchmarks.App(name: "first-launch", spareLaunches: 0)
                    let report = try await app.upgrader.run(currentVersion: app.current)
                    guard report.outcome == .upToDate else {
                        throw BenchError("the first-launch fixture is not up to date: \(report)")
                    }
                    let executable = try Self.executable()
                    let path = app.documentPath
                    return [
                        Contender.timed(
                            name: "floor: first open + read + close, fresh process", role: .reference
                        ) { iterations in
                            try spawn(.read, executable: executable, path: path, iterations: iterations)
                        },
                        Contender.timed(
                            name: "first launch with its 69 steps made, fresh process", role: .subject
                        ) { iterations in
                            try spawn(.launchWithSteps, executable: executable, path: path, iterations: iterations)
                        },
                        Contender.timed(
                            name: "first launch (store, upgrader, run), fresh process", role: .info
                        ) { iterations in
                            try spawn(.launch, executable: executable, path: path, iterations: iterations)
                        },
                        Contender.timed(name: "first Upgrader.run alone, fresh process", role: .info) { iterations in
                            try spawn(.run, executable: executable, path: path, iterations: iterations)
                        },
                    ]
                })
        ]
    }

    /// This tool's executable, to start again as a child.
    static func executable() throws -> URL {
        if let url = Bundle.main.executableURL { return url }
        guard let first = CommandLine.arguments.first else { throw BenchError("cannot find the tool's executable") }
        return URL(fileURLWithPath: first)
    }

    /// Starts `iterations` children one after the other and returns the sum of their own times.
    static func spawn(_ measure: Measure, executable: URL, path: String, iterations: Int) throws -> Duration {
        var total = Duration.zero
        for _ in 0..<iterations {
            let (ending, output) = try SpawnedProcess.run(
                executable.path, arguments: ["--child", measure.rawValue, path])
            let text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard ending == .exited(0), let nanoseconds = Int64(text) else {
                throw BenchError("the child \(measure.rawValue) \(ending), printing \"\(text)\"")
            }
            total += .nanoseconds(nanoseconds)
        }
        return total
    }

    /// The child: measures one operation in this fresh process and prints its nanoseconds.
    ///
    /// - Parameter arguments: What follows `--child`: a ``Measure`` (`first-launch`, `first-read`, ...),
    ///   then STATEFILE.
    /// - Returns: The exit status.
    static func child(_ arguments: [String]) async -> Int32 {
        guard arguments.count == 2, let measure = Measure(rawValue: arguments[0]) else {
            UpgradeBench.note(
                "error: --child takes first-launch, first-launch-steps, first-run or first-read, then STATEFILE")
            return 2
        }
        let path = arguments[1]
        do {
            let elapsed =
                switch measure {
                case .read: try firstRead(path)
                case .launch: try await firstLaunch(path, timing: .construction)
                case .run: try await firstLaunch(path, timing: .run)
                case .launchWithSteps: try await firstLaunch(path, timing: .steps)
                }
            print(Int64(elapsed.nanoseconds))
            return 0
        } catch {
            UpgradeBench.note("error: --child \(measure.rawValue): \(error)")
            return 1
        }
    }

    /// The first open + read + close of the file, into a buffer allocated and touched beforehand.
    static func firstRead(_ path: String) throws -> Duration {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        let start = Harness.clock.now
        Profiler.timedStart()
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchError("cannot open \(path): errno \(errno)") }
        let count = read(descriptor, buffer.baseAddress, buffer.count)
        close(descriptor)
        Profiler.timedEnd()
        let elapsed = start.duration(to: Harness.clock.now)
        guard count > 0 else { throw BenchError("cannot read \(path): errno \(errno)") }
        Sink.consume(count)
        return elapsed
    }

    /// Where a child's clock starts.
    enum Timing {
        /// Before the steps are made.
        case steps
        /// After the steps are made, before the store and the upgrader.
        case construction
        /// Before the first `run`.
        case run
    }

    /// The first launch: the store and the upgrader made, and the up-to-date launch. The file's URL
    /// is made before the clock starts; the steps too, unless `timing` is `.steps`.
    ///
    /// - Parameter timing: Where the clock starts.
    static func firstLaunch(_ path: String, timing: Timing) async throws -> Duration {
        let url = URL(fileURLWithPath: path)
        var start = Harness.clock.now
        if timing == .steps { Profiler.timedStart() }
        let (steps, versions) = FileStoreBenchmarks.App.layout(spareLaunches: 0)
        let current = versions[FileStoreBenchmarks.App.historyLaunches - 1]
        if timing == .construction {
            start = Harness.clock.now
            Profiler.timedStart()
        }
        let store = FileUpgradeStore(url: url)
        let upgrader = Upgrader(store: store) { steps }
        if timing == .run {
            start = Harness.clock.now
            Profiler.timedStart()
        }
        let report = try await upgrader.run(currentVersion: current)
        Profiler.timedEnd()
        let elapsed = start.duration(to: Harness.clock.now)
        guard report.outcome == .upToDate else { throw BenchError("the first launch was not up to date: \(report)") }
        Sink.consume(report.steps.count)
        return elapsed
    }
}
