import Foundation
import UpgradeCore
import UpgradeExplorer
import UpgradeStorage
import VersionKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A launch with every step pending (an app that adopts `runAll`, a device that skipped many
/// releases), at each durability level, against the naive pattern's whole launch and against the
/// physical floor of the same writes.
enum PendingBenchmarks {
    /// An app of `count` no-op steps, all of them pending, installed at 1.0 and launched at the
    /// version of its last step; before each launch its state and history files are put back as the
    /// install left them (not timed).
    final class App: @unchecked Sendable {
        let count: Int
        let level: FileUpgradeStore.Durability
        let fixture: PlanningBenchmarks.Fixture
        let statePath: String
        let lockPath: String
        let upgrader: Upgrader
        /// The size of each document the launch writes, in order: `count + 1` of them.
        let writeSizes: [Int]
        /// Put the state and the history back, flushed at the power-loss level.
        private let restorers: [FileStoreBenchmarks.PlainWriter]
        /// The floor's document write: the last write's size, to the state's path, unflushed.
        let floorWriter: FileStoreBenchmarks.PlainWriter
        /// The floor's journal, and the bytes of its records.
        let floorJournalPath: String
        let floorRecord: [UInt8]
        let reader: FileStoreBenchmarks.PlainReader
        /// The history file, and the size of the line the launch appends to it.
        let historyPath: String
        let historyLine: [UInt8]
        /// The naive pattern's methods by name, and the write of its defaults file.
        let naiveMethods: [String: @Sendable () -> Void]
        let defaultsWriter: FileStoreBenchmarks.PlainWriter
        /// The store's system calls, counted.
        let calls = CountingCalls()
        /// The flushes of one launch, counted through the store's system calls.
        private(set) var flushes = 0

        var current: Version { fixture.current }

        /// - Parameters:
        ///   - writes: How the store writes at the power-loss level: through its journals, or with the
        ///     two-flush write that they replaced (for comparison).
        init(
            count: Int, level: FileUpgradeStore.Durability, writes: FileUpgradeStore.PowerLossWrites = .journal
        ) async throws {
            self.count = count
            self.level = level
            fixture = try PlanningBenchmarks.fixture(steps: count, pending: count)
            let folder = try TemporaryFolders.make("pending-\(count)-\(level)-\(writes)").path
            statePath = folder + "/upgrade-state.json"
            lockPath = statePath + ".lock"
            let store = FileUpgradeStore(
                url: URL(fileURLWithPath: statePath), durability: level, calls: calls, powerLossWrites: writes)
            // Registered in the naive list's order; the upgrader sorts its catalog once.
            let steps = fixture.methodNames.compactMap(Version.init(stepName:)).map { UpgradeStep($0) {} }
            upgrader = Upgrader(store: store) { steps }
            // Installed at 1.0: a fresh install below every step, which writes the state and the first
            // record of the history.
            let install = try await upgrader.run(currentVersion: Version(major: 1, minor: 0))
            guard install.outcome == .freshInstall, install.steps.isEmpty else {
                throw BenchError("the pending fixture's install ran steps: \(install)")
            }
            historyPath = statePath + ".history.jsonl"
            let flushes = level == .powerLoss
            restorers = try [statePath, statePath + ".history.jsonl"].map { path in
                FileStoreBenchmarks.PlainWriter(
                    folder: folder, path: path, temporary: folder + "/restore.tmp",
                    bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), flushes: flushes)
            }
            // The journals as the install left them; the second one, which a launch after the first
            // makes, exists (empty) as on a device after two launches.
            let journals = [0, 1].map { [statePath] in statePath + ".journal-\($0)" }
            journalRestorers =
                writes == .journal || level == .appKill
                ? journals.map { path in
                    FileStoreBenchmarks.PlainWriter(
                        folder: folder, path: path, temporary: folder + "/restore.tmp",
                        bytes: Array((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()), flushes: flushes)
                } : []
            // Learn the writes of the launch on the same files, then put them back.
            let counting = FileStoreBenchmarks.CountingStore(store)
            var probe = Upgrader(store: counting)
            for step in upgrader.steps { probe.register(step) }
            let report = try await probe.run(currentVersion: fixture.current)
            let installedHistory = restorers[1].bytes.count
            let historyLineSize = try Data(contentsOf: URL(fileURLWithPath: historyPath)).count - installedHistory
            guard report.outcome == .upgraded, report.steps.count == count, counting.writes == count + 1 else {
                throw BenchError(
                    "the \(count)-pending probe ran \(report.steps.count) steps in \(counting.writes) writes: \(report)"
                )
            }
            writeSizes = counting.sizes
            floorWriter = FileStoreBenchmarks.PlainWriter(
                folder: folder, path: statePath, temporary: folder + "/floor.tmp",
                bytes: [UInt8](repeating: UInt8(ascii: " "), count: writeSizes.max()!), flushes: false)
            floorJournalPath = folder + "/floor.journal"
            floorRecord = [UInt8](repeating: UInt8(ascii: " "), count: writeSizes.max()! + StateJournal.recordOverhead)
            reader = FileStoreBenchmarks.PlainReader(path: statePath)
            historyLine = [UInt8](repeating: UInt8(ascii: " "), count: historyLineSize - 1) + [UInt8(ascii: "\n")]
            naiveMethods = Dictionary(
                uniqueKeysWithValues: fixture.methodNames.map { name -> (String, @Sendable () -> Void) in (name, {}) })
            defaultsWriter = FileStoreBenchmarks.PlainWriter(
                folder: folder, path: folder + "/defaults.plist", temporary: folder + "/defaults.plist.tmp",
                bytes: NaivePattern.defaultsFile(version: fixture.current.description), flushes: false,
                replacesAsTheStore: false)
            try restore()
            calls.reset()
            _ = try await launch()
            self.flushes = calls.flushes
            try restore()
        }

        /// The journals' restorers, at the power-loss level.
        private let journalRestorers: [FileStoreBenchmarks.PlainWriter]

        /// Puts the state, the journals and the history back as the install left them.
        func restore() throws {
            for restorer in restorers + journalRestorers { try restorer.replace() }
        }

        /// The launch under test.
        func launch() async throws -> Duration {
            try restore()
            let start = Harness.clock.now
            let report = try await upgrader.run(currentVersion: fixture.current)
            let elapsed = start.duration(to: Harness.clock.now)
            guard report.steps.count == count else {
                throw BenchError("a \(count)-pending launch ran \(report.steps.count) steps: \(report)")
            }
            Sink.consume(report.steps.count)
            return elapsed
        }

        /// The floor, what the spec requires of a launch: one lock (`flock`), one read of the state, the
        /// launch's k + 1 writes with the same sizes, each a record appended to a journal (open once)
        /// and flushed at the power-loss level (`StableStorage.flushData`), one unflushed write of the
        /// document's copy, and the history line appended (not flushed, as the history is outside the
        /// durability guarantees).
        func floor() throws -> Duration {
            try restore()
            // Its journal starts empty, as the one the launch starts its generation in does.
            guard truncate(floorJournalPath, 0) == 0 || errno == ENOENT else {
                throw BenchError("cannot empty \(floorJournalPath): errno \(errno)")
            }
            let start = Harness.clock.now
            let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard lock >= 0, flock(lock, LOCK_EX) == 0 else {
                throw BenchError("cannot lock \(lockPath): errno \(errno)")
            }
            Sink.consume(try reader.readOnce())
            let journal = open(floorJournalPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            guard journal >= 0 else { throw BenchError("cannot open \(floorJournalPath): errno \(errno)") }
            var offset = 0
            for size in writeSizes {
                let count = size + StateJournal.recordOverhead
                let written = floorRecord.withUnsafeBytes { pwrite(journal, $0.baseAddress, count, off_t(offset)) }
                guard written == count, level == .appKill || StableStorage.flushData(journal) == 0 else {
                    throw BenchError("cannot write \(floorJournalPath): errno \(errno)")
                }
                offset += count
            }
            close(journal)
            try floorWriter.replace(count: writeSizes.last!)
            let history = open(historyPath, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard history >= 0, historyLine.withUnsafeBytes({ write(history, $0.baseAddress, $0.count) }) > 0 else {
                throw BenchError("cannot append to \(historyPath): errno \(errno)")
            }
            close(history)
            flock(lock, LOCK_UN)
            close(lock)
            return start.duration(to: Harness.clock.now)
        }

        /// The naive pattern's whole launch: its filter and sort, the no-op steps, and its version
        /// stored once with one atomic write, not flushed.
        func naive() throws -> Duration {
            try restore()
            let start = Harness.clock.now
            let ran = try NaivePattern.launch(
                fixture.methodNames, storedVersion: fixture.storedVersion, methods: naiveMethods,
                store: { try defaultsWriter.replace() })
            let elapsed = start.duration(to: Harness.clock.now)
            guard ran == count else { throw BenchError("the naive launch ran \(ran) of \(count) steps") }
            Sink.consume(ran)
            return elapsed
        }
    }

    /// The step counts: 10, 100 and 1,000, or fewer for `--quick`.
    static func counts(quick: Bool) -> [Int] { quick ? [3, 10, 30] : [10, 100, 1_000] }

    static func all(quick: Bool) -> [Benchmark] {
        FileUpgradeStore.Durability.allCases.map { benchmark(level: $0, counts: counts(quick: quick)) }
    }

    /// One benchmark a level: for each count, the floor, the launch and the naive launch (contenders
    /// s·i, s·i + 1 and s·i + 2), and at the power-loss level the same launch through the two-flush
    /// write the journals replaced (s·i + 3), s being 4 at the power-loss level and 3 at the app-kill
    /// level.
    static func benchmark(level: FileUpgradeStore.Durability, counts: [Int]) -> Benchmark {
        let powerLoss = level == .powerLoss
        let stride = powerLoss ? 4 : 3
        let write = powerLoss ? "pwrite+\(StableStorage.flushDataCallName)" : "pwrite"
        var checks: [Check] = []
        for (i, count) in counts.enumerated() {
            let label = Format.count(Double(count))
            checks.append(
                Check(
                    subject: stride * i + 1, reference: stride * i, target: nil,
                    figure: "Upgrader.run against its floor, \(label) pending"))
            checks.append(
                Check(
                    subject: stride * i + 1, reference: stride * i + 2,
                    target: powerLoss ? nil : .speedupAtLeast(1),
                    figure: "Upgrader.run against the naive launch, \(label) pending"))
            if powerLoss {
                checks.append(
                    Check(
                        subject: stride * i + 1, reference: stride * i + 3, target: .ratioAtMost(0.6),
                        figure: "Upgrader.run against the two-flush write, \(label) pending"))
            }
        }
        let (middle, largest) = (counts.count - 2, counts.count - 1)
        checks.append(
            Check(
                subject: stride * largest + 1, reference: stride * middle + 1, target: nil,
                scale: Double(counts[middle]) / Double(counts[largest]),
                figure:
                    "Upgrader.run per step at \(Format.count(Double(counts[largest]))) pending against per step at"
                    + " \(Format.count(Double(counts[middle])))"))
        return Benchmark(
            name: "launch-all-pending-\(level)",
            summary:
                "a launch that runs every step, \(counts.map { Format.count(Double($0)) }.joined(separator: ", "))"
                + " no-op steps, at the \(level) level, against the floor (one flock, one read, the launch's"
                + " k + 1 writes with the same sizes, each a journal record: \(write), one unflushed write of the"
                + " document's copy, and the history line appended) and the naive launch"
                + " (its filter and sort, the steps, its version stored with one atomic write, not flushed)"
                + (powerLoss
                    ? ", and against the same launch through the two-flush write that the journals replaced" : "")
                + "; the setup of each launch is not timed; flushes per launch counted through the store's system calls",
            checks: checks,
            // A round of the app-kill level is short enough for 21 rounds, whose median holds still.
            minimumRounds: level == .appKill ? 21 : nil,
            makeContenders: {
                var contenders: [Contender] = []
                for count in counts {
                    let app = try await App(count: count, level: level)
                    let base = contenders.count
                    let label = Format.count(Double(count))
                    contenders.append(
                        Contender.timed(
                            name:
                                "floor \(label): flock+read+\(Format.count(Double(count + 1)))x(\(write))+copy+append",
                            role: .reference, versus: base
                        ) { iterations in
                            var total = Duration.zero
                            for _ in 0..<iterations { total += try app.floor() }
                            return total
                        })
                    contenders.append(
                        Contender.timed(
                            name: "Upgrader.run, \(label) pending (\(app.flushes) flushes)", role: .subject,
                            versus: base
                        ) { iterations in
                            var total = Duration.zero
                            for _ in 0..<iterations { total += try await app.launch() }
                            return total
                        })
                    contenders.append(
                        Contender.timed(name: "naive launch, \(label) pending", role: .reference, versus: base + 2) {
                            iterations in
                            var total = Duration.zero
                            for _ in 0..<iterations { total += try app.naive() }
                            return total
                        })
                    guard powerLoss else { continue }
                    let twoFlush = try await App(count: count, level: level, writes: .flushedRename)
                    contenders.append(
                        Contender.timed(
                            name: "Upgrader.run, two-flush write, \(label) pending (\(twoFlush.flushes) flushes)",
                            role: .reference, versus: base + 3
                        ) { iterations in
                            var total = Duration.zero
                            for _ in 0..<iterations { total += try await twoFlush.launch() }
                            return total
                        })
                }
                return contenders
            })
    }
}
