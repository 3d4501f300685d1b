import Foundation
import StrictJSON
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// The history of launches, kept beside the state (<doc:FileStoreGuarantees>, "The history beside it"): one record per
/// launch that writes the state, with its last write; bounded; outside the durability guarantees.
@Suite("Launch history beside the state")
struct LaunchHistoryTests {
    static func upgrader(_ store: any UpgradeStore, failing: Bool = false) -> Upgrader {
        Upgrader(store: store) {
            UpgradeStep("1.1") {}
            UpgradeStep("1.2", id: "move-settings") { !failing }
        }
    }

    /// The store whose history a test reads: a new store object for the file and defaults stores,
    /// the same one for the in-memory store (whose history lives in the object).
    static func reader(_ fixture: StoreFixture) throws -> any UpgradeStore {
        fixture.kind == .memory ? try fixture.store() : try fixture.relaunched()
    }

    static func record(_ number: Int) -> LaunchRecord {
        LaunchRecord(
            time: 1_800_000_000 + Double(number), from: "1.0", to: "1.1", outcome: .upgraded,
            steps: [.init(id: "appUpgradeTo_1_1", attempt: 1, result: .completed, abandoned: false, milliseconds: 2.5)])
    }

    @Test(
        "each launch that writes the state adds one record; a launch that changes nothing adds none",
        arguments: StoreKind.builtIn)
    func oneRecordPerWritingLaunch(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.store()
        _ = try await Self.upgrader(store).run(currentVersion: "1.0")
        _ = try await Self.upgrader(store, failing: true).run(currentVersion: "1.2")
        _ = try await Self.upgrader(store).run(currentVersion: "1.2")
        let upToDate = try await Self.upgrader(store).run(currentVersion: "1.2")
        #expect(upToDate.outcome == .upToDate)

        let history = try Self.upgrader(Self.reader(fixture)).history()
        #expect(history.map(\.outcome) == [.freshInstall, .failed, .upgraded])
        #expect(history.map(\.to) == ["1.0", "1.2", "1.2"])
        #expect(history.map(\.from) == [nil, "1.0", "1.2"])
        let failed = try #require(history.dropFirst().first)
        #expect(failed.steps.map(\.id) == ["appUpgradeTo_1_1", "move-settings"])
        #expect(failed.steps.map(\.result) == [.completed, .failed])
        #expect(history.last?.steps.map { "\($0.id)#\($0.attempt)" } == ["move-settings#2"])
    }

    @Test("the history keeps the newest 50 launches", arguments: StoreKind.builtIn)
    func bounded(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.store()
        let state = UpgradeState(upgradedThrough: "1.1", lastLaunched: "1.1")
        for number in 0..<130 {
            #expect(try store.save(state, recording: Self.record(number)) == nil)
            if kind == .file {
                // The file is trimmed once it grows past twice the bound.
                let lines = try String(contentsOfFile: fixture.fileURL.path + ".history.jsonl", encoding: .utf8)
                #expect(lines.split(separator: "\n").count <= 2 * LaunchRecord.historyLimit)
            }
        }
        let history = try Self.reader(fixture).history()
        #expect(history.count == LaunchRecord.historyLimit)
        #expect(history.map(\.time) == (80..<130).map { 1_800_000_000 + Double($0) })
        #expect(history.last == Self.record(129))
    }

    @Test("an up-to-date launch does not touch the history file")
    func upToDateLeavesHistoryAlone() async throws {
        let fixture = try StoreFixture(.file)
        _ = try await Self.upgrader(fixture.store()).run(currentVersion: "1.0")
        let path = fixture.fileURL.path + ".history.jsonl"
        let before = try FileManager.default.attributesOfItem(atPath: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let report = try await Self.upgrader(fixture.relaunched()).run(currentVersion: "1.0")
        #expect(report.outcome == .upToDate)
        let after = try FileManager.default.attributesOfItem(atPath: path)
        #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect((after[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test(
        "a record's line is the text JSONWriter.compact writes for its JSON value, byte for byte",
        arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func lineMatchesTheGenericWriter(seed: UInt64) throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let ids = [
            "appUpgradeTo_1_2", "move \"quoted\" settings", "réindexer", "tab\there", "line\nbreak", "\u{7F}", "",
        ]
        let numbers: [Double] = [0, 2.5, 0.000_123_4, 1_800_000_000.25, 1e300, -0.0, .nan, .infinity, -.infinity]
        for _ in 0..<40 {
            let steps = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                LaunchRecord.RecordedStep(
                    id: ids.randomElement(using: &random)!, attempt: Int.random(in: 1...1_000_000, using: &random),
                    result: Bool.random(using: &random) ? .completed : .failed, abandoned: Bool.random(using: &random),
                    milliseconds: numbers.randomElement(using: &random)!)
            }
            let record = LaunchRecord(
                time: numbers.randomElement(using: &random)!,
                from: Bool.random(using: &random)
                    ? nil : Version(major: Int.random(in: 0...99, using: &random), minor: 1),
                to: Version(major: 2, minor: Int.random(in: 0...9, using: &random), patch: 1),
                outcome: UpgradeOutcome.allCases.randomElement(using: &random)!, steps: steps)
            let line = LaunchHistoryLine.encode(record)
            #expect(line == JSONWriter.compact(LaunchHistoryLine.value(record)))
            #expect(LaunchHistoryLine.lines([record, record]) == Array((line + "\n" + line + "\n").utf8))
        }
    }

    @Test("a file of the shortest lines is still trimmed to the newest 50 once it grows past 100")
    func shortestLinesAreTrimmed() throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL)
        let path = fixture.fileURL.path + ".history.jsonl"
        for number in 0..<250 {
            let record = LaunchRecord(time: Double(number % 10), from: nil, to: "0.0", outcome: .failed, steps: [])
            #expect(try store.save(UpgradeState(), recording: record) == nil)
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            #expect(lines.count <= 2 * LaunchRecord.historyLimit)
        }
        #expect(try store.history().count == LaunchRecord.historyLimit)
    }

    @Test("a torn last line is ignored when read, and cut off before the next record is appended")
    func tornLastLine() throws {
        let fixture = try StoreFixture(.file)
        let path = fixture.fileURL.path + ".history.jsonl"
        let whole = [Self.record(1), Self.record(2)].map { LaunchHistoryLine.encode($0) + "\n" }.joined()
        let torn = String(LaunchHistoryLine.encode(Self.record(3)).prefix(30))
        try Data((whole + torn).utf8).write(to: URL(fileURLWithPath: path))
        let store = try fixture.store()
        #expect(try store.history() == [Self.record(1), Self.record(2)])

        #expect(try store.save(UpgradeState(), recording: Self.record(4)) == nil)
        #expect(try store.history() == [Self.record(1), Self.record(2), Self.record(4)])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        #expect(text.split(separator: "\n").count == 3)
    }

    @Test("a damaged line is an error naming the file and the line; launches go on and append")
    func damagedLine() async throws {
        let fixture = try StoreFixture(.file)
        let path = fixture.fileURL.path + ".history.jsonl"
        let text = LaunchHistoryLine.encode(Self.record(1)) + "\n{\"outcome\": 7}\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: UpgradeStoreError.self) { try fixture.store().history() }
        #expect(error?.code == .corrupt)
        #expect(error?.location == path)
        #expect(error?.detail.contains("line 2") == true, "\(error?.detail ?? "")")

        let report = try await Self.upgrader(fixture.store()).run(currentVersion: "1.0")
        #expect(report.outcome == .freshInstall)
        #expect(report.notices.isEmpty)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
    }

    @Test("a history that cannot be written is a notice in the report, never a failed launch")
    func unwritableHistory() async throws {
        let fixture = try StoreFixture(.file)
        // A folder where the history file belongs: it can be neither read nor appended to.
        try FileManager.default.createDirectory(
            atPath: fixture.fileURL.path + ".history.jsonl", withIntermediateDirectories: true)
        let report = try await Self.upgrader(fixture.store()).run(currentVersion: "1.0")
        #expect(report.outcome == .freshInstall)
        #expect(report.notices.count == 1)
        #expect(report.notices.first?.contains("history") == true, "\(report.notices)")
        #expect(try fixture.relaunched().load()?.upgradedThrough == "1.0")
        let next = try await Self.upgrader(fixture.relaunched()).run(currentVersion: "1.2")
        #expect(next.outcome == .upgraded)
    }

    @Test("the defaults store reports a history key that holds something else, and replaces it on the next write")
    func defaultsHistoryOfAnotherType() throws {
        let fixture = try StoreFixture(.defaults)
        let store = try UserDefaultsUpgradeStore(suiteName: fixture.suite)
        UserDefaults(suiteName: fixture.suite)!.set(7, forKey: store.historyKey)
        let error = #expect(throws: UpgradeStoreError.self) { try store.history() }
        #expect(error?.code == .corrupt)
        #expect(error?.description.contains(store.historyKey) == true)
        let notice = try store.save(UpgradeState(), recording: Self.record(1))
        #expect(notice?.contains(store.historyKey) == true, "\(notice ?? "")")
        #expect(try store.history() == [Self.record(1)])
    }

    @Test("a record reads back from its line exactly, with its one-line description")
    func lineRoundTrip() throws {
        let record = LaunchRecord(
            time: 1_764_581_400.5, from: nil, to: "2.0.1", outcome: .failed,
            steps: [
                .init(id: "a \"quoted\" id", attempt: 3, result: .failed, abandoned: true, milliseconds: 1234.25),
                .init(id: "skipped", attempt: 2, result: .notRun, abandoned: true, milliseconds: 0),
            ])
        let line = LaunchHistoryLine.encode(record)
        #expect(!line.contains("\n"))
        #expect(try LaunchHistoryLine.decode(Array(line.utf8)) == record)
        #expect(
            record.description
                == "2025-12-01T09:30:00Z (fresh install) -> 2.0.1 failed: a \"quoted\" id (attempt 3, failed,"
                + " abandoned, 1234 ms), skipped (attempt 2, notRun, abandoned)")
    }
}
