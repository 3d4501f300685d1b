import Foundation
import Testing
import UpgradeCore
import VersionKit

/// The state document: a round trip, every key present, and strict decoding.
@Suite("State coding")
struct StateCodingTests {
    static let full = UpgradeState(
        upgradedThrough: "1.2", lastLaunched: "2.0.1",
        completed: [StepRecord(id: "a", version: "1.5"), StepRecord(id: "b", version: "2.0")],
        abandoned: [StepRecord(id: "c", version: "1.6")],
        attempts: [StepAttempts(id: "d", version: "2.0.1", failed: 2)],
        inProgress: StepInProgress(id: "d", version: "2.0.1", attempt: 3),
        history: [
            LaunchRecord(
                time: 1_800_000_000.25, from: nil, to: "1.2", outcome: .freshInstall, steps: []),
            LaunchRecord(
                time: 1_800_000_100.5, from: "1.2", to: "2.0.1", outcome: .failed,
                steps: [
                    LaunchRecord.Step(id: "a", attempt: 1, result: .completed, abandoned: false, milliseconds: 1.5),
                    LaunchRecord.Step(id: "c", attempt: 2, result: .notRun, abandoned: true, milliseconds: 0),
                    LaunchRecord.Step(id: "d", attempt: 2, result: .failed, abandoned: false, milliseconds: 12),
                ]),
        ])

    /// The document of `full` as a JSON object, for tests to damage.
    static func object() throws -> [String: Any] {
        let data = try UpgradeStateDocument.encode(full)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func decode(_ object: Any) throws(UpgradeStoreError) -> UpgradeState {
        let data = try! JSONSerialization.data(withJSONObject: object)
        return try UpgradeStateDocument.decode(data, location: "test-state.json")
    }

    @Test(
        "a state survives a round trip through its document",
        arguments: [full, UpgradeState(), settledState(at: "8.8")])
    func roundTrip(state: UpgradeState) throws {
        let data = try UpgradeStateDocument.encode(state)
        #expect(try UpgradeStateDocument.decode(data, location: "x") == state)
        #expect(try JSONDecoder().decode(UpgradeState.self, from: JSONEncoder().encode(state)) == state)
    }

    @Test("versions keep their written form; 8.8 and 8.8.0 stay distinct in text, equal in value")
    func versionForms() throws {
        let state = UpgradeState(upgradedThrough: "8.8", lastLaunched: "8.8.0")
        let decoded = try UpgradeStateDocument.decode(UpgradeStateDocument.encode(state), location: "x")
        #expect(decoded.upgradedThrough?.description == "8.8")
        #expect(decoded.lastLaunched?.description == "8.8.0")
        #expect(decoded.upgradedThrough == decoded.lastLaunched)
    }

    @Test("the document has every key, null for an absent value, and a format number")
    func everyKeyPresent() throws {
        let data = try UpgradeStateDocument.encode(UpgradeState())
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "format", "upgradedThrough", "lastLaunched", "completed", "abandoned", "attempts", "inProgress",
                "history",
            ])
        #expect(object["format"] as? Int == UpgradeState.currentFormat)
        #expect(object["inProgress"] is NSNull)
        #expect(object["upgradedThrough"] is NSNull)
    }

    /// A damage to the document, and what the error must say.
    struct Damage: Sendable, CustomTestStringConvertible {
        let label: String
        let expected: String
        let apply: @Sendable (inout [String: Any]) -> Void
        var testDescription: String { label }
    }

    static let damages: [Damage] = [
        Damage(label: "unknown top-level key", expected: "at extra: unknown key \"extra\"") { $0["extra"] = 1 },
        Damage(label: "unknown nested key", expected: "at completed[1].note: unknown key \"note\"") {
            var completed = $0["completed"] as! [[String: Any]]
            completed[1]["note"] = "x"
            $0["completed"] = completed
        },
        Damage(label: "unknown key in a history step", expected: "at history[1].steps[0].extra: unknown key") {
            var history = $0["history"] as! [[String: Any]]
            var steps = history[1]["steps"] as! [[String: Any]]
            steps[0]["extra"] = true
            history[1]["steps"] = steps
            $0["history"] = history
        },
        Damage(label: "missing key", expected: "at history: missing key \"history\"") { $0["history"] = nil },
        Damage(label: "missing nested key", expected: "at inProgress.attempt: missing key \"attempt\"") {
            var inProgress = $0["inProgress"] as! [String: Any]
            inProgress["attempt"] = nil
            $0["inProgress"] = inProgress
        },
        Damage(label: "wrong type", expected: "at attempts[0].failed: expected a number") {
            $0["attempts"] = [["id": "d", "version": "2.0.1", "failed": "two"]]
        },
        Damage(
            label: "attempt count below 1", expected: "at attempts[0].failed: a failed-attempt count must be at least 1"
        ) {
            $0["attempts"] = [["id": "d", "version": "2.0.1", "failed": 0]]
        },
        Damage(label: "attempt number below 1", expected: "at inProgress.attempt: an attempt number must be at least 1")
        {
            $0["inProgress"] = ["id": "d", "version": "2.0.1", "attempt": 0]
        },
        Damage(label: "bad version", expected: "at upgradedThrough:") { $0["upgradedThrough"] = "1.x" },
        Damage(label: "bad nested version", expected: "at abandoned[0].version:") {
            $0["abandoned"] = [["id": "c", "version": "v1.6"]]
        },
        Damage(label: "unknown outcome", expected: "at history[0].outcome:") {
            var history = $0["history"] as! [[String: Any]]
            history[0]["outcome"] = "exploded"
            $0["history"] = history
        },
        Damage(label: "format 0", expected: "at format: format 0 is not a valid format number") { $0["format"] = 0 },
        Damage(label: "not an object", expected: "at the top level") { $0 = ["__array__": true] },
    ]

    @Test("strict decoding: every fault is an error naming its JSON path", arguments: damages)
    func strictDecoding(damage: Damage) throws {
        var object = try Self.object()
        damage.apply(&object)
        let document: Any = object["__array__"] != nil ? [1, 2] : object

        let error = #expect(throws: UpgradeStoreError.self) { try Self.decode(document) }

        #expect(error?.code == .corrupt)
        #expect(error?.location == "test-state.json")
        #expect(error?.detail.contains(damage.expected) == true, "\(error?.detail ?? "")")
        #expect(error?.description.hasPrefix("test-state.json: ") == true)
    }

    /// Found by `upgrade-fuzz state-document` (Fuzz/corpus/state-document/regression-several-unknown-keys.json):
    /// JSONDecoder gives an object's keys in an order that changes from process to process (and,
    /// for a larger object, from decode to decode), so a document with several unknown keys was
    /// rejected now naming one, now another. Eight unknown keys an object, so that the old code
    /// names "a" in all three only by a chance of 1 in 512.
    @Test(
        "with several unknown keys, the same document always names the same one: the first in UTF-8 order",
        arguments: [
            (#"{"format":1,"q":0,"b":0,"x":0,"m":0,"a":0,"z":0,"k":0,"d":0}"#, "at a: unknown key \"a\""),
            (
                #"{"format":1,"upgradedThrough":null,"lastLaunched":null,"abandoned":[],"attempts":[],"#
                    + #""completed":[{"id":"s","version":"1.0","q":0,"b":0,"x":0,"m":0,"a":0,"z":0,"k":0,"d":0}],"#
                    + #""inProgress":null,"history":[]}"#,
                "at completed[0].a: unknown key \"a\""
            ),
            (
                #"{"format":1,"upgradedThrough":null,"lastLaunched":null,"abandoned":[],"attempts":[],"#
                    + #""completed":[],"inProgress":null,"history":[{"time":1,"from":null,"to":"1.0","#
                    + #""outcome":"upgraded","steps":[{"id":"s","attempt":1,"result":"completed","abandoned":false,"#
                    + #""milliseconds":1,"q":0,"b":0,"x":0,"m":0,"a":0,"z":0,"k":0,"d":0}]}]}"#,
                "at history[0].steps[0].a: unknown key \"a\""
            ),
        ])
    func severalUnknownKeys(document: String, expected: String) {
        var details: Set<String> = []
        for _ in 0..<20 {
            do throws(UpgradeStoreError) {
                _ = try UpgradeStateDocument.decode(Data(document.utf8), location: "s.json")
            } catch {
                details.insert(error.detail)
            }
        }
        #expect(details.count == 1, "\(details)")
        #expect(details.first?.contains(expected) == true, "\(details)")
    }

    @Test("a newer format is reported as such, before its shape is read")
    func newerFormat() throws {
        let newer: [String: Any] = ["format": UpgradeState.currentFormat + 1, "somethingNew": [1, 2, 3]]
        let data = try JSONSerialization.data(withJSONObject: newer)

        let plain = #expect(throws: UnsupportedStateFormatError.self) {
            try JSONDecoder().decode(UpgradeState.self, from: data)
        }
        #expect(plain?.found == 2)
        #expect(plain?.supported == 1)
        #expect(plain?.description.contains("format 2") == true)

        let error = #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decode(data, location: "s.json")
        }
        #expect(error?.code == .unsupportedFormat(found: 2, supported: 1))
        #expect(error?.underlying is UnsupportedStateFormatError)
    }

    @Test("bytes that are not JSON are a corrupt document")
    func notJSON() {
        let error = #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decode(Data("{\"format\": 1,".utf8), location: "s.json")
        }
        #expect(error?.code == .corrupt)
        #expect(error?.detail.contains("not a valid upgrade state document") == true)
    }

    @Test("a store that cannot be read stops the launch: nothing runs and nothing is written")
    func unreadableStoreStopsTheLaunch() async throws {
        let newer = try JSONSerialization.data(withJSONObject: ["format": 2])
        let readError = #expect(throws: UpgradeStoreError.self) {
            try UpgradeStateDocument.decode(newer, location: "s")
        }
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        store.failLoads(with: readError)
        let upgrader = makeUpgrader(store: store, steps: [journal.step("1.1", id: "a")])

        let error = await #expect(throws: UpgradeStoreError.self) { try await upgrader.run(currentVersion: "1.1") }

        #expect(error?.code == .unsupportedFormat(found: 2, supported: 1))
        #expect(journal.ids.isEmpty)
        #expect(store.saves.isEmpty)
        #expect(throws: UpgradeStoreError.self) { try upgrader.plan(currentVersion: "1.1") }
        #expect(throws: UpgradeStoreError.self) { try upgrader.doneSteps() }
    }
}
