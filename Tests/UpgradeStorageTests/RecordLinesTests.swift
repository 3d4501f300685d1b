import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeStorage

/// The file store's writes reuse the lines of the `completed` records they wrote last; the document
/// is the same as one encoded whole, whatever the states in between.
@Suite("State document: record lines kept between writes")
struct RecordLinesTests {
    @Test("a document encoded with the lines of earlier ones is the document encoded whole", arguments: 0..<6)
    func sameBytes(seed: UInt64) {
        var random = SeededRandomNumberGenerator(seed: seed)
        let ids = [
            "a", "café", "cafe\u{301}", "\u{212B}", "A\u{30A}", "K", "\u{212A}",
            String(repeating: "long-id-", count: 12), "q\"uote", "b",
        ]
        let versions: [Version] = ["1.2", "1.2.0", "1.3", "2.0.1"]
        var lines = StateDocument.RecordLines()
        var state = UpgradeState(upgradedThrough: "1.0", lastLaunched: "2.0")
        for _ in 0..<60 {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: state.completed.removeAll()
            case 1: if !state.completed.isEmpty { state.completed.removeFirst() }
            case 2:
                if !state.completed.isEmpty {
                    state.completed[state.completed.count - 1].id = ids.randomElement(using: &random)!
                }
            default:
                state.completed.append(
                    StepRecord(id: ids.randomElement(using: &random)!, version: versions.randomElement(using: &random)!)
                )
            }
            #expect(StateDocument.bytes(state, reusing: &lines) == StateDocument.bytes(state), "\(state.completed)")
        }
    }
}
