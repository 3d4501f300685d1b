import Foundation
import Testing
import UpgradeTestSupport
import VersionKit

@testable import UpgradeCore

/// The hand-written reader and writer of the state document (UpgradeStateDocument+FastPath.swift)
/// against the Codable path they stand in for: the writer must write JSONEncoder's bytes, and the
/// reader must never accept a document the Codable path rejects, nor read one differently.
@Suite("State document fast path")
struct StateDocumentFastPathTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The Codable path alone.
    static func codableDecode(_ data: Data) -> UpgradeState? {
        try? JSONDecoder().decode(UpgradeState.self, from: data)
    }

    /// The fallback path alone: the strict JSON check, then the Codable path; `nil` when either
    /// rejects the document.
    static func fallbackDecode(_ data: Data) -> UpgradeState? {
        guard (try? JSONParser.parse([UInt8](data))) != nil else { return nil }
        return codableDecode(data)
    }

    @Test("the writer writes the bytes JSONEncoder writes, or leaves the state to it")
    func writerMatchesJSONEncoder() throws {
        var random = SeededRandomNumberGenerator(seed: 7)
        var written = 0
        for _ in 0..<3_000 {
            let state = RandomStates.state(&random)
            let expected = try? Self.encoder.encode(state)
            guard let fast = StateDocumentFastPath.encode(state) else { continue }
            written += 1
            #expect(fast == expected, "state: \(state)")
        }
        #expect(written > 500)
        #expect(StateDocumentFastPath.encode(richState) == (try Self.encoder.encode(richState)))
    }

    @Test("the reader reads every document the writer writes, to the very same state")
    func readerReadsTheWriter() throws {
        var random = SeededRandomNumberGenerator(seed: 11)
        for _ in 0..<2_000 {
            let state = RandomStates.state(&random, plainStrings: true)
            let data = try UpgradeStateDocument.encode(state)
            let fast = try #require(StateDocumentFastPath.decode(data), "not read: \(state)")
            #expect(RandomStates.identical(fast, state), "read \(fast), wrote \(state)")
            let quick = try #require(StateDocumentFastPath.decodeWithoutHistory(data), "not read: \(state)")
            #expect(RandomStates.identical(quick, RandomStates.withoutHistory(state)))
        }
    }

    @Test("whatever the reader accepts, the fallback path accepts and reads the same; all else falls back")
    func readerIsNeverLaxer() throws {
        var random = SeededRandomNumberGenerator(seed: 13)
        var accepted = 0
        var mutants = 0
        for _ in 0..<1_500 {
            let state = RandomStates.state(&random)
            guard let original = try? Self.encoder.encode(state) else { continue }
            for document in [original] + (0..<8).map({ _ in RandomStates.mutate(original, &random) }) {
                mutants += 1
                try Self.expectSameWithoutHistory(document)
                guard let fast = StateDocumentFastPath.decode(document) else { continue }
                accepted += 1
                let reference = try #require(
                    Self.fallbackDecode(document),
                    "the fast path accepts what the fallback path rejects:\n\(String(decoding: document, as: UTF8.self))"
                )
                #expect(RandomStates.identical(fast, reference), "\(String(decoding: document, as: UTF8.self))")
            }
        }
        #expect(accepted > 300 && mutants > 10_000)
    }

    /// The history-less decode accepts and rejects what the full decode does, in the fast path
    /// and in all, with the same state minus its history or the same error.
    static func expectSameWithoutHistory(_ document: Data) throws {
        let fast = StateDocumentFastPath.decode(document)
        let quick = StateDocumentFastPath.decodeWithoutHistory(document)
        #expect((fast == nil) == (quick == nil), "\(String(decoding: document, as: UTF8.self))")
        if let fast, let quick { #expect(RandomStates.identical(quick, RandomStates.withoutHistory(fast))) }
        let full = Result { () throws(UpgradeStoreError) in try UpgradeStateDocument.decode(document, location: "test")
        }
        let withoutHistory = Result { () throws(UpgradeStoreError) in
            try UpgradeStateDocument.decodeWithoutHistory(document, location: "test")
        }
        switch (full, withoutHistory) {
        case (.success(let state), .success(let read)):
            #expect(RandomStates.identical(read, RandomStates.withoutHistory(state)))
        case (.failure(let error), .failure(let same)):
            // The same error, word for word (an unknown key is named the same way every time).
            #expect(same.code == error.code && same.location == error.location)
            #expect(same.detail == error.detail)
        default:
            Issue.record("decode and decodeWithoutHistory disagree:\n\(String(decoding: document, as: UTF8.self))")
        }
    }

    @Test("damage inside the history is found without building it, as the full decode finds it")
    func damagedHistory() throws {
        var random = SeededRandomNumberGenerator(seed: 19)
        var rejected = 0
        var documents = 0
        for _ in 0..<600 {
            var state = RandomStates.state(&random)
            if state.history.isEmpty { continue }
            state.history += state.history
            guard let original = try? Self.encoder.encode(state) else { continue }
            let text = [UInt8](original)
            // The bytes of the history's list: from after its `[` to the member after it.
            guard let key = text.firstRange(of: Array("\"history\" : [".utf8)),
                let end = text.firstRange(of: Array("\"inProgress\" : ".utf8))
            else { continue }
            let start = key.upperBound
            let stop = end.lowerBound
            for _ in 0..<12 {
                var bytes = text
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let at = Int.random(in: start..<stop, using: &random)
                    if Bool.random(using: &random) {
                        bytes[at] = RandomStates.interesting.randomElement(using: &random)!
                    } else {
                        bytes.remove(at: at)
                    }
                }
                let document = Data(bytes)
                documents += 1
                try Self.expectSameWithoutHistory(document)
                if Self.codableDecode(document) == nil {
                    rejected += 1
                    #expect(throws: UpgradeStoreError.self) {
                        try UpgradeStateDocument.decodeWithoutHistory(document, location: "test")
                    }
                }
            }
        }
        #expect(documents > 3_000 && rejected > 1_000, "\(documents) documents, \(rejected) rejected")
    }

    @Test(
        "documents the Codable path rejects are rejected, with its error",
        arguments: [
            #"{"format":1}"#,
            #"[]"#,
            "",
            #"{"abandoned":[],"attempts":[],"completed":[],"format":1,"history":[],"inProgress":null,"lastLaunched":null,"upgradedThrough":null,"extra":1}"#,
            #"{"abandoned":[],"attempts":[],"completed":[],"format":0,"history":[],"inProgress":null,"lastLaunched":null,"upgradedThrough":null}"#,
            #"{"abandoned":[],"attempts":[],"completed":[],"format":1,"history":[],"inProgress":null,"lastLaunched":"1.x","upgradedThrough":null}"#,
            #"{"abandoned":[],"attempts":[{"id":"a","version":"1.0","failed":0}],"completed":[],"format":1,"history":[],"inProgress":null,"lastLaunched":null,"upgradedThrough":null}"#,
            #"{"abandoned":[],"attempts":[],"completed":[],"format":1,"history":[],"inProgress":null,"lastLaunched":null,"upgradedThrough":null} x"#,
            #"{"abandoned":[],"attempts":[],"completed":[],"format":1,"history":[{"time":1e999,"from":null,"to":"1.0","outcome":"upgraded","steps":[]}],"inProgress":null,"lastLaunched":null,"upgradedThrough":null}"#,
            #"{"abandoned":[],"attempts":[],"completed":[],"format":1,"history":[{"time":1,"from":null,"to":"1.0","outcome":"sideways","steps":[]}],"inProgress":null,"lastLaunched":null,"upgradedThrough":null}"#,
        ])
    func rejected(_ text: String) throws {
        let data = Data(text.utf8)
        #expect(Self.codableDecode(data) == nil)
        #expect(StateDocumentFastPath.decode(data) == nil)
        #expect(throws: UpgradeStoreError.self) { try UpgradeStateDocument.decode(data, location: "test") }
        #expect(StateDocumentFastPath.decodeWithoutHistory(data) == nil)
        #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decodeWithoutHistory(data, location: "test")
        }
        try Self.expectSameWithoutHistory(data)
    }

    @Test(
        "unusual but valid documents are read as the Codable path reads them",
        arguments: [
            // Compact, other key order, tabs and CRLF, escapes, numbers in other forms.
            #"{"upgradedThrough":"1.02","lastLaunched":"1.4.1","inProgress":null,"history":[],"format":1,"completed":[],"attempts":[],"abandoned":[]}"#,
            "{\r\n\t\"abandoned\" : [ ],\t\"attempts\":[],\"completed\":[{\"id\":\"caf\\u00e9\",\"version\":\"1.3\"}],\"format\":1,\"history\":[],\"inProgress\":null,\"lastLaunched\":null,\"upgradedThrough\":null}",
            #"{"abandoned":[],"attempts":[],"completed":[],"format":1.0,"history":[],"inProgress":null,"lastLaunched":null,"upgradedThrough":null}"#,
            #"{"abandoned":[],"attempts":[],"completed":[],"format":1,"history":[{"time":1.7e9,"from":null,"to":"1.0","outcome":"upgraded","steps":[{"id":"é/x","attempt":0,"result":"notRun","abandoned":true,"milliseconds":-0.0}]}],"inProgress":null,"lastLaunched":null,"upgradedThrough":null}"#,
            #"{"abandoned":[],"attempts":[],"completed":[],"format":1,"history":[{"time":1795970315.4471247,"from":"2.0","to":"3.0","outcome":"upgraded","steps":[{"id":"a","attempt":1,"result":"completed","abandoned":false,"milliseconds":4.9e-324}]}],"inProgress":null,"lastLaunched":null,"upgradedThrough":null}"#,
            #"{"abandoned":[],"attempts":[],"completed":[],"format":1,"history":[{"time":12345678901234567890123,"from":"2.0","to":"3.0","outcome":"upgraded","steps":[]}],"inProgress":{"id":"x","version":"3.0","attempt":2},"lastLaunched":null,"upgradedThrough":null}"#,
            // A repeated key and a trailing comma, which JSONDecoder would take, are rejected before it
            // reads them (StateDocumentStrictJSONTests).
        ])
    func unusualDocuments(_ text: String) throws {
        let data = Data(text.utf8)
        let reference = try #require(Self.codableDecode(data))
        let read = try UpgradeStateDocument.decode(data, location: "test")
        #expect(RandomStates.identical(read, reference))
        try Self.expectSameWithoutHistory(data)
        if let fast = StateDocumentFastPath.decode(data) {
            #expect(RandomStates.identical(fast, reference))
        }
    }

    @Test("the fast path also reads documents in compact form and in any key order")
    func compactDocuments() throws {
        let encoder = JSONEncoder()
        let compact = try encoder.encode(richState)
        #expect(StateDocumentFastPath.decode(compact) == richState)
        let reordered = Data(
            #"{"upgradedThrough":null,"lastLaunched":"2.0","inProgress":null,"history":[],"format":1,"completed":[],"attempts":[],"abandoned":[]}"#
                .utf8)
        #expect(StateDocumentFastPath.decode(reordered) == UpgradeState(lastLaunched: "2.0"))
    }

    @Test("numbers of every size are read to the correctly rounded value, as the Codable path reads them")
    func numbers() throws {
        var random = SeededRandomNumberGenerator(seed: 17)
        for _ in 0..<20_000 {
            let value = RandomStates.double(&random)
            guard value.isFinite else { continue }
            let texts = [
                "\(value)", String(format: "%.17g", value), String(format: "%.6f", value),
                String(format: "%.3e", value),
            ]
            for text in texts {
                let document = Data(
                    (#"{"abandoned":[],"attempts":[],"completed":[],"format":1,"history":[{"time":"#
                        + text
                        + #","from":null,"to":"1.0","outcome":"upgraded","steps":[]}],"inProgress":null,"lastLaunched":null,"upgradedThrough":null}"#)
                        .utf8)
                let reference = Self.codableDecode(document)
                let fast = StateDocumentFastPath.decode(document)
                #expect(
                    (StateDocumentFastPath.decodeWithoutHistory(document) == nil) == (fast == nil),
                    "\(text): the history-less reader disagrees")
                if let fast {
                    let expected = try #require(reference, "accepted \(text)")
                    #expect(
                        fast.history[0].time.bitPattern == expected.history[0].time.bitPattern,
                        "\(text): \(fast.history[0].time) != \(expected.history[0].time)")
                }
            }
        }
    }
}

/// Random states and damaged documents for the fast-path tests.
enum RandomStates {
    static func version(_ random: inout SeededRandomNumberGenerator) -> Version {
        Bool.random(using: &random)
            ? Version(major: Int.random(in: 0...40, using: &random), minor: Int.random(in: 0...40, using: &random))
            : Version(
                major: Int.random(in: 0...3_000, using: &random), minor: Int.random(in: 0...40, using: &random),
                patch: Int.random(in: 0...300, using: &random))
    }

    static let characters: [String] = [
        "a", "b", "Z", "_", "-", "/", "é", "日", "😀", " ", "9", "\"", "\\", "\n", "\t", "\u{1}", "\u{7F}", "\u{2028}",
    ]

    static func id(_ random: inout SeededRandomNumberGenerator, plain: Bool) -> String {
        if plain || Int.random(in: 0..<4, using: &random) > 0 {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return version(&random).stepName
            case 1: return "reindex-search-\(Int.random(in: 0...999, using: &random))"
            default: return "s\(Int.random(in: 0...99, using: &random))"
            }
        }
        return (0..<Int.random(in: 0...12, using: &random)).map { _ in characters.randomElement(using: &random)! }
            .joined()
    }

    static func double(_ random: inout SeededRandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return Double(Int.random(in: 0...2_000_000_000, using: &random))
        case 1: return Double.random(in: 0...1, using: &random)
        case 2: return Double.random(in: 1_600_000_000...1_900_000_000, using: &random)
        case 3: return Double(bitPattern: random.next())
        case 4: return Double.random(in: 0...1e-3, using: &random)
        case 5: return (Double.random(in: 0...100, using: &random) * 1e6).rounded() / 1e6
        case 6: return -Double.random(in: 0...1e6, using: &random)
        case 7:
            return [
                0.0, -0.0, 1e22, 1e23, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .leastNormalMagnitude, 0.1,
                1e-7,
            ]
            .randomElement(using: &random)!
        case 8: return Double.random(in: 1...1e19, using: &random).rounded()
        default: return Double.random(in: 0...100_000, using: &random)
        }
    }

    static func state(_ random: inout SeededRandomNumberGenerator, plainStrings: Bool = false) -> UpgradeState {
        func records(_ count: Int, _ random: inout SeededRandomNumberGenerator) -> [StepRecord] {
            (0..<count).map { _ in StepRecord(id: id(&random, plain: plainStrings), version: version(&random)) }
        }
        let completed = records(Int.random(in: 0...3, using: &random), &random)
        let abandoned = records(Int.random(in: 0...2, using: &random), &random)
        let attempts = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            StepAttempts(
                id: id(&random, plain: plainStrings), version: version(&random),
                failed: Int.random(in: 1...100, using: &random))
        }
        let inProgress =
            Bool.random(using: &random)
            ? StepInProgress(
                id: id(&random, plain: plainStrings), version: version(&random),
                attempt: Int.random(in: 1...5, using: &random)) : nil
        let history = (0..<Int.random(in: 0...6, using: &random)).map { _ in
            let steps = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                LaunchRecord.Step(
                    id: id(&random, plain: plainStrings), attempt: Int.random(in: 0...4, using: &random),
                    result: [.completed, .failed, .notRun].randomElement(using: &random)!,
                    abandoned: Bool.random(using: &random), milliseconds: finite(&random))
            }
            return LaunchRecord(
                time: finite(&random), from: Bool.random(using: &random) ? version(&random) : nil, to: version(&random),
                outcome: UpgradeOutcome.allCases.randomElement(using: &random)!, steps: steps)
        }
        return UpgradeState(
            upgradedThrough: Bool.random(using: &random) ? version(&random) : nil,
            lastLaunched: Bool.random(using: &random) ? version(&random) : nil, completed: completed,
            abandoned: abandoned, attempts: attempts, inProgress: inProgress, history: history)

        // With plain strings, also ordinary numbers: finite, and zero or of a magnitude between
        // 1e-280 and 1e250 (the fast path leaves the extremes to the Codable path).
        func finite(_ random: inout SeededRandomNumberGenerator) -> Double {
            while true {
                let value = double(&random)
                if !plainStrings || value == 0 || (value.isFinite && abs(value) > 1e-280 && abs(value) < 1e250) {
                    return value
                }
            }
        }
    }

    static let interesting: [UInt8] = Array("{}[],:\" \n\t\\0123456789.eE+-nultrfasx".utf8) + [0, 0x80, 0xC3, 0xFF]

    /// The document with one to three random faults: a byte removed, inserted or replaced, a line
    /// repeated or removed, or the end cut off.
    static func mutate(_ document: Data, _ random: inout SeededRandomNumberGenerator) -> Data {
        var bytes = [UInt8](document)
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0: bytes.remove(at: at)
            case 1: bytes.insert(interesting.randomElement(using: &random)!, at: at)
            case 2: bytes[at] = interesting.randomElement(using: &random)!
            case 3:
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                let line = Int.random(in: 0..<lines.count, using: &random)
                lines.insert(lines[line], at: line)
                bytes = Array(lines.joined(separator: [0x0A]))
            case 4:
                var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                if lines.count > 1 { lines.remove(at: Int.random(in: 0..<lines.count, using: &random)) }
                bytes = Array(lines.joined(separator: [0x0A]))
            default: bytes = Array(bytes[..<at])
            }
        }
        return Data(bytes)
    }

    /// The state with its history dropped.
    static func withoutHistory(_ state: UpgradeState) -> UpgradeState {
        var state = state
        state.history = []
        return state
    }

    /// Equal states, with every number bit for bit the same (so `-0.0` is not `0.0`).
    static func identical(_ a: UpgradeState, _ b: UpgradeState) -> Bool {
        guard a == b, a.format == b.format, a.history.count == b.history.count else { return false }
        for (x, y) in zip(a.history, b.history) {
            guard x.time.bitPattern == y.time.bitPattern, x.steps.count == y.steps.count else { return false }
            for (p, q) in zip(x.steps, y.steps) where p.milliseconds.bitPattern != q.milliseconds.bitPattern {
                return false
            }
        }
        return true
    }
}
