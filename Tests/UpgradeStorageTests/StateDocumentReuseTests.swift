import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// `StateDocument.encode(_:reusing:)`, which a launch's writes use to encode only the `completed`
/// records added since its last write: whatever the records it holds, it writes what
/// `StateDocument.encode(_:)` writes.
@Suite("State document: reusing the text of earlier records")
struct StateDocumentReuseTests {
    /// A record: mostly the common one-line form, sometimes an id that must be escaped, that is not
    /// ASCII, or that is too long for one line.
    static func record(_ number: Int, using random: inout SeededRandomNumberGenerator) -> StepRecord {
        let version = Version(
            major: number / 100 + 1, minor: number % 100, patch: Int.random(in: 0...2, using: &random))
        let id: String
        switch Int.random(in: 0..<10, using: &random) {
        case 0: id = "move \"quoted\" settings \(number)"
        case 1: id = "réindexer-\(number)"
        case 2: id = "a-step-with-a-name-long-enough-that-its-record-cannot-stay-on-one-line-\(number)"
        default: id = "appUpgradeTo_\(version.major)_\(version.minor)_\(version.patch)_\(number)"
        }
        return StepRecord(id: id, version: version)
    }

    @Test("a launch's growing list of records encodes as a fresh encoding does", arguments: [1, 2, 3, 4, 5])
    func growingList(seed: UInt64) {
        var random = SeededRandomNumberGenerator(seed: seed)
        var completed = StateDocument.EncodedRecords()
        var state = UpgradeState(upgradedThrough: "1.0", lastLaunched: "9.0")
        for number in 0..<120 {
            state.completed.append(Self.record(number, using: &random))
            state.inProgress = StepInProgress(id: "next-\(number)", version: "9.0", attempt: 1)
            #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
        }
    }

    @Test(
        "records that are not the ones encoded before (changed, removed, reordered, a new list) are encoded anew",
        arguments: [11, 12, 13, 14, 15, 16, 17, 18])
    func changedList(seed: UInt64) throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        var completed = StateDocument.EncodedRecords()
        var state = UpgradeState(upgradedThrough: nil, lastLaunched: "9.0")
        var number = 0
        for _ in 0..<200 {
            switch Int.random(in: 0..<8, using: &random) {
            case 0 where !state.completed.isEmpty:  // a record changed in place
                let index = Int.random(in: state.completed.indices, using: &random)
                state.completed[index] = Self.record(number, using: &random)
            case 1 where !state.completed.isEmpty:  // records removed from the end (a rewind, rule 5)
                state.completed.removeLast(Int.random(in: 1...state.completed.count, using: &random))
            case 2 where !state.completed.isEmpty:  // one removed from the front or the middle
                state.completed.remove(at: Int.random(in: state.completed.indices, using: &random))
            case 3:  // reordered
                state.completed.shuffle(using: &random)
            case 4:  // the record's version changed, its id kept
                if let last = state.completed.indices.last {
                    state.completed[last].version = Version(major: 7, minor: number % 50)
                }
            default:
                state.completed.append(Self.record(number, using: &random))
            }
            number += 1
            let reused = Data(StateDocument.encode(state, reusing: &completed))
            let fresh = StateDocument.encode(state)
            #expect(reused == fresh)
            #expect(try StateDocument.decode(reused, location: "reuse").state == state)
        }
    }

    @Test(
        "a record equal to the one encoded before but written otherwise (1.2 and 1.2.0, é in one or two characters) is encoded anew",
        arguments: [
            (StepRecord(id: "a", version: "1.2"), StepRecord(id: "a", version: "1.2.0")),
            (StepRecord(id: "a", version: "1.2.0"), StepRecord(id: "a", version: "1.2")),
            (StepRecord(id: "caf\u{E9}", version: "1.2"), StepRecord(id: "cafe\u{301}", version: "1.2")),
        ])
    func equalButWrittenOtherwise(first: StepRecord, second: StepRecord) {
        #expect(first == second)  // what makes the case: equal values, different text
        var completed = StateDocument.EncodedRecords()
        var state = UpgradeState(upgradedThrough: "1.0", lastLaunched: "2.0")
        state.completed = [first]
        #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
        state.completed = [second, StepRecord(id: "b", version: "1.3")]
        #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
    }

    @Test("an empty list after records, and records after an empty list")
    func emptyAndBack() {
        var completed = StateDocument.EncodedRecords()
        var state = UpgradeState(upgradedThrough: "1.0", lastLaunched: "2.0")
        state.completed = [StepRecord(id: "a", version: "1.5")]
        #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
        state.completed = []
        #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
        state.completed = [StepRecord(id: "b", version: "1.6"), StepRecord(id: "c", version: "1.7")]
        #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
    }

    @Test(
        "the same records made again (equal ids in storage of their own, small and large) encode as a fresh encoding does"
    )
    func sameRecordsMadeAgain() {
        func records(_ count: Int) -> [StepRecord] {
            (0..<count).map { number in
                // Made anew each time: ids of more than 15 bytes get storage of their own.
                let id = number.isMultiple(of: 2) ? "s\(number)" : "a-long-step-identifier-\(number)"
                return StepRecord(
                    id: String(decoding: Array(id.utf8), as: UTF8.self), version: Version(major: 1, minor: number))
            }
        }
        var completed = StateDocument.EncodedRecords()
        var state = UpgradeState(upgradedThrough: "1.0", lastLaunched: "2.0")
        for count in [3, 4, 8, 8, 9] {
            state.completed = records(count)
            #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
        }
        // The same text with one id in another form of the same characters (é in one character or two).
        state.completed = records(9) + [StepRecord(id: "r\u{E9}", version: "1.20")]
        #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
        state.completed = records(9) + [StepRecord(id: "re\u{301}", version: "1.20")]
        #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
    }

    @Test("copies of the encoded records go on each from its own lines and memory, whichever adds records first")
    func copiesKeepTheirOwnLines() {
        let base = UpgradeState(upgradedThrough: "1.0", lastLaunched: "2.0")
        func state(_ count: Int, prefix: String) -> UpgradeState {
            var state = base
            state.completed = (0..<count).map {
                StepRecord(id: "\(prefix)-\($0)", version: Version(major: 1, minor: $0 + 1))
            }
            return state
        }
        var original = StateDocument.EncodedRecords()
        let shared = state(40, prefix: "shared")
        #expect(Data(StateDocument.encode(shared, reusing: &original)) == StateDocument.encode(shared))
        // A copy that adds records, past the lines' first memory, does not add them to the original's
        // lines; the original, adding others, does not change the copy's.
        var copy = original
        var longer = shared
        longer.completed += state(60, prefix: "copy").completed
        #expect(Data(StateDocument.encode(longer, reusing: &copy)) == StateDocument.encode(longer))
        var other = shared
        other.completed += state(5, prefix: "original").completed
        #expect(Data(StateDocument.encode(other, reusing: &original)) == StateDocument.encode(other))
        longer.completed += state(3, prefix: "more").completed
        #expect(Data(StateDocument.encode(longer, reusing: &copy)) == StateDocument.encode(longer))
        #expect(Data(StateDocument.encode(shared, reusing: &original)) == StateDocument.encode(shared))
    }

    @Test(
        "a record whose id changed and whose version did not is encoded anew: small ids, and ids of their own storage")
    func changedIDSameVersion() {
        let long = "a-step-identifier-long-enough-for-storage-of-its-own-"
        var completed = StateDocument.EncodedRecords()
        var state = UpgradeState(upgradedThrough: "1.0", lastLaunched: "2.0")
        let lists = [
            ["ab", "cd"], ["ab", "ce"], ["xb", "ce"], ["xb-0123456", "ce"], ["xb-0123457", "ce"],
            [long + "1", long + "2"], [long + "1", long + "3"], [long + "4", long + "3"],
        ]
        for ids in lists {
            state.completed = ids.map { StepRecord(id: $0, version: "1.5") }
            #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
        }
        // The id kept and the version changed in one field only: its patch, then its component count.
        for version: Version in ["1.5.1", "1.5.2", "1.5.0", "1.5"] {
            state.completed = [StepRecord(id: "ab", version: "1.4"), StepRecord(id: "ab", version: version)]
            #expect(Data(StateDocument.encode(state, reusing: &completed)) == StateDocument.encode(state))
        }
    }
}
