import StrictJSON
import UpgradeCore

extension StateDocument {
    /// The `completed` list a store wrote last, kept from one write to the next: a launch's writes
    /// only add records at the end of that list, so each write encodes only the records added since.
    package struct RecordLines: Sendable {
        /// A record written, and where its line ends in ``text``.
        struct Written: Sendable {
            var record: StepRecord
            /// Whether the id is all ASCII, known once so that a match is told without reading it.
            var idIsASCII: Bool
            var end: Int
        }

        var written: [Written] = []
        /// The records' lines, indented and joined as the document's list holds them.
        var text: [UInt8] = []

        /// None.
        package init() {}

        /// Updated to hold the lines of `records`: the lines of a prefix it holds already are kept.
        mutating func update(for records: [StepRecord]) {
            var kept = 0
            while kept < min(records.count, written.count), written[kept].isWritten(as: records[kept]) { kept += 1 }
            written.removeSubrange(kept...)
            text.removeSubrange((written.last?.end ?? 0)...)
            for record in records[kept...] {
                if !written.isEmpty { text += ",\n".utf8 }
                text += "    ".utf8
                text += JSONWriter.prettyBytes(StateDocument.value(record), indent: 4)
                written.append(
                    Written(record: record, idIsASCII: record.id.utf8.allSatisfy { $0 < 0x80 }, end: text.count))
            }
        }
    }

    /// Encodes a state as ``bytes(_:)`` does, taking the lines of the `completed` records that
    /// `lines` holds from it, and updating it for the next document.
    ///
    /// - Parameters:
    ///   - state: The state.
    ///   - lines: The record lines of an earlier document; empty at first.
    /// - Returns: The document's UTF-8 bytes, ending with a newline: the same as ``bytes(_:)``'s.
    package static func bytes(_ state: UpgradeState, reusing lines: inout RecordLines) -> [UInt8] {
        guard !state.completed.isEmpty else { return bytes(state) }
        lines.update(for: state.completed)
        var rest = state
        rest.completed = []
        let document = bytes(rest)
        // The pretty layout writes the empty list at two spaces' indentation; a line break never
        // occurs inside a JSON string, so this is the key's own line.
        let key = Array("\n  \"completed\": []".utf8)
        guard let start = document.indices.first(where: { document[$0...].starts(with: key) }) else {
            return bytes(state)
        }
        let empty = start..<start + key.count
        var joined: [UInt8] = []
        joined.reserveCapacity(document.count + lines.text.count + 32)
        joined += document[..<empty.lowerBound]
        joined += "\n  \"completed\": [\n".utf8
        joined += lines.text
        joined += "\n  ]".utf8
        joined += document[empty.upperBound...]
        return joined
    }
}

extension StateDocument.RecordLines.Written {
    /// Whether `record` is written as this record was: the same version text and the same id text,
    /// compared as values. Ids that are `==` may differ in text (`é` in one scalar or two), but an
    /// ASCII id is `==` to no other text of its UTF-8 length: a non-ASCII scalar takes two bytes or
    /// more and stands for one ASCII scalar at most.
    func isWritten(as record: StepRecord) -> Bool {
        guard
            record.version == self.record.version, record.version.componentCount == self.record.version.componentCount,
            record.id == self.record.id
        else { return false }
        return idIsASCII
            ? record.id.utf8.count == self.record.id.utf8.count : record.id.utf8.elementsEqual(self.record.id.utf8)
    }
}
