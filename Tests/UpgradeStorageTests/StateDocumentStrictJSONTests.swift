import Foundation
import StrictJSON
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// A state document must be strict JSON (RFC 8259), in format 2 as in format 1: what `JSONDecoder`
/// takes without a word (one of two duplicate keys, a trailing comma) or rejects without saying where
/// (a comment, `NaN`), `StateDocument` reports as a corrupt document naming the location, the JSON
/// path, the line and the column (<doc:FileStoreGuarantees>, "Nothing replaced unseen": a document
/// that cannot be read is an error naming it and what is wrong), and no store uses or overwrites
/// such a document.
@Suite("State document: strict JSON")
struct StateDocumentStrictJSONTests {
    /// A state with something in most members.
    static let state = UpgradeState(
        upgradedThrough: "1.2", lastLaunched: "1.4.1",
        completed: [StepRecord(id: "appUpgradeTo_1_3", version: "1.3")],
        attempts: [StepAttempts(id: "move-settings", version: "1.4", failed: 2)],
        inProgress: StepInProgress(id: "reindex", version: "1.4.1", attempt: 3))

    @Test("the sample documents read, so that each variant below differs only by its change")
    func samplesRead() throws {
        let current = try StateDocument.decode(StateDocumentSample.current.text, location: "s.json")
        #expect(current.state == Self.state)
        #expect(current.legacyHistory == nil)
        let legacy = try StateDocument.decode(StateDocumentSample.legacy.text, location: "s.json")
        #expect(legacy.state == StateDocumentTests.legacyState)
        #expect(legacy.legacyHistory == StateDocumentTests.legacyHistory)
    }

    @Test(
        "a document that is not strict JSON is corrupt: the error names line, column, JSON path and fault",
        arguments: MalformedStateDocument.all)
    func malformedIsCorrupt(document: MalformedStateDocument) throws {
        let edited = try document.make()
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(edited.bytes, location: "s.json")
        }

        #expect(error?.code == .corrupt)
        #expect(error?.location == "s.json")
        let detail = error?.detail ?? ""
        #expect(detail.hasPrefix("not a valid upgrade state document: at \(document.path) (line "), "\(detail)")
        #expect(detail.contains("): invalid JSON: \(document.fault)"), "\(detail)")
        #expect(detail.hasSuffix(UpgradeStoreError.leftAsItIs), "\(detail)")
        let syntax = try #require(error?.underlying as? JSONSyntaxError)
        #expect(detail.contains("(line \(syntax.line), column \(syntax.column)): invalid JSON: \(syntax.message);"))
        #expect((syntax.path.components.isEmpty ? "the top level" : syntax.path.description) == document.path)
        #expect(edited.lines.contains(syntax.line), "line \(syntax.line), the change is on lines \(edited.lines)")
    }

    @Test("the error reads as one sentence, with the line and column of the fault")
    func wholeMessage() throws {
        let document = try #require(
            MalformedStateDocument.all.first { $0.label == "format 1: duplicate key in history" })
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(try document.make().bytes, location: "/app/upgrade-state.json")
        }
        #expect(
            error?.description
                == "/app/upgrade-state.json: not a valid upgrade state document: at history[2] (line 76, column 7):"
                + " invalid JSON: duplicate key \"to\"; it is left as it is")

        let current = try #require(
            MalformedStateDocument.all.first { $0.label == "duplicate key in a one-line object" })
        let nested = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(try current.make().bytes, location: "/app/upgrade-state.json")
        }
        #expect(
            nested?.description
                == "/app/upgrade-state.json: not a valid upgrade state document: at attempts[0] (line 4, column 19):"
                + " invalid JSON: duplicate key \"failed\"; it is left as it is")

        let empty = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(Data(), location: "s.json")
        }
        #expect(
            empty?.description
                == "s.json: not a valid upgrade state document: at the top level (line 1, column 1): invalid JSON:"
                + " the document is empty; expected a JSON object; it is left as it is")
    }

    @Test(
        "valid documents in other forms read to the same state, and a format-1 one to the same history",
        arguments: StateDocumentVariant.valid)
    func validVariants(variant: StateDocumentVariant) throws {
        let contents = try StateDocument.decode(try variant.bytes(), location: "s.json")
        switch variant.base {
        case .current:
            #expect(contents.state == Self.state)
            #expect(contents.legacyHistory == nil)
        case .legacy:
            #expect(contents.state == StateDocumentTests.legacyState)
            #expect(contents.legacyHistory == StateDocumentTests.legacyHistory)
        }
    }

    @Test(
        "faults in the shape of a pretty document name their JSON path, line and column",
        arguments: [
            (
                StateDocumentSample.current, #""failed": 2,"#, #""failed": "2","#,
                #"at attempts[0].failed (line 4, column 16): expected a whole number, found the string "2""#
            ),
            (
                StateDocumentSample.current, #""lastLaunched": "1.4.1""#, #""lastLaunched": "1.4.x""#,
                "at lastLaunched (line 11, column 19): \(Damage.versionProblem("1.4.x"))"
            ),
            (
                StateDocumentSample.current, #""id": "reindex", "#, #""id": "reindex", "note": null, "#,
                #"at inProgress.note (line 10, column 57): unknown key "note"; the keys here are attempt, id, version"#
            ),
            (
                StateDocumentSample.legacy, #""to" : "2.0""#, #""to" : "2.0.x""#,
                "at history[2].to (line 75, column 14): \(Damage.versionProblem("2.0.x"))"
            ),
            (
                StateDocumentSample.legacy, #""outcome" : "failed""#, #""outcome" : "f\u0061iled!""#,
                #"at history[2].outcome (line 50, column 19): expected one of freshInstall, upToDate, upgraded,"#
                    + #" failed,"#
                    + #" downgraded, cancelled, deferred, found "failed!""#
            ),
        ])
    func shapeFaultsKeepTheirPlace(sample: StateDocumentSample, anchor: String, replacement: String, expected: String)
        throws
    {
        let bytes = try sample.replacing(anchor, with: Data(replacement.utf8)).bytes
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(bytes, location: "s.json")
        }
        #expect(error?.code == .corrupt)
        #expect(
            error?.detail.hasPrefix("not a valid upgrade state document: \(expected)") == true, "\(error?.detail ?? "")"
        )
        #expect(!(error?.underlying is JSONSyntaxError))
    }

    @Test("a newer format is still reported as such, whatever else the document holds")
    func newerFormat() throws {
        for sample in [StateDocumentSample.current, .legacy] {
            let anchor = sample == .current ? #""format": 2,"# : #""format" : 1,"#
            let bytes = try sample.replacing(anchor, with: Data(#""format": 3,"#.utf8)).bytes
            let error = #expect(throws: UpgradeStoreError.self) {
                try StateDocument.decode(bytes, location: "s.json")
            }
            #expect(error?.code == .unsupportedFormat(found: 3, supported: 2))
        }
    }

    @Test(
        "a store holding a document that is not strict JSON reports it, and a launch leaves it exactly as it is",
        arguments: StoreKind.documentStores, MalformedStateDocument.all)
    func storesLeaveItUntouched(kind: StoreKind, document: MalformedStateDocument) async throws {
        let fixture = try StoreFixture(kind)
        let bytes = try document.make().bytes
        try fixture.writeRaw(bytes)
        #expect(fixture.readRaw() == bytes)

        let error = #expect(throws: UpgradeStoreError.self) { try fixture.store().load() }
        #expect(error?.code == .corrupt)
        let description = error?.description ?? ""
        #expect(description.contains(fixture.location), "\(description)")
        #expect(description.contains("at \(document.path) (line "), "\(description)")
        #expect(description.contains("invalid JSON: \(document.fault)"), "\(description)")
        #expect(error?.underlying is JSONSyntaxError)
        let again = #expect(throws: UpgradeStoreError.self) { try fixture.store().loadForLaunch() }
        #expect(again?.description == error?.description)

        let saveError = #expect(throws: UpgradeStoreError.self) { try fixture.store().save(Self.state) }
        #expect(saveError?.code == .corrupt)
        #expect(saveError?.detail.hasSuffix("the new state was not written over it") == true)
        #expect(saveError?.detail.contains("left as it is") == false, "\(saveError?.detail ?? "")")
        let record = LaunchRecord(time: 1_800_000_000, from: "1.4.1", to: "1.5", outcome: .upgraded, steps: [])
        #expect(throws: UpgradeStoreError.self) { try fixture.store().save(Self.state, recording: record) }

        let ran = Locked(0)
        let upgrader = Upgrader(store: try fixture.store()) {
            UpgradeStep("1.5") { ran.increment() }
        }
        let launch = await #expect(throws: UpgradeStoreError.self) {
            _ = try await upgrader.run(currentVersion: "1.5")
        }
        #expect(launch?.code == .corrupt)
        #expect(ran.value == 0)
        #expect(fixture.readRaw() == bytes)
        #expect(try fixture.store().history() == [])
    }

    @Test("the defaults store reads a document stored as data as its bytes, not repaired")
    func defaultsDataIsNotRepaired() throws {
        let fixture = try StoreFixture(.defaults)
        let bytes = try StateDocumentSample.current.replacing(
            "\"appUpgradeTo_1_3\"", with: Data("\"appUpgradeTo_1_".utf8) + Data([0xFF]) + Data("3\"".utf8)
        ).bytes
        let defaults = UserDefaults(suiteName: fixture.suite)!
        defaults.set(bytes, forKey: StoreFixture.defaultsKey)
        let error = #expect(throws: UpgradeStoreError.self) { try fixture.store().load() }
        #expect(error?.code == .corrupt)
        #expect(error?.detail.contains("at completed[0].id (line 7, column ") == true, "\(error?.detail ?? "")")
        #expect(error?.detail.contains("invalid UTF-8 byte 0xFF") == true, "\(error?.detail ?? "")")
        #expect(throws: UpgradeStoreError.self) { try fixture.store().loadForLaunch() }
        #expect(throws: UpgradeStoreError.self) { try fixture.store().save(Self.state) }
        #expect(defaults.data(forKey: StoreFixture.defaultsKey) == bytes)

        // A valid document stored as data reads, and is replaced by a string at the next save.
        defaults.set(try StateDocumentSample.current.text, forKey: StoreFixture.defaultsKey)
        #expect(try fixture.store().load() == Self.state)
        try fixture.store().save(UpgradeState())
        #expect(
            defaults.string(forKey: StoreFixture.defaultsKey)
                == String(decoding: StateDocument.encode(UpgradeState()), as: UTF8.self))
    }
}

/// A sample document to change in one place: the sample state as `StateDocument.encode` writes it, or
/// the format-1 document of `StateDocumentTests.legacyText`.
enum StateDocumentSample: Sendable, CustomTestStringConvertible {
    case current, legacy

    var testDescription: String { self == .current ? "format 2" : "format 1" }

    /// Its bytes.
    var text: Data {
        get throws {
            switch self {
            case .current: StateDocument.encode(StateDocumentStrictJSONTests.state)
            case .legacy: Data(StateDocumentTests.legacyText.utf8)
            }
        }
    }

    /// The sample with the one occurrence of `anchor` replaced by bytes, which need not be UTF-8,
    /// and the lines the change spans in the result (and the line after, where a fault in it may be
    /// found).
    func replacing(_ anchor: String, with replacement: Data) throws -> EditedStateDocument {
        let text = [UInt8](try self.text)
        let ranges = text.ranges(of: Array(anchor.utf8))
        try #require(ranges.count == 1, "\(anchor) occurs \(ranges.count) times in the \(self) sample")
        var bytes = text
        bytes.replaceSubrange(ranges[0], with: replacement)
        let newline = UInt8(ascii: "\n")
        let first = text[..<ranges[0].lowerBound].count { $0 == newline } + 1
        return EditedStateDocument(bytes: Data(bytes), lines: first...(first + replacement.count { $0 == newline } + 1))
    }

    /// The sample with bytes added after it.
    func appending(_ tail: Data) throws -> EditedStateDocument {
        let text = try self.text
        let last = text.count { $0 == UInt8(ascii: "\n") } + 1
        return EditedStateDocument(
            bytes: text + tail, lines: last...(last + tail.count { $0 == UInt8(ascii: "\n") }))
    }
}

/// A sample document after a change, and the lines of the change.
struct EditedStateDocument {
    let bytes: Data
    let lines: ClosedRange<Int>
}

/// A sample document made not strict JSON in one place, with the JSON path and the fault the error
/// must name.
struct MalformedStateDocument: Sendable, CustomTestStringConvertible {
    let label: String
    /// The path as the error writes it: `history[1]`, or `the top level`.
    let path: String
    /// The parser's words for the fault, or their start.
    let fault: String
    let make: @Sendable () throws -> EditedStateDocument

    var testDescription: String { label }

    init(
        _ label: String, at path: String, _ fault: String, _ make: @escaping @Sendable () throws -> EditedStateDocument
    ) {
        self.label = label
        self.path = path
        self.fault = fault
        self.make = make
    }

    /// Replaces the one occurrence of `anchor` in the sample.
    static func replacing(
        _ anchor: String, with replacement: String, in sample: StateDocumentSample = .current
    ) throws -> EditedStateDocument {
        try sample.replacing(anchor, with: Data(replacement.utf8))
    }

    /// Replaces the one occurrence of `anchor` in the sample by `before`, `bytes` and `after`.
    static func replacing(
        _ anchor: String, with before: String, _ bytes: [UInt8], _ after: String,
        in sample: StateDocumentSample = .current
    ) throws -> EditedStateDocument {
        try sample.replacing(anchor, with: Data(before.utf8) + Data(bytes) + Data(after.utf8))
    }

    static let all = current + legacy

    /// Faults in the sample state's format-2 document.
    static let current: [MalformedStateDocument] = [
        // JSONDecoder reads each of these without a word: a duplicate key as one of its values, a
        // trailing comma as if it were not there.
        MalformedStateDocument(
            "duplicate key at the top level", at: "the top level", "duplicate key \"upgradedThrough\""
        ) {
            try replacing(
                "\"upgradedThrough\": \"1.2\"", with: "\"upgradedThrough\": \"1.2\",\n  \"upgradedThrough\": \"9.9\"")
        },
        MalformedStateDocument("duplicate key in a one-line object", at: "attempts[0]", "duplicate key \"failed\"") {
            try replacing("\"failed\": 2,", with: "\"failed\": 2, \"failed\": 1,")
        },
        MalformedStateDocument("duplicate key in inProgress", at: "inProgress", "duplicate key \"attempt\"") {
            try replacing("\"attempt\": 3,", with: "\"attempt\": 3, \"attempt\": 4,")
        },
        MalformedStateDocument("duplicate format, the second newer", at: "the top level", "duplicate key \"format\"") {
            try replacing("\"format\": 2,", with: "\"format\": 2,\n  \"format\": 3,")
        },
        MalformedStateDocument("trailing comma in the top object", at: "the top level", "trailing comma before \"}\"") {
            try replacing("\"upgradedThrough\": \"1.2\"", with: "\"upgradedThrough\": \"1.2\",")
        },
        MalformedStateDocument("trailing comma in a nested object", at: "attempts[0]", "trailing comma before \"}\"") {
            try replacing("\"version\": \"1.4\"}", with: "\"version\": \"1.4\",}")
        },
        MalformedStateDocument("trailing comma in a list", at: "completed", "trailing comma before \"]\"") {
            try replacing("\"version\": \"1.3\"}\n  ]", with: "\"version\": \"1.3\"},\n  ]")
        },
        MalformedStateDocument(
            "a comma in an empty list", at: "abandoned[0]", "unexpected character \",\"; expected a value"
        ) {
            try replacing("\"abandoned\": []", with: "\"abandoned\": [,]")
        },
        // JSONDecoder rejects these, but only as "The given data was not valid JSON."
        MalformedStateDocument("a line comment", at: "the top level", "unexpected character \"/\"") {
            try replacing("{\n  \"abandoned\"", with: "{\n  // written by hand\n  \"abandoned\"")
        },
        MalformedStateDocument(
            "a block comment", at: "lastLaunched", "unexpected character \"/\"; expected a value"
        ) {
            try replacing("\"lastLaunched\": \"1.4.1\"", with: "\"lastLaunched\": /* by hand */ \"1.4.1\"")
        },
        MalformedStateDocument(
            "text after the document", at: "the top level",
            "unexpected character \"{\" after the end of the JSON value"
        ) {
            try StateDocumentSample.current.appending(Data("{\"format\": 2}\n".utf8))
        },
        MalformedStateDocument("a NUL byte after the document", at: "the top level", "unexpected") {
            try StateDocumentSample.current.appending(Data([0]))
        },
        MalformedStateDocument("invalid UTF-8 in a string", at: "completed[0].id", "invalid UTF-8 byte 0xFF") {
            try replacing("\"appUpgradeTo_1_3\"", with: "\"appUpgradeTo_1_", [0xFF], "3\"")
        },
        MalformedStateDocument("an overlong UTF-8 sequence", at: "attempts[0].version", "invalid UTF-8 byte 0xC0") {
            try replacing("\"version\": \"1.4\"}", with: "\"version\": \"1", [0xC0, 0xAE], "4\"}")
        },
        MalformedStateDocument("a surrogate encoded in UTF-8", at: "inProgress.id", "invalid UTF-8 sequence") {
            try replacing("\"reindex\"", with: "\"re", [0xED, 0xA0, 0x80], "index\"")
        },
        MalformedStateDocument("a truncated UTF-8 sequence", at: "inProgress.id", "invalid UTF-8 sequence") {
            try replacing("\"reindex\"", with: "\"re", [0xE2, 0x82], "index\"")
        },
        MalformedStateDocument("NaN", at: "inProgress.attempt", "unexpected character \"N\"; expected a value") {
            try replacing("\"attempt\": 3", with: "\"attempt\": NaN")
        },
        MalformedStateDocument("Infinity", at: "attempts[0].failed", "unexpected character \"I\"; expected a value") {
            try replacing("\"failed\": 2", with: "\"failed\": Infinity")
        },
        MalformedStateDocument("-Infinity", at: "attempts[0].failed", "a number needs a digit after \"-\"") {
            try replacing("\"failed\": 2", with: "\"failed\": -Infinity")
        },
        MalformedStateDocument(
            "a lone high surrogate", at: "completed[0].id", "a high surrogate \\uD800 must be followed"
        ) {
            try replacing("\"appUpgradeTo_1_3\"", with: #""appUpgradeTo_\uD8001_3""#)
        },
        MalformedStateDocument("a lone low surrogate", at: "attempts[0].id", "a lone low surrogate \\uDC00") {
            try replacing("\"move-settings\"", with: #""move\uDC00""#)
        },
        MalformedStateDocument("a leading zero", at: "format", "a number may not have a leading zero") {
            try replacing("\"format\": 2,", with: "\"format\": 02,")
        },
        MalformedStateDocument("a plus sign", at: "inProgress.attempt", "unexpected character \"+\"; expected a value")
        {
            try replacing("\"attempt\": 3", with: "\"attempt\": +3")
        },
        MalformedStateDocument("a capitalized literal", at: "attempts[0].interrupted", "unexpected character \"F\"") {
            try replacing("\"interrupted\": false", with: "\"interrupted\": False")
        },
        MalformedStateDocument(
            "a single-quoted string", at: "lastLaunched", "unexpected character \"'\"; expected a value"
        ) {
            try replacing("\"lastLaunched\": \"1.4.1\"", with: "\"lastLaunched\": '1.4.1'")
        },
        MalformedStateDocument(
            "an unquoted key", at: "the top level", "unexpected character \"f\"; expected a key in double quotes"
        ) {
            try replacing("\"format\": 2,", with: "format: 2,")
        },
        MalformedStateDocument(
            "a missing comma", at: "the top level", #"unexpected character """; expected "," or "}""#
        ) {
            try replacing("\"format\": 2,", with: "\"format\": 2")
        },
        MalformedStateDocument("a raw tab in a string", at: "inProgress.id", "control character") {
            try replacing("\"reindex\"", with: "\"re\tindex\"")
        },
        MalformedStateDocument("an invalid escape", at: "inProgress.id", #"invalid escape "\x""#) {
            try replacing("\"reindex\"", with: #""re\xindex""#)
        },
        MalformedStateDocument("cut short inside a string", at: "upgradedThrough", "unexpected end of the document") {
            try replacing("\"1.2\"\n}\n", with: "\"1.")
        },
        MalformedStateDocument("cut short after a value", at: "the top level", "unexpected end of the document") {
            try replacing("\"1.2\"\n}\n", with: "\"1.2\"\n")
        },
    ]

    /// Faults in the format-1 document, most of them in its history.
    static let legacy: [MalformedStateDocument] = [
        MalformedStateDocument("format 1: duplicate key in history", at: "history[2]", "duplicate key \"to\"") {
            try replacing("\"to\" : \"2.0\"", with: "\"to\" : \"2.0\",\n      \"to\" : \"9.9\"", in: .legacy)
        },
        MalformedStateDocument(
            "format 1: duplicate key in a history step", at: "history[2].steps[2]", "duplicate key \"attempt\""
        ) {
            try replacing(
                "\"milliseconds\" : 12.25,", with: "\"milliseconds\" : 12.25,\n          \"attempt\" : 1,", in: .legacy)
        },
        MalformedStateDocument("format 1: a second history", at: "the top level", "duplicate key \"history\"") {
            try replacing("\"format\" : 1,", with: "\"format\" : 1,\n  \"history\" : [],", in: .legacy)
        },
        MalformedStateDocument(
            "format 1: trailing comma in a list of steps", at: "history[2].steps", "trailing comma before \"]\""
        ) {
            try replacing(
                "\"result\" : \"failed\"\n        }", with: "\"result\" : \"failed\"\n        },", in: .legacy)
        },
        MalformedStateDocument(
            "format 1: NaN", at: "history[2].steps[2].milliseconds", "unexpected character \"N\"; expected a value"
        ) {
            try replacing("\"milliseconds\" : 12.25", with: "\"milliseconds\" : NaN", in: .legacy)
        },
        MalformedStateDocument(
            "format 1: Infinity", at: "history[2].time", "unexpected character \"I\"; expected a value"
        ) {
            try replacing("\"time\" : 1795978100.5", with: "\"time\" : Infinity", in: .legacy)
        },
        MalformedStateDocument("format 1: -Infinity", at: "history[0].time", "a number needs a digit after \"-\"") {
            try replacing("\"time\" : 1795978028.9708903", with: "\"time\" : -Infinity", in: .legacy)
        },
        MalformedStateDocument(
            "format 1: a block comment", at: "history[2].outcome", "unexpected character \"/\"; expected a value"
        ) {
            try replacing("\"outcome\" : \"failed\"", with: "\"outcome\" : /* retried */ \"failed\"", in: .legacy)
        },
        MalformedStateDocument(
            "format 1: a number ending with a point", at: "history[2].steps[0].milliseconds",
            "a number needs a digit after \".\""
        ) {
            try replacing("\"milliseconds\" : 3.5", with: "\"milliseconds\" : 3.", in: .legacy)
        },
        MalformedStateDocument(
            "format 1: invalid UTF-8 in a step id", at: "history[2].steps[0].id", "invalid UTF-8 byte 0xFF"
        ) {
            try replacing(
                "\"id\" : \"migrate/photos\",\n          \"milliseconds\"", with: "\"id\" : \"migrate/", [0xFF],
                "photos\",\n          \"milliseconds\"", in: .legacy)
        },
    ]
}

/// A sample document in another valid form.
struct StateDocumentVariant: Sendable, CustomTestStringConvertible {
    let label: String
    let base: StateDocumentSample
    let make: @Sendable () throws -> Data

    var testDescription: String { label }

    /// Its bytes.
    func bytes() throws -> Data { try make() }

    init(_ label: String, _ base: StateDocumentSample = .current, _ make: @escaping @Sendable () throws -> Data) {
        self.label = label
        self.base = base
        self.make = make
    }

    /// The sample with the one occurrence of `anchor` replaced.
    static func replacing(_ anchor: String, with replacement: String, in sample: StateDocumentSample = .current)
        throws -> Data
    {
        try sample.replacing(anchor, with: Data(replacement.utf8)).bytes
    }

    /// The sample state as one compact line, its keys in reverse order.
    static let reordered =
        #"{"upgradedThrough":"1.2","lastLaunched":"1.4.1","inProgress":{"version":"1.4.1","id":"reindex","#
        + #""attempt":3},"format":2,"completed":[{"version":"1.3","id":"appUpgradeTo_1_3"}],"#
        + #""attempts":[{"version":"1.4","interrupted":false,"id":"move-settings","failed":2}],"abandoned":[]}"#

    /// The sample state as the old writer wrote a document (JSONEncoder's layout), in format 2.
    static let oldLayout = """
        {
          "abandoned" : [

          ],
          "attempts" : [
            {
              "failed" : 2,
              "id" : "move-settings",
              "interrupted" : false,
              "version" : "1.4"
            }
          ],
          "completed" : [
            {
              "id" : "appUpgradeTo_1_3",
              "version" : "1.3"
            }
          ],
          "format" : 2,
          "inProgress" : {
            "attempt" : 3,
            "id" : "reindex",
            "version" : "1.4.1"
          },
          "lastLaunched" : "1.4.1",
          "upgradedThrough" : "1.2"
        }
        """

    static let valid: [StateDocumentVariant] = [
        StateDocumentVariant("an escape in a step id") {
            try replacing("\"appUpgradeTo_1_3\"", with: #""\u0061ppUpgradeTo_1_3""#)
        },
        StateDocumentVariant("an escape in the running step's id") {
            try replacing("\"reindex\"", with: #""\u0072eindex""#)
        },
        StateDocumentVariant("an escaped character in a version") {
            try replacing("\"lastLaunched\": \"1.4.1\"", with: #""lastLaunched": "1\u002E4.1""#)
        },
        StateDocumentVariant("a byte-order mark") {
            Data([0xEF, 0xBB, 0xBF]) + (try StateDocumentSample.current.text)
        },
        StateDocumentVariant("no final line break") { try StateDocumentSample.current.text.dropLast() },
        StateDocumentVariant("keys in another order, compact") { Data(reordered.utf8) },
        StateDocumentVariant("tabs and CRLF") {
            Data(
                reordered.replacingOccurrences(of: ",", with: ",\r\n\t").replacingOccurrences(of: ":", with: " :\t")
                    .utf8)
        },
        StateDocumentVariant("keys in another order, with an escape") {
            Data(reordered.replacingOccurrences(of: #""id":"reindex""#, with: #""id":"\u0072eindex""#).utf8)
        },
        StateDocumentVariant("the old writer's layout") { Data(oldLayout.utf8) },
        StateDocumentVariant("format 1: numbers with exponents", .legacy) {
            try replacing(
                "\"milliseconds\" : 12.25", with: "\"milliseconds\" : 1.225E1", in: .legacy)
        },
        StateDocumentVariant("format 1: a time with a negative exponent", .legacy) {
            try replacing("\"time\" : 1795978100.5", with: "\"time\" : 17959781005e-1", in: .legacy)
        },
        StateDocumentVariant("format 1: an escaped slash", .legacy) {
            try replacing(
                "\"id\" : \"migrate/photos\",\n          \"milliseconds\"",
                with: "\"id\" : \"migrate\\/photos\",\n          \"milliseconds\"", in: .legacy)
        },
        StateDocumentVariant("format 1: compact", .legacy) {
            let value = try JSONParser.parse(Array(StateDocumentTests.legacyText.utf8))
            return Data(JSONWriter.compact(value).utf8)
        },
    ]
}
