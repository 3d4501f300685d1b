import Foundation
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

/// Benchmarks 4 and 5: whole launches through `FileUpgradeStore`, against plain file I/O.
enum FileStoreBenchmarks {
    /// The app of the file benchmarks: 200 registered steps, one launch a version, and a state file
    /// (with the history file beside it) that the engine itself filled with a full history of
    /// `LaunchRecord.historyLimit` launches.
    final class App: @unchecked Sendable {
        let folder: URL
        let documentPath: String
        let store: FileUpgradeStore
        let upgrader: Upgrader
        /// The version of the most recent launch; the next launch with a pending step is `next()`.
        private var launched: Int
        private let stepVersions: [Version]

        /// Builds the app and replays its history: a fresh install, then one upgrade a version, each
        /// running one or two steps, until the history is full.
        ///
        /// - Parameter spareLaunches: How many more one-step upgrades the benchmark may launch.
        init(name: String, spareLaunches: Int) async throws {
            folder = try TemporaryFolders.make(name)
            documentPath = folder.appendingPathComponent("upgrade-state.json").path
            store = FileUpgradeStore(url: URL(fileURLWithPath: documentPath))
            let (steps, versions) = Self.layout(spareLaunches: spareLaunches)
            stepVersions = versions
            upgrader = Upgrader(store: store) { steps }
            launched = 0
            for _ in 0..<Self.historyLaunches {
                _ = try await launchNext()
            }
        }

        /// How many launches the history replays: enough to fill it.
        static var historyLaunches: Int { LaunchRecord.historyLimit + 2 }

        /// The app's steps, and the version of each of its launches: version k (k = 1, 2, ...) is
        /// k.0; launch k introduced step k.0 and, every third launch of the history, a second step
        /// k.0.1 with an id of its own.
        static func layout(spareLaunches: Int) -> (steps: [UpgradeStep], versions: [Version]) {
            var versions: [Version] = []
            var steps: [UpgradeStep] = []
            for k in 1...(historyLaunches + spareLaunches) {
                let version = Version(major: k, minor: 0)
                versions.append(version)
                steps.append(UpgradeStep(version) {})
                if k % 3 == 0 && k <= historyLaunches {
                    steps.append(UpgradeStep(Version(major: k, minor: 0, patch: 1), id: "reindex-search-\(k)") {})
                }
            }
            return (steps, versions)
        }

        /// Launches at the next version: one pending step (two every third version).
        func launchNext() async throws -> UpgradeReport {
            guard launched < stepVersions.count else {
                throw BenchError("the file benchmark ran out of prepared versions; raise spareLaunches")
            }
            let version = stepVersions[launched]
            launched += 1
            return try await upgrader.run(currentVersion: version)
        }

        /// The version of the most recent launch.
        var current: Version { stepVersions[launched - 1] }
    }

    /// Reads a file the plainest way: open, one read into a buffer kept between calls, close.
    final class PlainReader: @unchecked Sendable {
        let path: String
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)

        init(path: String) { self.path = path }

        func readOnce() throws -> Int {
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw BenchError("cannot open \(path): errno \(errno)") }
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            close(descriptor)
            guard count > 0 else { throw BenchError("cannot read \(path): errno \(errno)") }
            return count
        }
    }

    /// Replaces a file the plainest way: write a temporary file, flush it, put it in the file's place
    /// as the store does, flush the folder (without the flushes for the app-kill level). It flushes as the store does
    /// (`StableStorage.flush`: `F_FULLFSYNC` on Apple platforms, `fsync` on Linux), so that the ratio
    /// compares like with like.
    struct PlainWriter: Sendable {
        let folder: String
        let path: String
        let temporary: String
        let bytes: [UInt8]
        /// Whether the file and the folder are flushed, as at the power-loss level.
        var flushes = true
        /// Whether the file is put in place as the store does (`StableStorage.replace`), or with a
        /// plain rename (as `UserDefaults` and Foundation's atomic writes do).
        var replacesAsTheStore = true

        /// Replaces the file with the first `count` bytes (all of them by default).
        func replace(count: Int? = nil) throws {
            let count = count ?? bytes.count
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw BenchError("cannot create \(temporary): errno \(errno)") }
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, count) }
            guard written == count, !flushes || StableStorage.flush(descriptor) == 0 else {
                throw BenchError("cannot write \(temporary): errno \(errno)")
            }
            close(descriptor)
            let replaced =
                replacesAsTheStore
                ? StableStorage.replace(temporary, over: path) : rename(temporary, path)
            guard replaced == 0 else { throw BenchError("cannot replace \(path) by \(temporary): errno \(errno)") }
            guard flushes else { return }
            let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard folderDescriptor >= 0, StableStorage.flush(folderDescriptor) == 0 else {
                throw BenchError("cannot flush \(folder): errno \(errno)")
            }
            close(folderDescriptor)
        }
    }

    /// A store that counts the writes of another, and the size of each document written, to learn
    /// what writes a launch makes.
    final class CountingStore: UpgradeStore, @unchecked Sendable {
        let base: any UpgradeStore
        /// The size of each document written, in bytes, in order.
        private(set) var sizes: [Int] = []
        var writes: Int { sizes.count }
        init(_ base: any UpgradeStore) { self.base = base }
        func load() throws -> UpgradeState? { try base.load() }
        func loadForLaunch() throws -> (state: UpgradeState?, notice: String?) { try base.loadForLaunch() }
        func save(_ state: UpgradeState) throws {
            sizes.append(StateDocument.encode(state).count)
            try base.save(state)
        }
        func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
            sizes.append(StateDocument.encode(state).count)
            return try base.save(state, recording: record)
        }
        func history() throws -> [LaunchRecord] { try base.history() }
        func lockForLaunch() async throws -> any UpgradeStoreLock { try await base.lockForLaunch() }
    }

    static var all: [Benchmark] {
        [
            Benchmark(
                name: "launch-up-to-date",
                summary:
                    "an app launch with nothing to do, through FileUpgradeStore (warm page cache; the state of"
                    + " an app with \(LaunchRecord.historyLimit) launches in its history), against reading the file",
                target: .ratioAtMost(8),
                makeContenders: {
                    let app = try await App(name: "up-to-date", spareLaunches: 0)
                    let current = app.current
                    let report = try await app.upgrader.run(currentVersion: current)
                    guard report.outcome == .upToDate,
                        try app.store.history().count == LaunchRecord.historyLimit
                    else {
                        throw BenchError("the up-to-date fixture is not up to date with a full history: \(report)")
                    }
                    let reader = PlainReader(path: app.documentPath)
                    let size = try reader.readOnce()
                    let document = try Data(contentsOf: URL(fileURLWithPath: app.documentPath))
                    return [
                        Contender(name: "floor: open + read + close (\(size) bytes)", role: .reference) { iterations in
                            for _ in 0..<iterations { Sink.consume(try reader.readOnce()) }
                        },
                        Contender(name: "Upgrader.run, up to date", role: .subject) { iterations in
                            for _ in 0..<iterations {
                                Sink.consume(try await app.upgrader.run(currentVersion: current).steps.count)
                            }
                        },
                        Contender(name: "FileUpgradeStore.load (read + decode)", role: .info) { iterations in
                            for _ in 0..<iterations { Sink.consume(try app.store.load()?.completed.count) }
                        },
                        Contender(name: "StateDocument.decode (bytes in memory)", role: .info) { iterations in
                            for _ in 0..<iterations {
                                let contents = try StateDocument.decode(document, location: app.documentPath)
                                Sink.consume(contents.state.completed.count)
                            }
                        },
                    ]
                }),
            Benchmark(
                name: "launch-one-step",
                summary:
                    "an app launch that runs one step, through FileUpgradeStore (durable writes: a journal record"
                    + " and one flush each), against the two-flush write (write + \(StableStorage.callName) + rename +"
                    + " \(StableStorage.callName) of the folder) as many times as the store writes",
                target: .ratioAtMost(1.35),
                makeContenders: {
                    // Count the writes of one such launch on a copy of the app.
                    let probe = try await App(name: "one-step-probe", spareLaunches: 3)
                    let counting = CountingStore(probe.store)
                    var upgrader = Upgrader(store: counting)
                    for step in probe.upgrader.steps { upgrader.register(step) }
                    let version = Version(major: probe.current.major + 1, minor: 0)
                    let report = try await upgrader.run(currentVersion: version)
                    guard report.outcome == .upgraded, report.steps.count == 1 else {
                        throw BenchError("the one-step probe launch ran \(report.steps.count) steps: \(report)")
                    }
                    let writes = counting.writes
                    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: probe.documentPath)))

                    let app = try await App(name: "one-step", spareLaunches: 20_000)
                    let flush = StableStorage.callName
                    let folder = app.folder.path
                    let writer = PlainWriter(
                        folder: folder, path: folder + "/floor.json", temporary: folder + "/floor.json.tmp",
                        bytes: bytes)
                    return [
                        Contender(
                            name: "floor: \(writes) x write+\(flush)+rename+\(flush) dir",
                            role: .reference
                        ) { iterations in
                            for _ in 0..<iterations {
                                for _ in 0..<writes { try writer.replace() }
                            }
                        },
                        Contender(name: "Upgrader.run, one step (\(writes) writes)", role: .subject) { iterations in
                            for _ in 0..<iterations {
                                let report = try await app.launchNext()
                                Sink.consume(report.steps.count)
                            }
                        },
                    ]
                }),
        ]
    }
}

/// Temporary folders made by the benchmarks, removed when the tool ends.
enum TemporaryFolders {
    nonisolated(unsafe) private static var made: [URL] = []
    private static let lock = NSLock()

    static func make(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "upgrade-bench-\(getpid())-\(name)-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        lock.withLock { made.append(folder) }
        return folder
    }

    static func removeAll() {
        lock.withLock {
            for folder in made { try? FileManager.default.removeItem(at: folder) }
            made.removeAll()
        }
    }
}
