import Foundation
import Testing
import UpgradeTestSupport
import VersionKit

@testable import UpgradeCore

/// Skip mode of the hand-written reader (StateDocumentReader+Skipping.swift): the history validated
/// without being built, through the writer's layout where it can. It must accept exactly what the
/// full reader accepts, object by object and document by document.
@Suite("State document skip mode")
struct StateDocumentSkippingTests {
    typealias Reading<Value> = (inout StateDocumentReader) throws(StateDocumentFallback) -> Value

    /// Runs `read` over `bytes` from `start`: what it returned (`nil` when it fell back) and where
    /// it stopped.
    static func read<Value>(_ bytes: [UInt8], from start: Int, _ read: Reading<Value>) -> (value: Value?, end: Int) {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = StateDocumentReader(base: buffer.baseAddress!, count: buffer.count)
            reader.index = start
            do {
                let value = try read(&reader)
                return (value, reader.index)
            } catch {
                return (nil, reader.index)
            }
        }
    }

    /// Whether `check` accepts the text at `start`, and where it stopped.
    static func accepts(_ bytes: [UInt8], from start: Int, _ check: Reading<Void>) -> (Bool, Int) {
        let (value, end): (Void?, Int) = read(bytes, from: start, check)
        return (value != nil, end)
    }

    /// The layout path of a history entry: whether it accepted.
    static func writtenRecord(_ reader: inout StateDocumentReader) throws(StateDocumentFallback) -> Bool {
        try reader.skipWrittenLaunchRecord(StateDocumentHistoryTables.shared)
    }

    /// The layout path of a history entry's step: whether it accepted.
    static func writtenStep(_ reader: inout StateDocumentReader) throws(StateDocumentFallback) -> Bool {
        try reader.skipWrittenLaunchStep(StateDocumentHistoryTables.shared)
    }

    /// Where the history's entries and their steps begin (their `{`) in a pretty-printed document.
    static func starts(in bytes: [UInt8]) -> (records: [Int], steps: [Int]) {
        guard let list = bytes.firstRange(of: Array("\"history\" : [".utf8)),
            let after = bytes.firstRange(of: Array("\"inProgress\" : ".utf8))
        else { return ([], []) }
        func starts(_ marker: String) -> [Int] {
            let marker = Array(marker.utf8)
            var found: [Int] = []
            var from = list.upperBound
            while let range = bytes[from..<after.lowerBound].firstRange(of: marker) {
                found.append(range.upperBound - 1)
                from = range.upperBound
            }
            return found
        }
        return (starts("\n    {"), starts("\n        {"))
    }

    /// A state whose history has entries with and without steps, four outcomes and every result,
    /// both booleans, a non-ASCII id, `null` and versions of 2 and 3 components (one at the largest
    /// component), and numbers of several forms: whole, fractional, negative, with an exponent,
    /// negative zero, 17 digits.
    static let layoutState = UpgradeState(
        upgradedThrough: "52.0", lastLaunched: "52.0",
        completed: [StepRecord(id: "appUpgradeTo_1_3", version: "1.3")],
        attempts: [StepAttempts(id: "move", version: "1.4", failed: 2)],
        history: [
            LaunchRecord(
                time: 1_795_974_676.3250132, from: nil, to: "3.0", outcome: .upgraded,
                steps: [
                    .init(
                        id: "appUpgradeTo_3_0", attempt: 1, result: .completed, abandoned: false, milliseconds: 0.000641
                    ),
                    .init(id: "reindex-é", attempt: 12, result: .failed, abandoned: true, milliseconds: -2.5),
                ]),
            LaunchRecord(time: 0, from: "3.0", to: "2147483647.1.2", outcome: .upToDate, steps: []),
            LaunchRecord(
                time: 1e-7, from: "2.0.1", to: "4.0", outcome: .failed,
                steps: [.init(id: "s", attempt: 0, result: .notRun, abandoned: true, milliseconds: -0.0)]),
            LaunchRecord(
                time: 12345, from: "4.0", to: "1.0", outcome: .downgraded,
                steps: [.init(id: "x", attempt: 3, result: .completed, abandoned: false, milliseconds: 1e22)]),
        ])

    @Test("the layout path reads every history entry and step the writer writes, to where the member loop stops")
    func layoutPathReadsTheWriter() throws {
        var random = SeededRandomNumberGenerator(seed: 23)
        var states = [Self.layoutState, richState]
        for _ in 0..<400 { states.append(RandomStates.state(&random, plainStrings: true)) }
        var records = 0
        var steps = 0
        for state in states {
            let bytes = [UInt8](try UpgradeStateDocument.encode(state))
            let (recordStarts, stepStarts) = Self.starts(in: bytes)
            #expect(recordStarts.count == state.history.count)
            for start in recordStarts {
                records += 1
                let (accepted, end) = Self.read(bytes, from: start, Self.writtenRecord)
                let full = Self.read(bytes, from: start) { reader throws(StateDocumentFallback) in
                    try reader.launchRecord()
                }
                #expect(accepted == true, "\(String(decoding: bytes[start...], as: UTF8.self))")
                #expect(full.value != nil && end == full.end)
            }
            for start in stepStarts {
                steps += 1
                let (accepted, end) = Self.read(bytes, from: start, Self.writtenStep)
                let full = Self.read(bytes, from: start) { reader throws(StateDocumentFallback) in
                    try reader.launchStep()
                }
                #expect(accepted == true, "\(String(decoding: bytes[start...], as: UTF8.self))")
                #expect(full.value != nil && end == full.end)
            }
        }
        #expect(records > 1_000 && steps > 1_000, "\(records) entries, \(steps) steps")
    }

    /// Bytes that turn the writer's text into something else nearby: white space, structure,
    /// digits and number signs, letters of the literals, quotes and escapes, non-ASCII.
    static let replacements: [UInt8] =
        Array(" \n\t\r{}[],:\"\\0159.-+eEnutfx".utf8) + [0x00, 0x1F, 0x80, 0xC3]

    @Test("every byte of a writer-layout document, changed: skip mode accepts exactly what the full reader accepts")
    func everyByteChanged() throws {
        let original = [UInt8](try UpgradeStateDocument.encode(Self.layoutState))
        let (recordStarts, stepStarts) = Self.starts(in: original)
        #expect(recordStarts.count == 4 && stepStarts.count == 4)
        var mutants = 0
        var accepted = 0
        var layoutAccepted = 0
        for position in original.indices {
            var variants: [[UInt8]] = []
            for byte in Self.replacements where byte != original[position] {
                var bytes = original
                bytes[position] = byte
                variants.append(bytes)
            }
            var removed = original
            removed.remove(at: position)
            variants.append(removed)
            for byte in Array(" 0\n".utf8) {
                var inserted = original
                inserted.insert(byte, at: position)
                variants.append(inserted)
            }
            // The entry and the step the change falls in (they start before it, so they have not
            // moved).
            let record = recordStarts.last { $0 < position }
            let step = stepStarts.last { $0 < position }
            for bytes in variants {
                mutants += 1
                let document = Data(bytes)
                // The whole document: skip mode and the full reader agree, and what the fast path
                // accepts, the fallback path (strict JSON, then Codable) accepts and reads the same.
                let full = StateDocumentFastPath.decode(document)
                let quick = StateDocumentFastPath.decodeWithoutHistory(document)
                #expect((full == nil) == (quick == nil), "\(String(decoding: bytes, as: UTF8.self))")
                if let full {
                    accepted += 1
                    let reference = try #require(
                        StateDocumentFastPathTests.fallbackDecode(document),
                        "the fast path accepts what the fallback path rejects:\n\(String(decoding: bytes, as: UTF8.self))"
                    )
                    #expect(RandomStates.identical(full, reference))
                    if let quick { #expect(RandomStates.identical(quick, RandomStates.withoutHistory(reference))) }
                }
                // The entry and the step around the change: the layout path accepts only what the
                // member loop reads to the same end, and skip mode accepts what the full reader does.
                if let record {
                    layoutAccepted += try Self.expectSameObject(
                        bytes, from: record, layout: Self.writtenRecord,
                        skip: { reader throws(StateDocumentFallback) in
                            try reader.skipLaunchRecord(StateDocumentHistoryTables.shared)
                        },
                        full: { reader throws(StateDocumentFallback) in _ = try reader.launchRecord() })
                }
                if let step {
                    layoutAccepted += try Self.expectSameObject(
                        bytes, from: step, layout: Self.writtenStep,
                        skip: { reader throws(StateDocumentFallback) in
                            try reader.skipLaunchStep(StateDocumentHistoryTables.shared)
                        },
                        full: { reader throws(StateDocumentFallback) in _ = try reader.launchStep() })
                }
            }
        }
        #expect(
            mutants > 30_000 && accepted > 1_000 && layoutAccepted > 5_000, "\(mutants), \(accepted), \(layoutAccepted)"
        )
    }

    /// Checks one object of a changed document three ways; 1 when the layout path accepted it.
    static func expectSameObject(
        _ bytes: [UInt8], from start: Int, layout: Reading<Bool>, skip: Reading<Void>, full: Reading<Void>
    ) throws -> Int {
        let (written, writtenEnd) = read(bytes, from: start, layout)
        let (skipped, skippedEnd) = accepts(bytes, from: start, skip)
        let (accepted, acceptedEnd) = accepts(bytes, from: start, full)
        let text = String(decoding: bytes[start...], as: UTF8.self)
        #expect(skipped == accepted, "skip mode and the full reader disagree:\n\(text)")
        if skipped && accepted { #expect(skippedEnd == acceptedEnd, "\(text)") }
        guard written == true else { return 0 }
        #expect(
            accepted && writtenEnd == acceptedEnd, "the layout path accepts what the member loop rejects:\n\(text)")
        return 1
    }

    @Test("the public history-less decode agrees with the full decode and the fallback path on changed documents")
    func publicDecodeAgrees() throws {
        var random = SeededRandomNumberGenerator(seed: 29)
        let original = try UpgradeStateDocument.encode(Self.layoutState)
        for _ in 0..<2_000 {
            let document = RandomStates.mutate(original, &random)
            let fallback = StateDocumentFastPathTests.fallbackDecode(document)
            let full = try? UpgradeStateDocument.decode(document, location: "test")
            let quick = try? UpgradeStateDocument.decodeWithoutHistory(document, location: "test")
            #expect((fallback == nil) == (full == nil) && (full == nil) == (quick == nil))
            try StateDocumentFastPathTests.expectSameWithoutHistory(document)
        }
    }

    @Test(
        "a number is skipped exactly when it is read, to the same end",
        arguments: [
            "0", "-0", "00", "01", "-", "", "1", "-1", "12", "1.", ".5", "1.5", "-1.5", "0.000641",
            "1795974676.3250132",
            "1e5", "1E+5", "1e-5", "1e", "1e+", "1.5e300", "1e260", "1e259", "1e-299", "1e-300", "0e999", "0.0e-999",
            "1x", "1.5.5", "--1", "+1", "1,", "1}", "1]", "1 ", "1\n", "1\t", "1\r", "0x1", "1.e5",
            String(repeating: "9", count: 249), String(repeating: "9", count: 250), String(repeating: "9", count: 251),
            String(repeating: "9", count: 279), String(repeating: "9", count: 280), String(repeating: "9", count: 400),
            "0." + String(repeating: "0", count: 248) + "1", "0." + String(repeating: "0", count: 249) + "1",
            "0." + String(repeating: "0", count: 298) + "1", "0." + String(repeating: "0", count: 299) + "1",
            "0." + String(repeating: "0", count: 300) + "1", "0." + String(repeating: "0", count: 400),
            "1." + String(repeating: "0", count: 400),
            "-" + String(repeating: "1", count: 125) + "." + String(repeating: "1", count: 125),
            "-" + String(repeating: "1", count: 125) + "." + String(repeating: "1", count: 126),
        ])
    func numbers(_ number: String) {
        // Alone, and followed by what may end it.
        for text in [number, number + ",", number + "}", number + "e", number + "  ", number + "\"x"] {
            let bytes = Array(text.utf8)
            guard !bytes.isEmpty else { continue }
            let (skipped, skippedEnd) = Self.accepts(bytes, from: 0) { reader throws(StateDocumentFallback) in
                try reader.skipDouble()
            }
            let (read, readEnd) = Self.read(bytes, from: 0) { reader throws(StateDocumentFallback) in
                try reader.double()
            }
            #expect(skipped == (read != nil), "\(text.debugDescription)")
            if skipped { #expect(skippedEnd == readEnd, "\(text.debugDescription)") }
        }
    }

    @Test(
        "a version is skipped exactly when it is read, to the same end",
        arguments: [
            "1.0", "52.0", "1.2.3", "0.0", "00.01", "1", "1.2.3.4", "1..2", ".1.2", "1.2.", "1.", "", ".", "a.b",
            "1.2a",
            "2147483647.2147483647.2147483647", "2147483648.0", "0.2147483648", "1.2.2147483648", "9999999999.0",
            "0000000001.0", "00000000001.0", "12345678901.0", "1.2 ", " 1.2", "1.2\\n", "1.2\u{1}", "１.２", "1.2-beta",
            "v1.2", "1.2.3-rc.1", "1.2.3+build", "1,2", "1.2\"x",
        ])
    func versions(_ version: String) {
        for text in ["\"" + version + "\"", "\"" + version + "\",", "\"" + version, "  \"" + version + "\""] {
            let bytes = Array(text.utf8)
            let (skipped, skippedEnd) = Self.accepts(bytes, from: 0) { reader throws(StateDocumentFallback) in
                try reader.skipVersion()
            }
            let (read, readEnd) = Self.read(bytes, from: 0) { reader throws(StateDocumentFallback) in
                try reader.version()
            }
            #expect(skipped == (read != nil), "\(text.debugDescription)")
            if skipped { #expect(skippedEnd == readEnd, "\(text.debugDescription)") }
        }
    }
}
