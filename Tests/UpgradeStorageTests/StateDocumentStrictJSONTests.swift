import Foundation
import Testing
import UpgradeStorage
import VersionKit

@testable import UpgradeCore

/// A state document must be strict JSON (RFC 8259), on the fallback path too: what the hand-written
/// reader does not take is checked by the package's JSON parser before `JSONDecoder` reads it, since
/// `JSONDecoder` takes one of two duplicate keys, or a trailing comma, without a word (SPEC section 6:
/// a file that cannot be parsed is an error naming it and what is wrong).
@Suite("State document: strict JSON")
struct StateDocumentStrictJSONTests {
    /// A state with something in every list, and two launches of history.
    static let state = UpgradeState(
        upgradedThrough: "1.2", lastLaunched: "1.4.1",
        completed: [StepRecord(id: "appUpgradeTo_1_3", version: "1.3")],
        attempts: [StepAttempts(id: "move-settings", version: "1.4", failed: 2)],
        history: [
            LaunchRecord(time: 1_700_000_000.25, from: "1.1", to: "1.2", outcome: .upgraded, steps: []),
            LaunchRecord(
                time: 1_700_000_100.5, from: "1.2", to: "1.4.1", outcome: .failed,
                steps: [.init(id: "move-settings", attempt: 2, result: .failed, abandoned: false, milliseconds: 12.5)]),
        ])

    /// `state` without its history, as `decodeWithoutHistory` reads it.
    static var stateWithoutHistory: UpgradeState {
        var state = Self.state
        state.history = []
        return state
    }

    @Test("the sample document is read by the hand-written reader, so each variant below differs only by its change")
    func sampleTakesTheFastPath() throws {
        #expect(StateDocumentFastPath.decode(try StateDocumentVariant.original) == Self.state)
    }

    @Test(
        "a document that is not strict JSON is corrupt: the error names line, column, JSON path and fault",
        arguments: MalformedStateDocument.all)
    func malformedIsCorrupt(document: MalformedStateDocument) throws {
        let bytes = try document.bytes()
        // The hand-written reader declines it, so the error comes from the fallback path.
        #expect(StateDocumentFastPath.decode(bytes) == nil)
        #expect(StateDocumentFastPath.decodeWithoutHistory(bytes) == nil)

        let full = #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decode(bytes, location: "s.json")
        }
        let quick = #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decodeWithoutHistory(bytes, location: "s.json")
        }

        #expect(full?.code == .corrupt)
        #expect(full?.location == "s.json")
        let detail = full?.detail ?? ""
        #expect(detail.hasPrefix("not a valid upgrade state document: at \(document.path) (line "), "\(detail)")
        #expect(detail.contains("): invalid JSON: \(document.fault)"), "\(detail)")
        #expect(detail.hasSuffix("; it is left as it is"), "\(detail)")
        #expect(full?.underlying is JSONSyntaxError)
        #expect(quick?.code == .corrupt)
        #expect(quick?.description == full?.description)
    }

    @Test("the error reads as one sentence, with the line and column of the fault")
    func wholeMessage() throws {
        let document = try #require(MalformedStateDocument.all.first { $0.label == "duplicate key in history" })
        let error = #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decode(try document.bytes(), location: "/app/upgrade-state.json")
        }
        #expect(
            error?.description
                == "/app/upgrade-state.json: not a valid upgrade state document: at history[1] (line 44, column 7):"
                + " invalid JSON: duplicate key \"to\"; it is left as it is")

        let empty = #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decode(Data(), location: "s.json")
        }
        #expect(
            empty?.description
                == "s.json: not a valid upgrade state document: at the top level (line 1, column 1): invalid JSON:"
                + " the document is empty; expected a JSON object; it is left as it is")
    }

    @Test(
        "valid documents the hand-written reader leaves to JSONDecoder read to the same state as before",
        arguments: StateDocumentVariant.valid)
    func validFallbackDocuments(variant: StateDocumentVariant) throws {
        let bytes = try variant.bytes()
        if let fallsBack = variant.fallsBack {
            #expect((StateDocumentFastPath.decode(bytes) == nil) == fallsBack)
        }
        #expect(try JSONDecoder().decode(UpgradeState.self, from: bytes) == Self.state)
        #expect(try UpgradeStateDocument.decode(bytes, location: "s.json") == Self.state)
        #expect(try UpgradeStateDocument.decodeWithoutHistory(bytes, location: "s.json") == Self.stateWithoutHistory)
    }

    @Test(
        "the type errors of JSONDecoder keep their JSON path once the syntax is checked",
        arguments: [
            ("\"failed\" : 2,", "\"failed\" : \"2\",", "at attempts[0].failed: expected a number"),
            ("\"to\" : \"1.4.1\"", "\"to\" : \"1.4.x\"", "at history[1].to:"),
            ("\"outcome\" : \"failed\"", "\"outcome\" : \"f\\u0061iled!\"", "at history[1].outcome:"),
        ])
    func typeErrorsKeepTheirPath(anchor: String, replacement: String, expected: String) throws {
        let bytes = try StateDocumentVariant.replacing(anchor, with: replacement)
        let error = #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decode(bytes, location: "s.json")
        }
        #expect(error?.code == .corrupt)
        #expect(error?.detail.contains(expected) == true, "\(error?.detail ?? "")")
        #expect(error?.underlying is DecodingError)
    }

    @Test("a newer format is still reported as such")
    func newerFormat() throws {
        let bytes = try StateDocumentVariant.replacing("\"format\" : 1,", with: "\"format\" : 2,")
        let error = #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decode(bytes, location: "s.json")
        }
        #expect(error?.code == .unsupportedFormat(found: 2, supported: 1))
    }

    @Test(
        "a store holding a document that is not strict JSON reports it, and a launch leaves it exactly as it is",
        arguments: StoreKind.documentStores, MalformedStateDocument.all)
    func storesLeaveItUntouched(kind: StoreKind, document: MalformedStateDocument) async throws {
        let fixture = try StoreFixture(kind)
        let bytes = try document.bytes()
        try fixture.writeRaw(bytes)
        #expect(fixture.readRaw() == bytes)

        let error = #expect(throws: UpgradeStoreError.self) { try fixture.store().load() }
        #expect(error?.code == .corrupt)
        let description = error?.description ?? ""
        #expect(description.contains(fixture.location), "\(description)")
        #expect(description.contains("at \(document.path) (line "), "\(description)")
        #expect(description.contains("invalid JSON: \(document.fault)"), "\(description)")
        let quick = #expect(throws: UpgradeStoreError.self) { try fixture.store().loadWithoutHistory() }
        #expect(quick?.description == error?.description)
        #expect(throws: UpgradeStoreError.self) { try fixture.store().loadForLaunch() }

        let saveError = #expect(throws: UpgradeStoreError.self) { try fixture.store().save(Self.state) }
        #expect(saveError?.code == .corrupt)
        #expect(saveError?.detail.hasSuffix("the new state was not written over it") == true)
        #expect(saveError?.detail.contains("left as it is") == false, "\(saveError?.detail ?? "")")

        let ran = Counter()
        let upgrader = Upgrader(store: try fixture.store()) {
            UpgradeStep("1.5") { ran.increment() }
        }
        let launch = await #expect(throws: UpgradeStoreError.self) {
            _ = try await upgrader.run(currentVersion: "1.5")
        }
        #expect(launch?.code == .corrupt)
        #expect(ran.value == 0)
        #expect(fixture.readRaw() == bytes)
    }

    @Test("the defaults store reads a document stored as data as its bytes, not repaired")
    func defaultsDataIsNotRepaired() throws {
        let fixture = try StoreFixture(.defaults)
        let bytes = try StateDocumentVariant.replacing(
            "\"appUpgradeTo_1_3\"", with: Data("\"appUpgradeTo_1_".utf8) + Data([0xFF]) + Data("3\"".utf8))
        UserDefaults(suiteName: fixture.suite)!.set(bytes, forKey: StoreFixture.defaultsKey)
        let error = #expect(throws: UpgradeStoreError.self) { try fixture.store().load() }
        #expect(error?.code == .corrupt)
        #expect(error?.detail.contains("invalid UTF-8 byte 0xFF") == true, "\(error?.detail ?? "")")
        #expect(throws: UpgradeStoreError.self) { try fixture.store().save(Self.state) }
        #expect(UserDefaults(suiteName: fixture.suite)!.data(forKey: StoreFixture.defaultsKey) == bytes)
    }
}

/// The sample state's document (as the store writes it), changed in one place.
struct StateDocumentVariant: Sendable, CustomTestStringConvertible {
    let label: String
    /// `true` when the hand-written reader must leave it to the fallback path; `nil` when either is
    /// fine.
    let fallsBack: Bool?
    let make: @Sendable () throws -> Data

    var testDescription: String { label }

    /// Its bytes.
    func bytes() throws -> Data { try make() }

    /// The sample document, unchanged.
    static var original: Data {
        get throws { try UpgradeStateDocument.encode(StateDocumentStrictJSONTests.state) }
    }

    /// The sample document with the one occurrence of `anchor` replaced.
    static func replacing(_ anchor: String, with replacement: String) throws -> Data {
        try replacing(anchor, with: Data(replacement.utf8))
    }

    /// The sample document with the one occurrence of `anchor` replaced by bytes, which need not be
    /// UTF-8.
    static func replacing(_ anchor: String, with replacement: Data) throws -> Data {
        let text = [UInt8](try original)
        let ranges = text.ranges(of: Array(anchor.utf8))
        try #require(ranges.count == 1, "\(anchor) occurs \(ranges.count) times in the sample document")
        var bytes = text
        bytes.replaceSubrange(ranges[0], with: replacement)
        return Data(bytes)
    }

    /// The sample state as one compact line, its keys in reverse order.
    static let reordered =
        #"{"upgradedThrough":"1.2","lastLaunched":"1.4.1","inProgress":null,"history":[{"to":"1.2","time":1700000000.25,"#
        + #""steps":[],"outcome":"upgraded","from":"1.1"},{"to":"1.4.1","time":1700000100.5,"steps":[{"result":"failed","#
        + #""milliseconds":12.5,"id":"move-settings","attempt":2,"abandoned":false}],"outcome":"failed","from":"1.2"}],"#
        + #""format":1,"completed":[{"version":"1.3","id":"appUpgradeTo_1_3"}],"#
        + #""attempts":[{"version":"1.4","interrupted":false,"id":"move-settings","failed":2}],"abandoned":[]}"#

    static let valid: [StateDocumentVariant] = [
        StateDocumentVariant(label: "an escape in a step id", fallsBack: true) {
            try replacing("\"appUpgradeTo_1_3\"", with: #""\u0061ppUpgradeTo_1_3""#)
        },
        StateDocumentVariant(label: "an escape in a history step id", fallsBack: true) {
            try replacing(
                "\"id\" : \"move-settings\",\n          \"milliseconds\"",
                with: "\"id\" : \"move\\u002Dsettings\",\n          \"milliseconds\"")
        },
        StateDocumentVariant(label: "an escaped character in a version", fallsBack: true) {
            try replacing("\"lastLaunched\" : \"1.4.1\"", with: #""lastLaunched" : "1\u002E4.1""#)
        },
        StateDocumentVariant(label: "a byte-order mark", fallsBack: true) {
            Data([0xEF, 0xBB, 0xBF]) + (try original)
        },
        StateDocumentVariant(label: "numbers with exponents", fallsBack: nil) {
            try replacing("\"milliseconds\" : 12.5", with: "\"milliseconds\" : 1.25E1")
        },
        StateDocumentVariant(label: "keys in another order, compact", fallsBack: nil) { Data(reordered.utf8) },
        StateDocumentVariant(label: "tabs and CRLF", fallsBack: nil) {
            Data(
                reordered.replacingOccurrences(of: ",", with: ",\r\n\t").replacingOccurrences(of: ":", with: " :\t")
                    .utf8)
        },
        StateDocumentVariant(label: "keys in another order, with an escape", fallsBack: true) {
            Data(reordered.replacingOccurrences(of: #""from":"1.1""#, with: #""from":"\u0031.1""#).utf8)
        },
    ]
}

/// The sample document made not strict JSON in one place, with the JSON path and the fault the error
/// must name.
struct MalformedStateDocument: Sendable, CustomTestStringConvertible {
    let label: String
    /// The path as the error writes it: `history[1]`, or `the top level`.
    let path: String
    /// The parser's words for the fault.
    let fault: String
    let make: @Sendable () throws -> Data

    var testDescription: String { label }

    /// Its bytes.
    func bytes() throws -> Data { try make() }

    init(_ label: String, at path: String, _ fault: String, _ make: @escaping @Sendable () throws -> Data) {
        self.label = label
        self.path = path
        self.fault = fault
        self.make = make
    }

    /// Replaces the one occurrence of `anchor` in the sample document.
    static func replacing(_ anchor: String, with replacement: String) throws -> Data {
        try StateDocumentVariant.replacing(anchor, with: replacement)
    }

    static let all: [MalformedStateDocument] = [
        // JSONDecoder reads each of these without a word: a duplicate key as one of its values, a
        // trailing comma as if it were not there.
        MalformedStateDocument(
            "duplicate key at the top level", at: "the top level", "duplicate key \"upgradedThrough\""
        ) {
            try replacing(
                "\"upgradedThrough\" : \"1.2\"", with: "\"upgradedThrough\" : \"1.2\",\n  \"upgradedThrough\" : \"9.9\""
            )
        },
        MalformedStateDocument("duplicate key in history", at: "history[1]", "duplicate key \"to\"") {
            try replacing("\"to\" : \"1.4.1\"", with: "\"to\" : \"1.4.1\",\n      \"to\" : \"9.9\"")
        },
        MalformedStateDocument(
            "duplicate key in a history step", at: "history[1].steps[0]", "duplicate key \"attempt\""
        ) {
            try replacing("\"milliseconds\" : 12.5,", with: "\"milliseconds\" : 12.5,\n          \"attempt\" : 1,")
        },
        MalformedStateDocument("duplicate key in attempts", at: "attempts[0]", "duplicate key \"failed\"") {
            try replacing("\"failed\" : 2,", with: "\"failed\" : 2,\n      \"failed\" : 1,")
        },
        MalformedStateDocument("trailing comma in the top object", at: "the top level", "trailing comma before \"}\"") {
            try replacing("\"upgradedThrough\" : \"1.2\"", with: "\"upgradedThrough\" : \"1.2\",")
        },
        MalformedStateDocument("trailing comma in a nested object", at: "attempts[0]", "trailing comma before \"}\"") {
            try replacing("\"version\" : \"1.4\"", with: "\"version\" : \"1.4\",")
        },
        MalformedStateDocument("trailing comma in a list", at: "completed", "trailing comma before \"]\"") {
            try replacing("\"version\" : \"1.3\"\n    }", with: "\"version\" : \"1.3\"\n    },")
        },
        MalformedStateDocument("trailing comma in a nested list", at: "history[1].steps", "trailing comma before \"]\"")
        {
            try replacing("\"result\" : \"failed\"\n        }", with: "\"result\" : \"failed\"\n        },")
        },
        // JSONDecoder rejects these, but only as "The given data was not valid JSON."
        MalformedStateDocument("a line comment", at: "the top level", "unexpected character \"/\"") {
            try replacing("{\n  \"abandoned\"", with: "{\n  // written by hand\n  \"abandoned\"")
        },
        MalformedStateDocument(
            "a block comment", at: "history[1].outcome", "unexpected character \"/\"; expected a value"
        ) {
            try replacing("\"outcome\" : \"failed\"", with: "\"outcome\" : /* retried */ \"failed\"")
        },
        MalformedStateDocument(
            "text after the document", at: "the top level",
            "unexpected character \"{\" after the end of the JSON value"
        ) {
            try StateDocumentVariant.original + Data("\n{\"format\" : 1}\n".utf8)
        },
        MalformedStateDocument("invalid UTF-8 in a string", at: "completed[0].id", "invalid UTF-8 byte 0xFF") {
            try StateDocumentVariant.replacing(
                "\"appUpgradeTo_1_3\"", with: Data("\"appUpgradeTo_1_".utf8) + Data([0xFF]) + Data("3\"".utf8))
        },
        MalformedStateDocument("an overlong UTF-8 sequence", at: "attempts[0].version", "invalid UTF-8 byte 0xC0") {
            try StateDocumentVariant.replacing(
                "\"version\" : \"1.4\"", with: Data("\"version\" : \"1".utf8) + Data([0xC0, 0xAE]) + Data("4\"".utf8))
        },
        MalformedStateDocument(
            "NaN", at: "history[1].steps[0].milliseconds", "unexpected character \"N\"; expected a value"
        ) {
            try replacing("\"milliseconds\" : 12.5", with: "\"milliseconds\" : NaN")
        },
        MalformedStateDocument("Infinity", at: "history[1].time", "unexpected character \"I\"; expected a value") {
            try replacing("\"time\" : 1700000100.5", with: "\"time\" : Infinity")
        },
        MalformedStateDocument("-Infinity", at: "history[0].time", "a number needs a digit after \"-\"") {
            try replacing("\"time\" : 1700000000.25", with: "\"time\" : -Infinity")
        },
        MalformedStateDocument(
            "a lone high surrogate", at: "completed[0].id", "a high surrogate \\uD800 must be followed"
        ) {
            try replacing("\"appUpgradeTo_1_3\"", with: #""appUpgradeTo_\uD8001_3""#)
        },
        MalformedStateDocument("a lone low surrogate", at: "attempts[0].id", "a lone low surrogate \\uDC00") {
            try replacing(
                "\"id\" : \"move-settings\",\n      \"interrupted\"",
                with: "\"id\" : \"move\\uDC00\",\n      \"interrupted\"")
        },
        MalformedStateDocument("a leading zero", at: "format", "a number may not have a leading zero") {
            try replacing("\"format\" : 1,", with: "\"format\" : 01,")
        },
        MalformedStateDocument(
            "a single-quoted string", at: "lastLaunched", "unexpected character \"'\"; expected a value"
        ) {
            try replacing("\"lastLaunched\" : \"1.4.1\"", with: "\"lastLaunched\" : '1.4.1'")
        },
    ]
}
