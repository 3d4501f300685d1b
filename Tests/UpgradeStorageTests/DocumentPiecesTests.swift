import Foundation
import Testing
import UpgradeCore
import VersionKit

@testable import UpgradeStorage

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A document written in pieces: the text around the `completed` records, and the records' lines from
/// where the launch keeps them, in one `writev` (`POSIX.writeAll`), again from where a short write
/// stopped.
@Suite("File store: a document written in pieces")
struct DocumentPiecesTests {
    /// Lends `parts` to `body` as a document's three pieces.
    static func withPieces<Result>(
        _ parts: [[UInt8]], _ body: (StateDocument.Pieces) -> Result
    ) -> Result {
        parts[0].withUnsafeBytes { head in
            parts[1].withUnsafeBytes { records in
                parts[2].withUnsafeBytes { tail in body(StateDocument.Pieces(head: head, records: records, tail: tail))
                }
            }
        }
    }

    /// What a writer was given: the bytes written, and how many vectors each call had.
    final class Sink {
        var bytes: [UInt8] = []
        var calls: [Int32] = []

        /// A `writev` into this sink that writes at most `limit` bytes a call.
        func writer(limit: Int) -> (UnsafePointer<iovec>, Int32) -> Int {
            { vectors, count in
                self.calls.append(count)
                var room = limit
                for index in 0..<Int(count) where room > 0 {
                    let vector = vectors[index]
                    let taken = min(room, vector.iov_len)
                    self.bytes.append(contentsOf: UnsafeRawBufferPointer(start: vector.iov_base, count: taken))
                    room -= taken
                }
                return limit - room
            }
        }
    }

    @Test(
        "short writes go on from the byte where they stopped, across the pieces",
        arguments: [1, 2, 3, 5, 7, 64, 10_000])
    func shortWrites(limit: Int) {
        let parts: [[UInt8]] = [
            Array("{\n  \"completed\": [\n".utf8), Array("    {\"id\": \"a\"},\n    {\"id\": \"b\"}".utf8),
            Array("\n  ]\n}\n".utf8),
        ]
        let sink = Sink()
        let code = Self.withPieces(parts) { pieces in POSIX.writeAll(pieces, sink.writer(limit: limit)) }
        #expect(code == nil)
        #expect(sink.bytes == parts.flatMap { $0 })
        // A call never repeats a piece written whole: its vectors shrink as the pieces are written.
        #expect(sink.calls == sink.calls.sorted(by: >))
        #expect(sink.calls.first == 3)
    }

    @Test(
        "empty pieces are left out of the vectors",
        arguments: [[true, false, true], [true, false, false], [false, false, true]])
    func emptyPiecesLeftOut(present: [Bool]) {
        let parts = present.enumerated().map { index, isPresent in
            isPresent ? [UInt8](repeating: UInt8(index), count: 3) : []
        }
        let sink = Sink()
        let code = Self.withPieces(parts) { pieces in POSIX.writeAll(pieces, sink.writer(limit: 100)) }
        #expect(code == nil)
        #expect(sink.bytes == parts.flatMap { $0 })
        #expect(sink.calls == [Int32(present.filter { $0 }.count)])
    }

    @Test("a write that fails gives its error number; one that writes nothing is an I/O error, not a wait")
    func failures() {
        let parts: [[UInt8]] = [Array("abc".utf8), Array("def".utf8), Array("ghi".utf8)]
        var calls = 0
        let failed = Self.withPieces(parts) { pieces in
            POSIX.writeAll(pieces) { _, _ in
                calls += 1
                if calls == 1 { return 4 }
                errno = ENOSPC
                return -1
            }
        }
        #expect(failed == ENOSPC)
        #expect(calls == 2)
        let stalled = Self.withPieces(parts) { pieces in POSIX.writeAll(pieces) { _, _ in 0 } }
        #expect(stalled == EIO)
    }

    @Test(
        "every document of a launch, written in pieces, is the document of its state",
        arguments: FileUpgradeStore.Durability.allCases)
    func launchDocuments(durability: FileUpgradeStore.Durability) async throws {
        let fixture = try StoreFixture(.file)
        let url = fixture.fileURL
        let store = FileUpgradeStore(url: url, durability: durability)
        try store.save(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
        // Ids of every layout: the common one-line record, one to escape, one not ASCII, one too long
        // for a line.
        let ids: [String?] = [
            nil, "move \"quoted\" settings", "réindexer", String(repeating: "long-id-", count: 12), nil, nil,
        ]
        let checked = Recorder()
        let steps = ids.enumerated().map { index, id in
            UpgradeStep(Version(major: 1, minor: index + 1), id: id) {
                let bytes = try Data(contentsOf: url)
                let state = try StateDocument.decode(bytes, location: url.path).state
                // The records written before this step, each step before it, and the document as a
                // fresh encoding writes it.
                #expect(state.completed.count == index)
                #expect(state.inProgress?.version == Version(major: 1, minor: index + 1))
                #expect(bytes == StateDocument.encode(state))
                checked.append("1.\(index + 1)")
            }
        }
        let report = try await Upgrader(store: store) { steps }.run(currentVersion: Version(major: 1, minor: ids.count))
        #expect(report.outcome == .upgraded)
        #expect(checked.lines.count == ids.count)
        let final = try Data(contentsOf: url)
        #expect(final == StateDocument.encode(try #require(try store.load())))
    }
}
