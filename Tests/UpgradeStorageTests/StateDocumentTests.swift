import Foundation
import StrictJSON
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// The state document through `StateDocument`: what it writes (format 2, every key present), that
/// what it writes reads back, that every fault in a document is an error naming its JSON path, line
/// and column, that a newer format is reported as such, and that format 1 (with the history inside)
/// is still read, and moved to format 2 by each document store at its next write.
@Suite("State document")
struct StateDocumentTests {
    static let location = "test-state.json"

    /// A state with something in every member.
    static let full = UpgradeState(
        upgradedThrough: "1.2", lastLaunched: "2.0.1",
        completed: [StepRecord(id: "a", version: "1.5"), StepRecord(id: "b", version: "2.0")],
        abandoned: [StepRecord(id: "c", version: "1.6")],
        attempts: [StepAttempts(id: "d", version: "2.0.1", failed: 2, lastAttemptInterrupted: true)],
        inProgress: StepInProgress(id: "d", version: "2.0.1", attempt: 3))

    /// `full` as `StateDocument.encode` writes it, without the final line break.
    static let fullText = """
        {
          "abandoned": [
            {"id": "c", "version": "1.6"}
          ],
          "attempts": [
            {"failed": 2, "id": "d", "interrupted": true, "version": "2.0.1"}
          ],
          "completed": [
            {"id": "a", "version": "1.5"},
            {"id": "b", "version": "2.0"}
          ],
          "format": 2,
          "inProgress": {"attempt": 3, "id": "d", "version": "2.0.1"},
          "lastLaunched": "2.0.1",
          "upgradedThrough": "1.2"
        }
        """

    /// Strings and numbers at the edges of what the document holds.
    static let unusual = UpgradeState(
        upgradedThrough: "0.0.1", lastLaunched: "10.20.30",
        completed: [
            StepRecord(id: #"quote" back\slash /slash"#, version: "1.0"),
            StepRecord(id: "tab\t newline\n nul\u{0} bell\u{7} del\u{7F}", version: "1.0.0"),
        ],
        abandoned: [
            StepRecord(id: "café ☕︎ 🎉 \u{2028}\u{2029}", version: "2147483647.0"), StepRecord(id: "", version: "1.1"),
        ],
        attempts: [StepAttempts(id: "x", version: "2.0", failed: .max, lastAttemptInterrupted: false)],
        inProgress: StepInProgress(id: "\u{FEFF}bom", version: "2.0", attempt: .max))

    @Test("the document is pretty, keys sorted, \"key\": value, short objects on one line, a final line break")
    func writtenForm() {
        #expect(String(decoding: StateDocument.encode(Self.full), as: UTF8.self) == Self.fullText + "\n")
    }

    /// States whose objects are on either side of the one-line limit of pretty output (100
    /// characters): a record with a 72-character id and the version 1.0 takes exactly 100, in ASCII,
    /// in two-byte characters and in characters of several scalars.
    static let atTheOneLineLimit: [UpgradeState] = [72, 73].flatMap { length in
        [
            String(repeating: "a", count: length), String(repeating: "é", count: length),
            String(repeating: "e\u{301}", count: length), String(repeating: "\"", count: length - 36),
        ]
        .map { id in
            UpgradeState(
                upgradedThrough: "1.0", lastLaunched: "1.0",
                completed: [StepRecord(id: id, version: "1.0"), StepRecord(id: "b", version: "1.0.1")],
                abandoned: [StepRecord(id: id, version: "1.0")],
                attempts: [StepAttempts(id: id, version: "1.0", failed: 1, lastAttemptInterrupted: false)],
                inProgress: StepInProgress(id: id, version: "1.0", attempt: 1))
        }
    }

    @Test(
        "the document is JSONWriter.pretty's layout of itself, byte for byte",
        arguments: [full, unusual, UpgradeState(), UpgradeState(upgradedThrough: "8.8", lastLaunched: "8.8")]
            + atTheOneLineLimit + [
                UpgradeState(
                    completed: [
                        StepRecord(id: String(repeating: "a", count: 50), version: "999999999.999999999.999999999"),
                        StepRecord(id: "b", version: "1000000000.0"), StepRecord(id: "c", version: "0.0.0"),
                    ])
            ])
    func layoutOfPrettyOutput(state: UpgradeState) throws {
        let bytes = Array(StateDocument.encode(state))
        let parsed = try JSONParser.parse(bytes)
        #expect(bytes == Array((JSONWriter.pretty(parsed) + "\n").utf8))
        #expect(try StateDocument.decode(Data(bytes), location: Self.location).state == state)
    }

    @Test(
        "a state survives a round trip through its document, which writes the same bytes again",
        arguments: [full, unusual, UpgradeState(), UpgradeState(upgradedThrough: "8.8", lastLaunched: "8.8")])
    func roundTrip(state: UpgradeState) throws {
        let data = StateDocument.encode(state)
        let contents = try StateDocument.decode(data, location: Self.location)
        #expect(contents.state == state)
        #expect(contents.legacyHistory == nil)
        #expect(StateDocument.encode(contents.state) == data)
        // Every string written back as it was, byte for byte.
        #expect(contents.state.completed.map(\.id) == state.completed.map(\.id))
        #expect(contents.state.abandoned.map(\.id) == state.abandoned.map(\.id))
        #expect(contents.state.inProgress?.id == state.inProgress?.id)
    }

    @Test("versions keep their written form; 8.8 and 8.8.0 stay distinct in text, equal in value")
    func versionForms() throws {
        let state = UpgradeState(
            upgradedThrough: "8.8", lastLaunched: "8.8.0", completed: [StepRecord(id: "a", version: "9.0.0")],
            attempts: [StepAttempts(id: "b", version: "9.1", failed: 1)],
            inProgress: StepInProgress(id: "b", version: "9.1.0", attempt: 2))
        let data = StateDocument.encode(state)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""upgradedThrough": "8.8""#))
        #expect(text.contains(#""lastLaunched": "8.8.0""#))
        let decoded = try StateDocument.decode(data, location: Self.location).state
        #expect(decoded.upgradedThrough?.description == "8.8")
        #expect(decoded.lastLaunched?.description == "8.8.0")
        #expect(decoded.upgradedThrough == decoded.lastLaunched)
        #expect(decoded.completed.map(\.version.description) == ["9.0.0"])
        #expect(decoded.attempts.map(\.version.description) == ["9.1"])
        #expect(decoded.inProgress?.version.description == "9.1.0")
    }

    @Test("the document has every key, null for an absent value, format 2 and no history")
    func everyKeyPresent() throws {
        let empty = try Self.object(StateDocument.encode(UpgradeState()))
        #expect(empty.entries.map(\.key) == Self.topLevelKeys)
        #expect(empty["format"] == .integer(2))
        #expect(StateDocument.format == 2)
        #expect(empty["upgradedThrough"] == .null)
        #expect(empty["lastLaunched"] == .null)
        #expect(empty["inProgress"] == .null)
        for key in ["completed", "abandoned", "attempts"] { #expect(empty[key] == .array([])) }

        let full = try Self.object(StateDocument.encode(Self.full))
        #expect(full.entries.map(\.key) == Self.topLevelKeys)
        func keys(_ value: JSONValue?) -> [String] {
            guard case .object(let object)? = value else { return [] }
            return object.entries.map(\.key)
        }
        func first(_ key: String) -> JSONValue? {
            guard case .array(let elements)? = full[key] else { return nil }
            return elements.first
        }
        #expect(keys(first("completed")) == ["id", "version"])
        #expect(keys(first("abandoned")) == ["id", "version"])
        #expect(keys(first("attempts")) == ["failed", "id", "interrupted", "version"])
        #expect(keys(full["inProgress"]) == ["attempt", "id", "version"])
    }

    @Test("an uncounted interruption reads and writes as failed 0 with interrupted; failed 0 alone is corrupt")
    func uncountedInterruption() throws {
        let state = UpgradeState(
            upgradedThrough: "1.0", lastLaunched: "1.1",
            attempts: [StepAttempts(id: "a", version: "1.1", failed: 0, lastAttemptInterrupted: true)])
        let encoded = StateDocument.encode(state)
        #expect(
            String(decoding: encoded, as: UTF8.self).contains(
                #"{"failed": 0, "id": "a", "interrupted": true, "version": "1.1"}"#))
        #expect(try StateDocument.decode(encoded, location: Self.location).state == state)
        #expect(try Self.object(encoded)["format"] == .integer(2))

        let alone = String(decoding: encoded, as: UTF8.self).replacingOccurrences(of: "true", with: "false")
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(Data(alone.utf8), location: Self.location)
        }
        #expect(error?.code == .corrupt)
        #expect(error?.detail.contains(#"a failed-attempt count of 0 is only valid with "interrupted": true"#) == true)
        #expect(error?.detail.contains("attempts[0].failed") == true)
    }

    /// The keys of a format-2 document, in the order written.
    static let topLevelKeys = [
        "abandoned", "attempts", "completed", "format", "inProgress", "lastLaunched", "upgradedThrough",
    ]

    /// A document's top-level object.
    static func object(_ data: Data) throws -> JSONObject {
        guard case .object(let object) = try JSONParser.parse([UInt8](data)) else {
            Issue.record("not an object: \(String(decoding: data, as: UTF8.self))")
            return JSONObject()
        }
        return object
    }

    // MARK: - Damage to the shape of a document

    @Test("strict decoding: every damage is an error naming its JSON path, line and column", arguments: Damage.all)
    func strictDecoding(damage: Damage) throws {
        let text = try damage.document()
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(Data(text.utf8), location: Self.location)
        }
        #expect(error?.code == .corrupt)
        #expect(error?.location == Self.location)
        let detail = error?.detail ?? ""
        let position = try #require(detail.firstMatch(of: /\(line (\d+), column (\d+)\)/), "\(detail)")
        #expect(
            detail
                == "not a valid upgrade state document: at \(damage.path) \(position.output.0): \(damage.message)"
                + UpgradeStoreError.leftAsItIs)
        #expect(error?.description == "\(Self.location): \(detail)")
        // The line and column are those of the damaged value (of the object, for a missing key).
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(Int(position.output.1))
        let column = try #require(Int(position.output.2))
        try #require(line >= 1 && line <= lines.count, "\(detail)")
        let found = lines[line - 1].dropFirst(column - 1).first
        #expect(found == damage.pointsAt, "\(detail) in\n\(text)")
    }

    @Test("the error for damage reads as one sentence, with the line and column of the fault")
    func wholeMessage() throws {
        var value = try JSONParser.parse([UInt8](StateDocument.encode(Self.full)))
        value.change(at: "completed[1].note") { $0 = .string("x") }
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(Data(JSONWriter.pretty(value).utf8), location: "/app/upgrade-state.json")
        }
        #expect(
            error?.description
                == "/app/upgrade-state.json: not a valid upgrade state document: at completed[1].note (line 10, column"
                + #" 43): unknown key "note"; the keys here are id, version; it is left as it is"#)
    }

    /// Found by `upgrade-fuzz state-document` (Fuzz/corpus/state-document/regression-several-unknown-keys.json):
    /// with several unknown keys, the old reader named now one, now another. The strict reader keeps
    /// the keys in the order written and names the first.
    @Test(
        "with several unknown keys, the same document always names the same one: the first written",
        arguments: [
            (
                #"{"format":2,"q":0,"b":0,"x":0,"m":0,"a":0,"z":0,"k":0,"d":0}"#,
                #"at q (line 1, column 17): unknown key "q""#
            ),
            (
                #"{"format":1,"q":0,"b":0,"x":0,"m":0,"a":0,"z":0,"k":0,"d":0}"#,
                #"at q (line 1, column 17): unknown key "q""#
            ),
            (
                #"{"format":2,"upgradedThrough":null,"lastLaunched":null,"abandoned":[],"attempts":[],"#
                    + #""completed":[{"id":"s","version":"1.0","q":0,"b":0,"x":0,"m":0,"a":0,"z":0,"k":0,"d":0}],"#
                    + #""inProgress":null}"#,
                #"at completed[0].q (line 1, column 128): unknown key "q""#
            ),
            (
                #"{"format":1,"upgradedThrough":null,"lastLaunched":null,"abandoned":[],"attempts":[],"#
                    + #""completed":[],"inProgress":null,"history":[{"time":1,"from":null,"to":"1.0","#
                    + #""outcome":"upgraded","steps":[{"id":"s","attempt":1,"result":"completed","abandoned":false,"#
                    + #""milliseconds":1,"q":0,"b":0,"x":0,"m":0,"a":0,"z":0,"k":0,"d":0}]}]}"#,
                #"at history[0].steps[0].q (line 1, column 274): unknown key "q""#
            ),
        ])
    func severalUnknownKeys(document: String, expected: String) {
        var details: Set<String> = []
        for _ in 0..<20 {
            do throws(UpgradeStoreError) {
                _ = try StateDocument.decode(Data(document.utf8), location: "s.json")
            } catch {
                details.insert(error.detail)
            }
        }
        #expect(details.count == 1, "\(details)")
        #expect(details.first?.contains(expected) == true, "\(details)")
    }

    // MARK: - Newer formats, bytes that are not JSON, size

    @Test(
        "a newer format is reported as such, before its shape is read",
        arguments: [
            #"{"format": 3}"#, #"{"format": 3, "somethingNew": [1, 2, 3]}"#,
            #"{"upgradedThrough": 12, "history": "x", "format": 3, "completed": null}"#,
            #"{"format": 3, "abandoned": [], "attempts": [], "completed": [], "inProgress": null,"#
                + #" "lastLaunched": null, "upgradedThrough": null}"#,
        ])
    func newerFormat(document: String) {
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(Data(document.utf8), location: "s.json")
        }
        #expect(error?.code == .unsupportedFormat(found: 3, supported: 2))
        #expect(error?.location == "s.json")
        #expect(
            error?.detail
                == "the state has format 3, but this version of AppUpgrade reads format 2 at most; it was written by a"
                + " newer version of the app; it is left as it is")
    }

    @Test("a much newer format says its number")
    func muchNewerFormat() {
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(Data(#"{"format": 4096}"#.utf8), location: "s.json")
        }
        #expect(error?.code == .unsupportedFormat(found: 4096, supported: 2))
        #expect(error?.detail.contains("format 4096") == true)
    }

    @Test(
        "a newer format that is not strict JSON, or not an object, is corrupt: the syntax is read first",
        arguments: [
            (
                #"{"format": 3, "format": 3}"#,
                #"at the top level (line 1, column 15): invalid JSON: duplicate key "format""#
            ),
            (#"{"format": 3,}"#, #"at the top level (line 1, column 14): invalid JSON: trailing comma before "}""#),
            (#"{"format": 3} x"#, "at the top level (line 1, column 15): invalid JSON: unexpected character"),
            (#"[{"format": 3}]"#, "at the top level (line 1, column 1): expected an object, found a list"),
            (#"{"format": 3.0}"#, "at format (line 1, column 12): expected a whole number, found the number 3.0"),
            (#"{"format": "3"}"#, #"at format (line 1, column 12): expected a whole number, found the string "3""#),
        ])
    func newerFormatMustParse(document: String, expected: String) {
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(Data(document.utf8), location: "s.json")
        }
        #expect(error?.code == .corrupt)
        #expect(
            error?.detail.hasPrefix("not a valid upgrade state document: \(expected)") == true, "\(error?.detail ?? "")"
        )
    }

    /// Bytes that are not a JSON document, and the fault the error must name. Kept as `[UInt8]`, not
    /// `Data`: LeakSanitizer cannot follow a `Data` held by a global (its storage pointer carries the
    /// enum's case bits) and reports it as leaked at exit.
    static let notJSONDocuments: [(label: String, bytes: [UInt8], fault: String)] = [
        ("empty", [], "the document is empty; expected a JSON object"),
        ("only white space", Array(" \n\t\r\n".utf8), "the document is empty; expected a JSON object"),
        ("cut short", Array(#"{"format": 2,"#.utf8), "unexpected end of the document"),
        ("cut inside a string", Array(#"{"format": 2, "lastLa"#.utf8), "unexpected end of the document"),
        ("plain text", Array("upgraded through 1.2".utf8), #"unexpected character "u"; expected a value"#),
        ("a property list", Array(#"<?xml version="1.0"?><plist><dict/></plist>"#.utf8), #"unexpected character "<""#),
        ("binary", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "unexpected character"),
        (
            "UTF-16",
            [0xFF, 0xFE] + #"{"format": 2}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
            "unexpected character"
        ),
        (
            "nested too deep",
            Array((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8),
            "nested more than 256 deep"
        ),
    ]

    @Test("bytes that are not JSON are a corrupt document, naming the fault", arguments: notJSONDocuments)
    func notJSON(label: String, bytes: [UInt8], fault: String) {
        let error = #expect(throws: UpgradeStoreError.self) {
            try StateDocument.decode(Data(bytes), location: "s.json")
        }
        #expect(error?.code == .corrupt)
        let detail = error?.detail ?? ""
        #expect(detail.hasPrefix("not a valid upgrade state document: at "), "\(detail)")
        #expect(detail.contains("invalid JSON: "), "\(detail)")
        #expect(detail.contains(fault), "\(detail)")
        #expect(detail.hasSuffix(UpgradeStoreError.leftAsItIs), "\(detail)")
        #expect(error?.underlying is JSONSyntaxError)
    }

    @Test("a document larger than 8 MiB is corrupt, whatever it holds, and says its size")
    func tooLarge() throws {
        let padded =
            StateDocument.encode(Self.full) + Data(repeating: UInt8(ascii: " "), count: StateDocument.maximumSize)
        let error = #expect(throws: UpgradeStoreError.self) { try StateDocument.decode(padded, location: "s.json") }
        #expect(error?.code == .corrupt)
        #expect(
            error?.detail
                == "not a valid upgrade state document: it is \(padded.count) bytes, more than the 8 MiB a state"
                + " document can be; it is left as it is")
        #expect(StateDocument.maximumSize == 8 << 20)

        // A document of exactly the largest size is read.
        let largest = padded.prefix(StateDocument.maximumSize)
        #expect(try StateDocument.decode(Data(largest), location: "s.json").state == Self.full)
    }

    // MARK: - Format 1

    /// A format-1 document as the old code wrote it (JSONEncoder with sorted keys, pretty-printed,
    /// slashes unescaped; an empty list as `[`, a blank line and `]`; no final line break), with the
    /// history of three launches inside it.
    static let legacyText = """
        {
          "abandoned" : [
            {
              "id" : "reindex",
              "version" : "1.8"
            }
          ],
          "attempts" : [
            {
              "failed" : 1,
              "id" : "move-settings",
              "interrupted" : false,
              "version" : "2.0"
            }
          ],
          "completed" : [
            {
              "id" : "migrate/photos",
              "version" : "1.5"
            }
          ],
          "format" : 1,
          "history" : [
            {
              "from" : null,
              "outcome" : "freshInstall",
              "steps" : [

              ],
              "time" : 1795978028.9708903,
              "to" : "1.0"
            },
            {
              "from" : "1.0",
              "outcome" : "upgraded",
              "steps" : [
                {
                  "abandoned" : false,
                  "attempt" : 1,
                  "id" : "appUpgradeTo_1_2",
                  "milliseconds" : 0.006129,
                  "result" : "completed"
                }
              ],
              "time" : 1795978036.162129,
              "to" : "1.2.0"
            },
            {
              "from" : "1.2.0",
              "outcome" : "failed",
              "steps" : [
                {
                  "abandoned" : false,
                  "attempt" : 1,
                  "id" : "migrate/photos",
                  "milliseconds" : 3.5,
                  "result" : "completed"
                },
                {
                  "abandoned" : true,
                  "attempt" : 0,
                  "id" : "reindex",
                  "milliseconds" : 0,
                  "result" : "notRun"
                },
                {
                  "abandoned" : false,
                  "attempt" : 1,
                  "id" : "move-settings",
                  "milliseconds" : 12.25,
                  "result" : "failed"
                }
              ],
              "time" : 1795978100.5,
              "to" : "2.0"
            }
          ],
          "inProgress" : {
            "attempt" : 2,
            "id" : "move-settings",
            "version" : "2.0"
          },
          "lastLaunched" : "2.0",
          "upgradedThrough" : "1.2.0"
        }
        """

    /// The state of `legacyText`.
    static let legacyState = UpgradeState(
        upgradedThrough: "1.2.0", lastLaunched: "2.0", completed: [StepRecord(id: "migrate/photos", version: "1.5")],
        abandoned: [StepRecord(id: "reindex", version: "1.8")],
        attempts: [StepAttempts(id: "move-settings", version: "2.0", failed: 1)],
        inProgress: StepInProgress(id: "move-settings", version: "2.0", attempt: 2))

    /// The history of `legacyText`, oldest first.
    static let legacyHistory = [
        LaunchRecord(time: 1_795_978_028.970_890_3, from: nil, to: "1.0", outcome: .freshInstall, steps: []),
        LaunchRecord(
            time: 1_795_978_036.162_129, from: "1.0", to: "1.2.0", outcome: .upgraded,
            steps: [
                .init(id: "appUpgradeTo_1_2", attempt: 1, result: .completed, abandoned: false, milliseconds: 0.006129)
            ]),
        LaunchRecord(
            time: 1_795_978_100.5, from: "1.2.0", to: "2.0", outcome: .failed,
            steps: [
                .init(id: "migrate/photos", attempt: 1, result: .completed, abandoned: false, milliseconds: 3.5),
                .init(id: "reindex", attempt: 0, result: .notRun, abandoned: true, milliseconds: 0),
                .init(id: "move-settings", attempt: 1, result: .failed, abandoned: false, milliseconds: 12.25),
            ]),
    ]

    @Test("a format-1 document reads to its state and, apart, its history")
    func legacyDocument() throws {
        let contents = try StateDocument.decode(Data(Self.legacyText.utf8), location: Self.location)
        #expect(contents.state == Self.legacyState)
        #expect(contents.legacyHistory == Self.legacyHistory)
        // Versions keep their written form there too.
        #expect(contents.state.upgradedThrough?.description == "1.2.0")
        #expect(contents.legacyHistory?.map { $0.from?.description } == [nil, "1.0", "1.2.0"])
        #expect(contents.legacyHistory?.map(\.to.description) == ["1.0", "1.2.0", "2.0"])

        // Its state writes as format 2, without the history.
        let rewritten = StateDocument.encode(contents.state)
        #expect(try Self.object(rewritten).entries.map(\.key) == Self.topLevelKeys)
        let again = try StateDocument.decode(rewritten, location: Self.location)
        #expect(again.state == Self.legacyState)
        #expect(again.legacyHistory == nil)
    }

    @Test(
        "format-1 documents in other forms read too; an empty history is an empty history, not none",
        arguments: [
            (
                #"{"format":1,"upgradedThrough":"1.2","lastLaunched":"1.2.0","completed":[],"abandoned":[],"#
                    + #""attempts":[],"inProgress":null,"history":[]}"#, 0
            ),
            (
                #"{"history":[{"to":"1.2","time":1.5e9,"steps":[{"result":"notRun","milliseconds":-0.0,"#
                    + #""id":"s","attempt":0,"abandoned":true}],"outcome":"upgraded","from":null}],"#
                    + #""upgradedThrough":"1.2","lastLaunched":"1.2.0","inProgress":null,"format":1,"#
                    + #""completed":[],"attempts":[],"abandoned":[]}"#, 1
            ),
        ])
    func legacyForms(document: String, launches: Int) throws {
        let contents = try StateDocument.decode(Data(document.utf8), location: Self.location)
        #expect(contents.state == UpgradeState(upgradedThrough: "1.2", lastLaunched: "1.2"))
        #expect(contents.state.lastLaunched?.description == "1.2.0")
        #expect(contents.legacyHistory?.count == launches)
        if launches == 1 {
            #expect(contents.legacyHistory?.first?.time == 1.5e9)
            #expect(contents.legacyHistory?.first?.steps.first?.result == .notRun)
        }
    }

    // MARK: - The stores and format 1

    /// How a store is given a format-1 document's successor.
    struct LegacySave: Sendable, CustomTestStringConvertible {
        /// Whether the store reads the document before it saves (so that it knows it), or saves at once.
        let loadsFirst: Bool
        /// The launch recorded with the save, if any (`save(_:recording:)`).
        let record: LaunchRecord?

        var testDescription: String {
            (loadsFirst ? "load, then " : "") + (record == nil ? "save" : "save recording a launch")
        }

        static let launch = LaunchRecord(
            time: 1_795_978_200.25, from: "2.0", to: "2.1", outcome: .upgraded,
            steps: [.init(id: "move-settings", attempt: 2, result: .completed, abandoned: false, milliseconds: 40)])

        static let all = [false, true].flatMap { loadsFirst in
            [LegacySave(loadsFirst: loadsFirst, record: nil), LegacySave(loadsFirst: loadsFirst, record: launch)]
        }
    }

    /// The state a launch writes after `legacyState`.
    static let successor = UpgradeState(
        upgradedThrough: "2.1", lastLaunched: "2.1", abandoned: [StepRecord(id: "reindex", version: "1.8")])

    @Test(
        "a store's next write makes a format-1 document format 2, without history, and keeps the history beside it",
        arguments: StoreKind.documentStores, LegacySave.all)
    func storesMoveTheLegacyHistory(kind: StoreKind, save: LegacySave) throws {
        let fixture = try StoreFixture(kind)
        try fixture.writeRaw(Data(Self.legacyText.utf8))
        let store = try fixture.store()
        if save.loadsFirst { #expect(try store.load() == Self.legacyState) }

        if let record = save.record {
            #expect(try store.save(Self.successor, recording: record) == nil)
        } else {
            try store.save(Self.successor)
        }

        let written = try #require(fixture.readRaw())
        #expect(written == StateDocument.encode(Self.successor))
        #expect(try Self.object(written).entries.map(\.key) == Self.topLevelKeys)
        let again = try StateDocument.decode(written, location: Self.location)
        #expect(again.state == Self.successor)
        #expect(again.legacyHistory == nil)
        let expected = Self.legacyHistory + (save.record.map { [$0] } ?? [])
        #expect(try store.history() == expected)
        #expect(try fixture.store().history() == expected)
        #expect(try fixture.store().load() == Self.successor)

        // The history moves once: later writes, by this store object or the next launch's, add only
        // what they record.
        try store.save(Self.successor)
        try fixture.store().save(Self.successor)
        #expect(try fixture.store().history() == expected)
        #expect(try fixture.store().save(Self.successor, recording: LegacySave.launch) == nil)
        #expect(try fixture.store().history() == expected + [LegacySave.launch])
    }

    @Test(
        "a format-1 history longer than a store keeps is cut to the newest records when it moves",
        arguments: StoreKind.documentStores)
    func longLegacyHistory(kind: StoreKind) throws {
        let records = (0..<LaunchRecord.historyLimit).map { index in
            LaunchRecord(
                time: 1_700_000_000 + Double(index), from: "1.0", to: "1.0", outcome: .upToDate, steps: [])
        }
        var value = try JSONParser.parse(Array(Self.legacyText.utf8))
        value.change(at: "history") { history in
            history = .array(
                records.map { record in try! JSONParser.parse(Array(LaunchHistoryLine.encode(record).utf8)) })
        }
        let document = Data(JSONWriter.pretty(value).utf8)
        #expect(try StateDocument.decode(document, location: Self.location).legacyHistory == records)

        let fixture = try StoreFixture(kind)
        try fixture.writeRaw(document)
        #expect(try fixture.store().save(Self.successor, recording: LegacySave.launch) == nil)
        #expect(
            try fixture.store().history() == Array((records + [LegacySave.launch]).suffix(LaunchRecord.historyLimit)))
    }

    /// A document no store may use or overwrite, and what the error must say.
    struct Refused: Sendable, CustomTestStringConvertible {
        let label: String
        let document: String
        let code: UpgradeStoreError.Code
        /// Text the error's detail must contain.
        let says: String

        var testDescription: String { label }

        static let all = [
            Refused(
                label: "format 1, a launch damaged",
                document: StateDocumentTests.legacyText.replacingOccurrences(of: "\"freshInstall\"", with: "\"fresh\""),
                code: .corrupt,
                says: "at history[0].outcome (line 26, column 19): expected one of"),
            Refused(
                label: "format 1, a step damaged",
                document: StateDocumentTests.legacyText.replacingOccurrences(
                    of: "\"attempt\" : 0,", with: "\"attempt\" : -1,"),
                code: .corrupt,
                says:
                    "at history[2].steps[1].attempt (line 61, column 23): an attempt number must be at least 0;"
                    + " found -1"
            ),
            Refused(
                label: "format 2 with a history",
                document: String(decoding: StateDocument.encode(StateDocumentTests.full), as: UTF8.self)
                    .replacingOccurrences(of: "\"format\": 2,", with: "\"format\": 2,\n  \"history\": [],"),
                code: .corrupt, says: #"at history (line 13, column 14): unknown key "history""#),
            Refused(
                label: "format 3", document: #"{"format": 3, "history": "moved"}"#,
                code: .unsupportedFormat(found: 3, supported: 2), says: "format 3"),
            Refused(
                label: "format 0", document: #"{"format": 0}"#, code: .corrupt,
                says: "at format (line 1, column 12): the format must be at least 1; found 0"),
        ]
    }

    @Test(
        "a store never uses or overwrites a document it cannot read, and a launch through it runs nothing",
        arguments: StoreKind.documentStores, Refused.all)
    func storesRefuse(kind: StoreKind, refused: Refused) async throws {
        let fixture = try StoreFixture(kind)
        let bytes = Data(refused.document.utf8)
        try fixture.writeRaw(bytes)

        let error = #expect(throws: UpgradeStoreError.self) { try fixture.store().load() }
        #expect(error?.code == refused.code)
        #expect(error?.description.contains(fixture.location) == true, "\(String(describing: error))")
        #expect(error?.detail.contains(refused.says) == true, "\(String(describing: error))")
        #expect(error?.detail.hasSuffix(UpgradeStoreError.leftAsItIs) == true, "\(String(describing: error))")
        #expect(throws: UpgradeStoreError.self) { try fixture.store().loadForLaunch() }

        for store in [try fixture.store(), try fixture.store()] {
            let saveError = #expect(throws: UpgradeStoreError.self) { try store.save(Self.full) }
            #expect(saveError?.code == refused.code)
            #expect(saveError?.detail.contains(refused.says) == true, "\(String(describing: saveError))")
            #expect(saveError?.detail.hasSuffix("the new state was not written over it") == true)
            #expect(throws: UpgradeStoreError.self) { try store.save(Self.full, recording: LegacySave.launch) }
        }

        let ran = Locked(0)
        let upgrader = Upgrader(store: try fixture.store()) { UpgradeStep("9.0") { ran.increment() } }
        let launch = await #expect(throws: UpgradeStoreError.self) { _ = try await upgrader.run(currentVersion: "9.0") }
        #expect(launch?.code == refused.code)
        #expect(ran.value == 0)
        #expect(fixture.readRaw() == bytes)
        #expect(try fixture.store().history() == [])
    }

    @Test("the file store refuses a document larger than 8 MiB by its size, and leaves it as it is")
    func fileStoreRefusesLargeDocument() throws {
        let fixture = try StoreFixture(.file)
        let bytes = StateDocument.encode(Self.full) + Data(repeating: UInt8(ascii: " "), count: 9 << 20)
        try bytes.write(to: fixture.fileURL)
        let store = try fixture.store()

        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .corrupt)
        #expect(
            error?.description
                == "\(fixture.location): not a valid upgrade state document: it is \(bytes.count) bytes, more than"
                + " the 8 MiB a state document can be; it is left as it is")
        let saveError = #expect(throws: UpgradeStoreError.self) { try store.save(Self.full) }
        #expect(saveError?.code == .corrupt)
        #expect(saveError?.detail.contains("it is \(bytes.count) bytes") == true)
        #expect(fixture.readRaw() == bytes)
    }

    @Test("the file store refuses a 300 MB file without reading it")
    func fileStoreRefusesHugeSparseFile() throws {
        let fixture = try StoreFixture(.file)
        let size: UInt64 = 300_000_000
        // A sparse file: it has the size, but takes no room on disk, and reading it would give zeros.
        #expect(FileManager.default.createFile(atPath: fixture.fileURL.path, contents: nil))
        let handle = try FileHandle(forWritingTo: fixture.fileURL)
        try handle.truncate(atOffset: size)
        try handle.close()
        let store = try fixture.store()

        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .corrupt)
        #expect(error?.detail.contains("it is \(size) bytes, more than the 8 MiB a state document can be") == true)
        #expect(throws: UpgradeStoreError.self) { try store.loadForLaunch() }
        let saveError = #expect(throws: UpgradeStoreError.self) { try store.save(Self.full) }
        #expect(saveError?.detail.contains("it is \(size) bytes") == true)
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.fileURL.path)
        #expect((attributes[.size] as? NSNumber)?.uint64Value == size)
    }
}

// MARK: - Damage

/// A change to a valid document (format 2, or the format-1 `legacyText`) that makes it invalid, and
/// the error it must give.
struct Damage: Sendable, CustomTestStringConvertible {
    let label: String
    /// Whether the format-1 document is damaged, rather than `StateDocumentTests.full`'s.
    let legacy: Bool
    /// The path of the change, such as `attempts[0].failed`.
    let target: String
    /// The new value there; `nil` removes it.
    let value: JSONValue?
    /// The path the error names, as it writes it.
    let path: String
    /// What the error says is wrong.
    let message: String

    var testDescription: String { label }

    /// The damaged document, written by JSONWriter.
    func document() throws -> String {
        let base =
            legacy
            ? StateDocumentTests.legacyText
            : String(decoding: StateDocument.encode(StateDocumentTests.full), as: UTF8.self)
        var root = try JSONParser.parse(Array(base.utf8))
        root.change(at: target) { $0 = value }
        return JSONWriter.pretty(root)
    }

    /// The first character of the value the error's line and column point at: the new value, or the
    /// object that lacks a key.
    var pointsAt: Character? {
        guard let value else { return "{" }
        return JSONWriter.pretty(value).first
    }

    /// Sets the value at `target`; the error names `target` unless `path` is given.
    static func set(
        _ label: String, _ target: String, to value: JSONValue, legacy: Bool = false, at path: String? = nil,
        _ message: String
    ) -> Damage {
        Damage(
            label: label, legacy: legacy, target: target, value: value, path: path ?? displayed(target),
            message: message)
    }

    /// Removes the key at `target`; the error names the object that held it.
    static func remove(_ label: String, _ target: String, legacy: Bool = false) -> Damage {
        let components = JSONValue.components(target)
        guard case .key(let key)? = components.last else { fatalError("not a key: \(target)") }
        let parent = JSONPath(Array(components.dropLast()))
        return Damage(
            label: label, legacy: legacy, target: target, value: nil,
            path: parent.components.isEmpty ? "the top level" : parent.description,
            message: "missing the required key \"\(key)\"")
    }

    /// A path as errors write it.
    static func displayed(_ target: String) -> String {
        target.isEmpty ? "the top level" : JSONPath(JSONValue.components(target)).description
    }

    /// The error `Version(parsing:)` gives for `text`.
    static func versionProblem(_ text: String) -> String {
        do {
            _ = try Version(parsing: text)
            return "\(text) parses"
        } catch {
            return "\(error)"
        }
    }

    static let topKeys = "abandoned, attempts, completed, format, inProgress, lastLaunched, upgradedThrough"

    static let all = unknownKeys + missingKeys + wrongTypes + outOfRange + badVersions + notObjects + legacy

    static let unknownKeys: [Damage] = [
        set("unknown top-level key", "extra", to: .integer(1), #"unknown key "extra"; the keys here are \#(topKeys)"#),
        set(
            "a history in format 2", "history", to: .array([]), #"unknown key "history"; the keys here are \#(topKeys)"#
        ),
        set(
            "unknown key close to a known one", "lastLaunch", to: .string("2.0"),
            #"unknown key "lastLaunch" (did you mean "lastLaunched"?); the keys here are \#(topKeys)"#),
        set(
            "unknown nested key", "completed[1].note", to: .string("x"),
            #"unknown key "note"; the keys here are id, version"#),
        set(
            "misspelt key in attempts", "attempts[0].interupted", to: .bool(true),
            #"unknown key "interupted" (did you mean "interrupted"?); the keys here are failed, id, interrupted,"#
                + " version"
        ),
        set(
            "unknown key in inProgress", "inProgress.startedAt", to: .integer(5),
            #"unknown key "startedAt"; the keys here are attempt, id, version"#),
        set(
            "unknown key that is not a plain name", "abandoned[0].odd key", to: .null,
            #"unknown key "odd key"; the keys here are id, version"#),
    ]

    static let missingKeys: [Damage] =
        StateDocumentTests.topLevelKeys.map { remove("missing \($0)", $0) } + [
            remove("missing inProgress.attempt", "inProgress.attempt"),
            remove("missing attempts[0].interrupted", "attempts[0].interrupted"),
            remove("missing completed[1].version", "completed[1].version"),
            remove("missing abandoned[0].id", "abandoned[0].id"),
        ]

    static let wrongTypes: [Damage] = [
        set(
            "failed as a string", "attempts[0].failed", to: .string("two"),
            #"expected a whole number, found the string "two""#),
        set(
            "failed as a fraction", "attempts[0].failed", to: .number("2.0"),
            "expected a whole number, found the number 2.0"),
        set(
            "failed with an exponent", "attempts[0].failed", to: .number("2e0"),
            "expected a whole number, found the number 2e0"),
        set(
            "failed beyond Int", "attempts[0].failed", to: .number("9223372036854775808"),
            "expected a whole number, found the number 9223372036854775808"),
        set(
            "interrupted as a string", "attempts[0].interrupted", to: .string("yes"),
            #"expected true or false, found the string "yes""#),
        set(
            "interrupted as a number", "attempts[0].interrupted", to: .integer(1),
            "expected true or false, found the number 1"),
        set("attempt as null", "inProgress.attempt", to: .null, "expected a whole number, found null"),
        set("id as a number", "completed[0].id", to: .integer(3), "expected a string, found the number 3"),
        set("id as null", "attempts[0].id", to: .null, "expected a string, found null"),
        set("completed as an object", "completed", to: .object(JSONObject()), "expected a list, found an object"),
        set("attempts as a string", "attempts", to: .string("none"), #"expected a list, found the string "none""#),
        set("abandoned as null", "abandoned", to: .null, "expected a list, found null"),
        set("inProgress as a list", "inProgress", to: .array([]), "expected an object, found a list"),
        set("inProgress as false", "inProgress", to: .bool(false), "expected an object, found false"),
        set("an entry as a string", "completed[0]", to: .string("a"), #"expected an object, found the string "a""#),
        set(
            "an entry as a list", "abandoned[0]", to: .array([.string("c"), .string("1.6")]),
            "expected an object, found a list"),
        set(
            "a version as a number", "upgradedThrough", to: .number("1.2"),
            #"expected a version in quotes, such as "1.2"; found the number 1.2"#),
        set(
            "a version as a whole number", "lastLaunched", to: .integer(2),
            #"expected a version in quotes, such as "1.0"; found the number 2"#),
        set(
            "a version as true", "upgradedThrough", to: .bool(true),
            #"expected a version string such as "1.2", found true"#),
        set(
            "a step's version as null", "completed[1].version", to: .null,
            #"expected a version string such as "1.2", found null"#),
        set("format as a string", "format", to: .string("2"), #"expected a whole number, found the string "2""#),
        set("format as a fraction", "format", to: .number("2.0"), "expected a whole number, found the number 2.0"),
        set("format as null", "format", to: .null, "expected a whole number, found null"),
    ]

    static let outOfRange: [Damage] = [
        set(
            "failed below 0", "attempts[0].failed", to: .integer(-3),
            "a failed-attempt count must be at least 0; found -3"),
        set("attempt 0", "inProgress.attempt", to: .integer(0), "an attempt number must be at least 1; found 0"),
        set(
            "attempt below 0", "inProgress.attempt", to: .integer(.min),
            "an attempt number must be at least 1; found \(Int.min)"),
        set("format 0", "format", to: .integer(0), "the format must be at least 1; found 0"),
        set("format below 0", "format", to: .integer(-1), "the format must be at least 1; found -1"),
    ]

    static let badVersions: [Damage] = [
        ("upgradedThrough", "1.x"), ("lastLaunched", ""), ("abandoned[0].version", "v1.6"),
        ("attempts[0].version", "1..2"), ("inProgress.version", " 2.0.1"), ("completed[0].version", "1.5-beta"),
        ("completed[1].version", "99999999999999999999.0"),
    ].map { target, text in
        set("bad version \"\(text)\" at \(target)", target, to: .string(text), versionProblem(text))
    }

    static let notObjects: [Damage] = [
        set("not an object: a list", "", to: .array([]), "expected an object, found a list"),
        set("not an object: a string", "", to: .string("{}"), #"expected an object, found the string "{}""#),
        set("not an object: null", "", to: .null, "expected an object, found null"),
        set("not an object: a number", "", to: .integer(2), "expected an object, found the number 2"),
    ]

    /// Damage to a format-1 document, most of it to its history.
    static let legacy: [Damage] = [
        set(
            "format 1: unknown top-level key", "extra", to: .bool(true), legacy: true,
            #"unknown key "extra"; the keys here are \#(topKeys), history"#),
        set(
            "format 1: unknown key in a launch", "history[0].note", to: .string("x"), legacy: true,
            #"unknown key "note"; the keys here are from, outcome, steps, time, to"#),
        set(
            "format 1: unknown key in a step", "history[1].steps[0].extra", to: .bool(true), legacy: true,
            #"unknown key "extra"; the keys here are abandoned, attempt, id, milliseconds, result"#),
        remove("format 1: a launch missing to", "history[2].to", legacy: true),
        remove("format 1: a step missing milliseconds", "history[2].steps[1].milliseconds", legacy: true),
        set(
            "format 1: unknown outcome", "history[0].outcome", to: .string("exploded"), legacy: true,
            "expected one of \(UpgradeOutcome.allCases.map(\.rawValue).joined(separator: ", ")), found \"exploded\""),
        set(
            "format 1: unknown step result", "history[2].steps[1].result", to: .string("done"), legacy: true,
            #"expected completed, failed or notRun, found "done""#),
        set(
            "format 1: step attempt below 0", "history[1].steps[0].attempt", to: .integer(-1), legacy: true,
            "an attempt number must be at least 0; found -1"),
        set(
            "format 1: time as a string", "history[2].time", to: .string("now"), legacy: true,
            #"expected a number, found the string "now""#),
        set(
            "format 1: milliseconds out of range", "history[1].steps[0].milliseconds", to: .number("1e999"),
            legacy: true, "the number 1e999 is out of range"),
        set(
            "format 1: abandoned as a string", "history[2].steps[0].abandoned", to: .string("no"), legacy: true,
            #"expected true or false, found the string "no""#),
        set(
            "format 1: bad from version", "history[1].from", to: .string("1.x"), legacy: true, versionProblem("1.x")),
        set(
            "format 1: to as null", "history[2].to", to: .null, legacy: true,
            #"expected a version string such as "1.2", found null"#),
        set(
            "format 1: history as an object", "history", to: .object(JSONObject()), legacy: true,
            "expected a list, found an object"),
        set(
            "format 1: a launch as a number", "history[1]", to: .integer(1), legacy: true,
            "expected an object, found the number 1"),
        set("format 1: steps as null", "history[2].steps", to: .null, legacy: true, "expected a list, found null"),
        set(
            "format 1: the state damaged too", "attempts[0].failed", to: .integer(-1), legacy: true,
            "a failed-attempt count must be at least 0; found -1"),
    ]
}

extension JSONValue {
    /// The components of a path written as `attempts[0].failed` (keys without `.` or `[`).
    static func components(_ path: String) -> [JSONPath.Component] {
        var components: [JSONPath.Component] = []
        for part in path.split(separator: ".") {
            var name = part
            var indices: [Int] = []
            while name.hasSuffix("]"), let open = name.lastIndex(of: "[") {
                indices.insert(Int(name[name.index(after: open)..<name.index(before: name.endIndex)])!, at: 0)
                name = name[..<open]
            }
            if !name.isEmpty { components.append(.key(String(name))) }
            components += indices.map { .index($0) }
        }
        return components
    }

    /// Changes the value at `path` (such as `attempts[0].failed`): `change` gets it, or `nil` for a
    /// key the object lacks, and sets it, or `nil` to remove it. A key added goes last.
    mutating func change(at path: String, _ change: (inout JSONValue?) -> Void) {
        self.change(at: Self.components(path)[...], change)
    }

    private mutating func change(at path: ArraySlice<JSONPath.Component>, _ change: (inout JSONValue?) -> Void) {
        guard let first = path.first else {
            var value: JSONValue? = self
            change(&value)
            self = value ?? .null
            return
        }
        switch (self, first) {
        case (.object(var object), .key(let key)):
            var value = object[key]
            if path.count == 1 {
                change(&value)
            } else {
                value?.change(at: path.dropFirst(), change)
            }
            let index = object.entries.firstIndex { $0.key == key }
            switch (index, value) {
            case (let index?, let value?): object.entries[index].value = value
            case (let index?, nil): object.entries.remove(at: index)
            case (nil, let value?): object.append(key, value)
            case (nil, nil): break
            }
            self = .object(object)
        case (.array(var elements), .index(let index)):
            if path.count == 1 {
                var value: JSONValue? = elements[index]
                change(&value)
                if let value { elements[index] = value } else { elements.remove(at: index) }
            } else {
                elements[index].change(at: path.dropFirst(), change)
            }
            self = .array(elements)
        default:
            Issue.record("no \(first) in \(JSONWriter.compact(self))")
        }
    }
}
