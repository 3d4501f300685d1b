import Foundation
import StrictJSON
import UpgradeCore
import VersionKit

/// The JSON document a file or defaults store keeps an ``UpgradeState`` in (format 2): only what the
/// launch rules read, typically a few hundred bytes, pretty-printed with sorted keys so that a person
/// can read and diff it.
///
/// ```json
/// {
///   "abandoned": [],
///   "attempts": [{"failed": 1, "id": "move-settings", "interrupted": true, "version": "2.0"}],
///   "completed": [{"id": "appUpgradeTo_1_1", "version": "1.1"}],
///   "format": 2,
///   "inProgress": null,
///   "lastLaunched": "2.0",
///   "upgradedThrough": "1.0"
/// }
/// ```
///
/// Read strictly: the document must be strict JSON (RFC 8259: no duplicate key, trailing comma,
/// comment, invalid UTF-8 or text after the document), with every key present once, nothing unknown,
/// and values of the right type and range. Any fault is an `UpgradeStoreError` naming the location,
/// the JSON path, the line and the column. Format 1 (which held the history of launches inside the
/// state) is still read, with its history, so that the store moves the history beside the state at
/// its next write; a newer format is reported as such and never overwritten.
package enum StateDocument {
    /// The format this code writes.
    package static let format = 2
    /// The largest document read: a state this package wrote is far smaller, so a larger file is
    /// refused by its size before it is read.
    package static let maximumSize = 8 << 20

    /// A document as read: the state, and the history a format-1 document carried.
    package struct Contents: Sendable, Hashable {
        /// The state.
        package var state: UpgradeState
        /// The launch history of a format-1 document, oldest first; `nil` for format 2.
        package var legacyHistory: [LaunchRecord]?
    }

    /// Encodes a state as a format-2 document.
    ///
    /// - Parameter state: The state.
    /// - Returns: The document's UTF-8 bytes, ending with a newline.
    package static func encode(_ state: UpgradeState) -> Data {
        var completed = EncodedRecords()
        return Data(encode(state, reusing: &completed))
    }

    /// Encodes a state as a format-2 document, reusing the text of the `completed` records that an
    /// earlier document of the same launch had: a launch only adds records at the end of that list,
    /// so each of its writes encodes the records added since, not every record again. The result is
    /// the same as ``encode(_:)``'s whatever `completed` holds; records that are not the ones it
    /// holds are encoded anew, and it is updated for the next document.
    ///
    /// - Parameters:
    ///   - state: The state.
    ///   - completed: The text of the `completed` records of an earlier document; empty at first.
    /// - Returns: The document's UTF-8 bytes, ending with a newline.
    package static func encode(_ state: UpgradeState, reusing completed: inout EncodedRecords) -> [UInt8] {
        withEncoded(state, reusing: &completed) { $0.bytes }
    }

    /// Encodes a state as ``encode(_:reusing:)`` does and lends the document to `body` in pieces: the
    /// text around the `completed` records is written into memory that `completed` keeps for the next
    /// document, and the records' lines are lent from where `completed` keeps them. No array is made
    /// and the lines are not copied: a launch writes a document at every step, and at a thousand steps
    /// copying the lines took a seventh of its time.
    ///
    /// - Parameters:
    ///   - state: The state.
    ///   - completed: The text of the `completed` records of an earlier document, and the memory the
    ///     documents are written into; empty at first.
    ///   - body: Takes the document's UTF-8 bytes, valid only until it returns.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package static func withEncoded<Result, Failure: Error>(
        _ state: UpgradeState, reusing completed: inout EncodedRecords,
        _ body: (Pieces) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        completed.update(for: state.completed)
        let bound = DocumentWriter.bound(state)
        // Memory of its own: a copy of `completed` elsewhere does not write into the same memory.
        if completed.scratch == nil || !isKnownUniquelyReferenced(&completed.scratch!) {
            completed.scratch = DocumentMemory()
        }
        let memory = completed.scratch!
        var writer = DocumentWriter(memory.buffer(atLeast: bound))
        let split = writer.document(state, hasCompleted: !completed.records.isEmpty)
        let lines = completed.lines
        defer {
            withExtendedLifetime(memory) {}
            withExtendedLifetime(lines) {}
        }
        let text = UnsafeRawBufferPointer(writer.written)
        return try body(
            Pieces(
                head: UnsafeRawBufferPointer(rebasing: text[..<split]),
                records: lines?.withoutLastSeparator ?? UnsafeRawBufferPointer(start: nil, count: 0),
                tail: UnsafeRawBufferPointer(rebasing: text[split...])))
    }

    /// A document's bytes as ``withEncoded(_:reusing:_:)`` lends them: three pieces, in order, valid
    /// only while the body it is lent to runs.
    package struct Pieces {
        /// The text up to the `completed` records' lines.
        package let head: UnsafeRawBufferPointer
        /// The lines of the `completed` records, without what follows the last; empty when there are
        /// none.
        package let records: UnsafeRawBufferPointer
        /// The rest of the document.
        package let tail: UnsafeRawBufferPointer

        /// How many bytes the document has.
        package var count: Int { head.count + records.count + tail.count }

        /// The document's bytes, in an array of their own.
        package var bytes: [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(count)
            bytes.append(contentsOf: head)
            bytes.append(contentsOf: records)
            bytes.append(contentsOf: tail)
            return bytes
        }
    }

    /// The text of a list of step records, each record's line with what follows it when another
    /// record comes after it (`,` and a line break), for ``encode(_:reusing:)``.
    package struct EncodedRecords: Sendable {
        /// The records written, in an array of its own.
        fileprivate var records: [StepRecord] = []
        /// Their lines, made at the first record (an up-to-date launch makes none).
        fileprivate var lines: RecordLines?
        /// The memory the documents are written into, made at the first (``withEncoded(_:reusing:_:)``).
        fileprivate var scratch: DocumentMemory?

        /// No records.
        package init() {}

        /// Whether two lists of records are written the same, record by record: equal ids of the same
        /// length in UTF-8 (`==` alone would take an id for another form of the same characters, such
        /// as é in one character or two), and equal versions with as many components (`==` alone would
        /// take `1.2` for `1.2.0`). Ids that are `==` and as long but differ in their bytes (combining
        /// marks in another order) keep the text of the earlier one: the same id to every reader, as
        /// to the upgrader, which tells ids apart with `==`. Equal ids that share their storage, as a
        /// launch's records do, compare without reading their bytes.
        private static func sameText(_ lhs: ArraySlice<StepRecord>, _ rhs: [StepRecord]) -> Bool {
            guard lhs.count == rhs.count else { return false }
            if sameRepresentation(lhs, rhs) { return true }
            for (left, right) in zip(lhs.indices, rhs.indices) {
                let (a, b) = (lhs[left].version, rhs[right].version)
                guard a == b, a.componentCount == b.componentCount,
                    lhs[left].id.utf8.count == rhs[right].id.utf8.count, lhs[left].id == rhs[right].id
                else { return false }
            }
            return true
        }

        /// Whether two lists of records, as long, hold records of the very same representation: each
        /// id the same string value to the byte (one storage, or the same small string), each version
        /// the same components. Such records are written the same; records that are not may be too
        /// (``sameText(_:_:)`` compares those as text).
        ///
        /// A launch compares its records with this list at every write, and its records and this list
        /// share their ids' storage: reading their bytes in place keeps the comparison a few
        /// instructions a record, where comparing them as strings took some fifty (a thousand-step
        /// launch compares half a million records).
        private static func sameRepresentation(_ lhs: ArraySlice<StepRecord>, _ rhs: [StepRecord]) -> Bool {
            // On 64-bit platforms a record is 29 bytes without a gap (the id's two words, then the
            // version's three 32-bit components and its component count) and 3 of padding: those 29
            // bytes are compared, a record's differences gathered without a branch.
            if MemoryLayout<StepRecord>.size == 29, MemoryLayout<StepRecord>.stride == 32,
                MemoryLayout<StepRecord>.offset(of: \StepRecord.version) == 16, MemoryLayout<Version>.size == 13
            {
                return lhs.withUnsafeBufferPointer { left in
                    rhs.withUnsafeBufferPointer { right in
                        guard let a = left.baseAddress, let b = right.baseAddress else { return true }
                        var (x, y) = (UnsafeRawPointer(a), UnsafeRawPointer(b))
                        var difference: UInt64 = 0
                        for _ in 0..<left.count {
                            difference |=
                                (x.load(as: UInt64.self) ^ y.load(as: UInt64.self))
                                | (x.load(fromByteOffset: 8, as: UInt64.self)
                                    ^ y.load(fromByteOffset: 8, as: UInt64.self))
                                | (x.load(fromByteOffset: 16, as: UInt64.self)
                                    ^ y.load(fromByteOffset: 16, as: UInt64.self))
                                | UInt64(
                                    x.load(fromByteOffset: 24, as: UInt32.self)
                                        ^ y.load(fromByteOffset: 24, as: UInt32.self))
                                | UInt64(
                                    x.load(fromByteOffset: 28, as: UInt8.self)
                                        ^ y.load(fromByteOffset: 28, as: UInt8.self))
                            x += 32
                            y += 32
                        }
                        return difference == 0
                    }
                }
            }
            let idOffset = MemoryLayout<StepRecord>.offset(of: \StepRecord.id)!
            let idSize = MemoryLayout<String>.size
            return lhs.withUnsafeBufferPointer { left in
                rhs.withUnsafeBufferPointer { right in
                    guard var a = left.baseAddress, var b = right.baseAddress else { return true }
                    for _ in 0..<left.count {
                        let (first, second) = (a.pointee.version, b.pointee.version)
                        guard first.major == second.major, first.minor == second.minor, first.patch == second.patch,
                            first.componentCount == second.componentCount
                        else { return false }
                        let (x, y) = (UnsafeRawPointer(a) + idOffset, UnsafeRawPointer(b) + idOffset)
                        // Two words where a string is two words (64-bit platforms), its bytes otherwise.
                        let sameID =
                            idSize == 16
                            ? x.load(as: UInt64.self) == y.load(as: UInt64.self)
                                && x.load(fromByteOffset: 8, as: UInt64.self)
                                    == y.load(fromByteOffset: 8, as: UInt64.self)
                            : memcmp(x, y, idSize) == 0
                        guard sameID else { return false }
                        a += 1
                        b += 1
                    }
                    return true
                }
            }
        }

        /// Updated for `records`: the lines of the records it holds are kept when they begin
        /// `records`, and the lines of the others are added.
        fileprivate mutating func update(for records: [StepRecord]) {
            if self.records.count > records.count || !Self.sameText(records[..<self.records.count], self.records) {
                self = EncodedRecords()
            }
            guard self.records.count < records.count else { return }
            let added = records[self.records.count...]
            // Lines of its own: a copy of this value elsewhere keeps the lines it had.
            if lines == nil || !isKnownUniquelyReferenced(&lines!) { lines = lines?.copy() ?? RecordLines() }
            let memory = lines!
            // Written in place after the lines kept.
            var writer = DocumentWriter(memory.room(for: DocumentWriter.bound(records: added)))
            added.withUnsafeBufferPointer { writer.recordLines($0) }
            memory.commit(writer.count)
            // A copy of its own: holding the caller's array would make the caller's next append copy it.
            self.records.append(contentsOf: added)
        }
    }

    /// Decodes a document.
    ///
    /// - Parameters:
    ///   - data: The bytes read.
    ///   - location: Where they were read from, for errors.
    /// - Returns: The state, and a format-1 document's history.
    /// - Throws: `UpgradeStoreError` with code `corrupt` (too large, not strict JSON, or not a valid
    ///   state), naming the JSON path, line and column of the fault; or `unsupportedFormat` for a
    ///   newer format.
    package static func decode(_ data: Data, location: String) throws(UpgradeStoreError) -> Contents {
        if data.count > maximumSize { throw tooLarge(data.count, location: location) }
        // Copied in one go: iterating `Data` byte by byte would cost more than parsing the document.
        return try decode(data.withUnsafeBytes { [UInt8]($0) }, location: location)
    }

    /// Decodes a document from its bytes, as the `Data` form does.
    ///
    /// - Parameters:
    ///   - bytes: The bytes read.
    ///   - location: Where they were read from, for errors.
    /// - Returns: The state, and a format-1 document's history.
    /// - Throws: As the `Data` form does.
    package static func decode(_ bytes: [UInt8], location: String) throws(UpgradeStoreError) -> Contents {
        try bytes.withUnsafeBufferPointer { buffer throws(UpgradeStoreError) in try decode(buffer, location: location) }
    }

    /// Decodes a document from memory the caller owns, as the `Data` form does.
    ///
    /// - Parameters:
    ///   - bytes: The bytes read.
    ///   - location: Where they were read from, for errors.
    /// - Returns: The state, and a format-1 document's history.
    /// - Throws: As the `Data` form does.
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, location: String) throws(UpgradeStoreError)
        -> Contents
    {
        if bytes.count > maximumSize { throw tooLarge(bytes.count, location: location) }
        let tape: JSONTape
        do {
            tape = try JSONParser.tape(bytes)
        } catch {
            throw corrupt(
                "at \(describe(error.path)) (line \(error.line), column \(error.column)): invalid JSON: \(error.message)",
                location: location, underlying: error)
        }
        let members = TopLevel(tape)
        // The format first: a newer format may have another shape, and is reported as such.
        if let value = members.format, let found = tape.integer(value), found > format {
            throw UpgradeStoreError(
                code: .unsupportedFormat(found: found, supported: format), location: location,
                detail: "the state has format \(found), but this version of AppUpgrade reads format \(format) at most;"
                    + " it was written by a newer version of the app\(UpgradeStoreError.leftAsItIs)")
        }
        do {
            return try contents(tape, members, shape: JSONShape())
        } catch {
            let position = JSONParser.locate(error.path, in: bytes).map { " (line \($0.line), column \($0.column))" }
            throw corrupt("at \(describe(error.path))\(position ?? ""): \(error.message)", location: location)
        }
    }

    /// The error for a document larger than ``maximumSize``.
    package static func tooLarge(_ size: Int, location: String) -> UpgradeStoreError {
        corrupt(
            "it is \(size) bytes, more than the \(maximumSize >> 20) MiB a state document can be", location: location)
    }

    // MARK: - The mapping

    /// The keys of a state document. Made at each use, once a read: a stored list would be a lazy
    /// global, whose first use in a process (every cold start's first read) costs more than the list.
    private static var keys: [String] {
        ["abandoned", "attempts", "completed", "format", "inProgress", "lastLaunched", "upgradedThrough"]
    }

    /// The contents of a document, read from its tokens: each key found where the sorted document
    /// has it, each string and version read where it lies. A value that is not as expected goes to
    /// ``JSONShape``, which words the fault.
    private static func contents(_ tape: JSONTape, _ members: TopLevel, shape: JSONShape) throws(JSONShapeFault)
        -> Contents
    {
        let top = JSONPath()
        let root = 0
        // Matched, not compared with `==`: the kind's `==` from another module goes through its
        // witness table, which the runtime makes at the first launch.
        guard case .object = tape.kind(root) else {
            throw shape.failure(top, "expected an object, found \(shape.describe(tape.value(at: root)))")
        }
        guard let format = members.format else { throw shape.failure(top, "missing the required key \"format\"") }
        let legacy = try shape.integer(tape, format, at: top.appending("format"), minimum: 1, what: "the format") == 1
        let found =
            1 + present(members.abandoned) + present(members.attempts) + present(members.completed)
            + present(members.inProgress)
            + present(members.lastLaunched) + present(members.upgradedThrough)
        try shape.object(
            tape, root, at: top, found: found, requiredCount: 7,
            keys: legacy ? keys + ["history"] : keys, required: keys)
        // The object has every required key, so each was found; the message is for a broken promise.
        func required(_ value: Int?, _ key: String) throws(JSONShapeFault) -> Int {
            guard let value else { throw shape.failure(top, "missing the required key \(JSONWriter.quoted(key))") }
            return value
        }
        // Paths are written out where they are used: each is an autoclosure, built only for an error.
        func at(_ key: String) -> JSONPath { top.appending(key) }
        var state = UpgradeState(
            upgradedThrough: try shape.optionalVersion(
                tape, try required(members.upgradedThrough, "upgradedThrough"), at: at("upgradedThrough")),
            lastLaunched: try shape.optionalVersion(
                tape, try required(members.lastLaunched, "lastLaunched"), at: at("lastLaunched")))
        state.completed = try records(
            tape, try required(members.completed, "completed"), at: at("completed"), shape: shape)
        state.abandoned = try records(
            tape, try required(members.abandoned, "abandoned"), at: at("abandoned"), shape: shape)
        let attemptsList = try required(members.attempts, "attempts")
        var element = attemptsList + 1
        for index in 0..<(try shape.array(tape, attemptsList, at: at("attempts"))) {
            func here(_ key: String) -> JSONPath { at("attempts").appending(index).appending(key) }
            var next = tape.firstMember(of: element)
            let failed = tape.value(forKey: "failed", in: element, expectedAt: &next)
            let id = tape.value(forKey: "id", in: element, expectedAt: &next)
            let interrupted = tape.value(forKey: "interrupted", in: element, expectedAt: &next)
            let version = tape.value(forKey: "version", in: element, expectedAt: &next)
            try shape.object(
                tape, element, at: at("attempts").appending(index),
                found: present(failed) + present(id) + present(interrupted) + present(version), requiredCount: 4,
                keys: ["failed", "id", "interrupted", "version"], required: ["failed", "id", "interrupted", "version"])
            state.attempts.append(
                StepAttempts(
                    id: try shape.string(tape, try required(id, "id"), at: here("id")),
                    version: try shape.version(tape, try required(version, "version"), at: here("version")),
                    failed: try shape.integer(
                        tape, try required(failed, "failed"), at: here("failed"), minimum: 1,
                        what: "a failed-attempt count"),
                    lastAttemptInterrupted: try shape.bool(
                        tape, try required(interrupted, "interrupted"), at: here("interrupted"))))
            element = tape.after(element)
        }
        let running = try required(members.inProgress, "inProgress")
        if !tape.isNull(running) {
            func here(_ key: String) -> JSONPath { at("inProgress").appending(key) }
            var next = tape.firstMember(of: running)
            let attempt = tape.value(forKey: "attempt", in: running, expectedAt: &next)
            let id = tape.value(forKey: "id", in: running, expectedAt: &next)
            let version = tape.value(forKey: "version", in: running, expectedAt: &next)
            try shape.object(
                tape, running, at: at("inProgress"), found: present(attempt) + present(id) + present(version),
                requiredCount: 3, keys: ["attempt", "id", "version"], required: ["attempt", "id", "version"])
            state.inProgress = StepInProgress(
                id: try shape.string(tape, try required(id, "id"), at: here("id")),
                version: try shape.version(tape, try required(version, "version"), at: here("version")),
                attempt: try shape.integer(
                    tape, try required(attempt, "attempt"), at: here("attempt"), minimum: 1, what: "an attempt number"))
        }
        var history: [LaunchRecord]?
        var first = tape.firstMember(of: root)
        if legacy, let list = tape.value(forKey: "history", in: root, expectedAt: &first) {
            let path = at("history")
            history = try shape.array(tape.value(at: list), at: path).enumerated().map {
                (index, value) throws(JSONShapeFault) in
                try LaunchHistoryLine.record(value, at: path.appending(index), shape: shape)
            }
        }
        return Contents(state: state, legacyHistory: history)
    }

    /// The values of the top-level keys of a document (`nil` for a key it does not have), looked up in
    /// the order the document has them.
    private struct TopLevel {
        let abandoned, attempts, completed, format, inProgress, lastLaunched, upgradedThrough: Int?

        init(_ tape: JSONTape) {
            // Each found at the first comparison in a document this package wrote.
            var next = tape.firstMember(of: 0)
            abandoned = tape.value(forKey: "abandoned", in: 0, expectedAt: &next)
            attempts = tape.value(forKey: "attempts", in: 0, expectedAt: &next)
            completed = tape.value(forKey: "completed", in: 0, expectedAt: &next)
            format = tape.value(forKey: "format", in: 0, expectedAt: &next)
            inProgress = tape.value(forKey: "inProgress", in: 0, expectedAt: &next)
            lastLaunched = tape.value(forKey: "lastLaunched", in: 0, expectedAt: &next)
            upgradedThrough = tape.value(forKey: "upgradedThrough", in: 0, expectedAt: &next)
        }
    }

    /// 1 for a key that was found, 0 for one that was not.
    private static func present(_ value: Int?) -> Int { value == nil ? 0 : 1 }

    private static func records(
        _ tape: JSONTape, _ list: Int, at path: @autoclosure () -> JSONPath, shape: JSONShape
    ) throws(JSONShapeFault) -> [StepRecord] {
        let count = try shape.array(tape, list, at: path())
        var records: [StepRecord] = []
        records.reserveCapacity(count)
        var element = list + 1
        for index in 0..<count {
            var next = tape.firstMember(of: element)
            let id = tape.value(forKey: "id", in: element, expectedAt: &next)
            let version = tape.value(forKey: "version", in: element, expectedAt: &next)
            try shape.object(
                tape, element, at: path().appending(index), found: present(id) + present(version),
                requiredCount: 2, keys: ["id", "version"], required: ["id", "version"])
            // Found, as the object has every required key; the messages are for a broken promise.
            guard let id else { throw shape.failure(path().appending(index), "missing the required key \"id\"") }
            guard let version else {
                throw shape.failure(path().appending(index), "missing the required key \"version\"")
            }
            records.append(
                StepRecord(
                    id: try shape.string(tape, id, at: path().appending(index).appending("id")),
                    version: try shape.version(tape, version, at: path().appending(index).appending("version"))))
            element = tape.after(element)
        }
        return records
    }

    private static func describe(_ path: JSONPath) -> String {
        path.components.isEmpty ? "the top level" : path.description
    }

    private static func corrupt(_ problem: String, location: String, underlying: (any Error)? = nil)
        -> UpgradeStoreError
    {
        UpgradeStoreError(
            code: .corrupt, location: location,
            detail: "not a valid upgrade state document: \(problem)\(UpgradeStoreError.leftAsItIs)",
            underlying: underlying)
    }
}

/// Writes a state document's bytes directly from the state, in the layout of `JSONWriter.pretty`
/// (keys sorted, two-space indentation, a small object of plain values on one line when it has at
/// most `JSONWriter.oneLineLimit` characters) without building a `JSONValue` tree first: a launch
/// writes the state after every step, so its cost is a launch's cost. The tests check that the bytes
/// are `JSONWriter.pretty` of themselves, parsed.
///
/// It writes through a ``ByteWriter`` into memory sized beforehand for the longest text each part may
/// take (the `bound` functions): no array is appended to, grown or copied while a document is written.
private struct DocumentWriter {
    private var writer: ByteWriter

    /// A writer into `buffer`, which must hold the bound of what is written.
    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { writer = ByteWriter(buffer) }

    /// How many bytes are written.
    var count: Int { writer.count }
    /// The bytes written.
    var written: UnsafeBufferPointer<UInt8> { writer.written }

    /// The longest text of a record's fields other than its id, in either layout, with the `,` and
    /// the line break after it.
    static let recordBound = 96 + ByteWriter.versionBound
    /// The same for an entry of `attempts`: the count, the flag and the keys, in either layout.
    static let attemptBound = 192 + ByteWriter.integerBound + ByteWriter.versionBound
    /// The same for `inProgress`.
    static let inProgressBound = 128 + ByteWriter.integerBound + ByteWriter.versionBound
    /// The keys of the top-level object, its punctuation, the format and the two versions.
    static let skeletonBound = 256 + ByteWriter.integerBound + 2 * ByteWriter.versionBound

    /// The longest text of the lines of `records` (``recordLines(_:)``).
    static func bound(records: some Sequence<StepRecord>) -> Int {
        records.reduce(0) { $0 + recordBound + ByteWriter.quotedBound(utf8Count: $1.id.utf8.count) }
    }

    /// The longest text of a document of `state` other than its `completed` records' lines.
    static func bound(_ state: UpgradeState) -> Int {
        var bound = skeletonBound + 8
        bound += Self.bound(records: state.abandoned) + 8
        for entry in state.attempts {
            bound += attemptBound + ByteWriter.quotedBound(utf8Count: entry.id.utf8.count)
        }
        if let running = state.inProgress {
            bound += inProgressBound + ByteWriter.quotedBound(utf8Count: running.id.utf8.count)
        }
        return bound
    }

    /// Writes the whole document but its `completed` records' lines, with its final line break. The
    /// top-level object never fits on one line: its keys alone take more than
    /// `JSONWriter.oneLineLimit` characters.
    ///
    /// - Parameters:
    ///   - state: The state.
    ///   - hasCompleted: Whether it has `completed` records, whose lines go at the position returned.
    /// - Returns: Where the lines of the `completed` records go (``StateDocument/EncodedRecords``).
    mutating func document(_ state: UpgradeState, hasCompleted: Bool) -> Int {
        // The fixed text in as few pieces as the state allows: a launch writes a document a step, and
        // usually with nothing abandoned and no failed attempts.
        if state.abandoned.isEmpty && state.attempts.isEmpty {
            raw("{\n  \"abandoned\": [],\n  \"attempts\": [],\n  \"completed\": ")
        } else {
            raw("{\n  \"abandoned\": ")
            records(state.abandoned)
            raw(",\n  \"attempts\": ")
            attempts(state.attempts)
            raw(",\n  \"completed\": ")
        }
        var split = writer.count
        if hasCompleted {
            raw("[\n")
            split = writer.count
            raw("\n  ],\n  \"format\": ")
        } else {
            raw("[],\n  \"format\": ")
        }
        writer.integer(StateDocument.format)
        raw(",\n  \"inProgress\": ")
        if let running = state.inProgress {
            inProgress(running)
        } else {
            raw("null")
        }
        raw(",\n  \"lastLaunched\": ")
        optionalVersion(state.lastLaunched)
        raw(",\n  \"upgradedThrough\": ")
        optionalVersion(state.upgradedThrough)
        raw("\n}\n")
        return split
    }

    /// The list of `attempts`, after its key.
    private mutating func attempts(_ attempts: [StepAttempts]) {
        if attempts.isEmpty {
            raw("[]")
        } else {
            raw("[\n")
            for (index, entry) in attempts.enumerated() {
                raw("    ")
                object(indent: 4, count: 4) { writer, field in
                    switch field {
                    case 0:
                        writer.raw("\"failed\": ")
                        writer.writer.integer(entry.failed)
                    case 1:
                        writer.raw("\"id\": ")
                        writer.writer.quoted(entry.id)
                    case 2:
                        writer.raw(entry.lastAttemptInterrupted ? "\"interrupted\": true" : "\"interrupted\": false")
                    default:
                        writer.raw("\"version\": ")
                        writer.writer.quoted(entry.version)
                    }
                }
                raw(index == attempts.count - 1 ? "\n  ]" : ",\n")
            }
        }
    }

    /// The `inProgress` object, after its key: on one line when it fits, as ``object(indent:count:entry:)``
    /// writes it, without going through its entries one by one.
    private mutating func inProgress(_ running: StepInProgress) {
        let start = writer.count
        raw("{\"attempt\": ")
        writer.integer(running.attempt)
        raw(", \"id\": ")
        writer.quoted(running.id)
        raw(", \"version\": ")
        writer.quoted(running.version)
        raw("}")
        if writer.characterCount(since: start) <= JSONWriter.oneLineLimit { return }
        writer.truncate(to: start)
        object(indent: 2, count: 3) { writer, field in
            switch field {
            case 0:
                writer.raw("\"attempt\": ")
                writer.writer.integer(running.attempt)
            case 1:
                writer.raw("\"id\": ")
                writer.writer.quoted(running.id)
            default:
                writer.raw("\"version\": ")
                writer.writer.quoted(running.version)
            }
        }
    }

    /// A list of step records, under a key of the top-level object.
    private mutating func records(_ records: [StepRecord]) {
        if records.isEmpty { return raw("[]") }
        raw("[\n")
        records.withUnsafeBufferPointer { recordLines($0) }
        // Each line ends with `,` and a line break, which the last one does not take.
        writer.truncate(to: writer.count - 2)
        raw("\n  ]")
    }

    /// Writes each record's line followed by `,` and a line break: records of the common form on one
    /// line as `    {"id": "ID", "version": "1.2"},`, the others in the layout of ``object(indent:count:entry:)``.
    mutating func recordLines(_ records: UnsafeBufferPointer<StepRecord>) {
        for record in records {
            if appendCommonRecord(record) { continue }
            raw("    ")
            object(indent: 4, count: 2) { writer, field in
                if field == 0 {
                    writer.raw("\"id\": ")
                    writer.writer.quoted(record.id)
                } else {
                    writer.raw("\"version\": ")
                    writer.writer.quoted(record.version)
                }
            }
            raw(",\n")
        }
    }

    /// The common record, its line and what follows it: `    {"id": "ID", "version": "1.2"},` and
    /// a line break, for an id of ASCII characters that need no escape, when the object has at most
    /// `JSONWriter.oneLineLimit` characters.
    ///
    /// - Returns: Whether it was written; when not, nothing was.
    private mutating func appendCommonRecord(_ record: StepRecord) -> Bool {
        let start = writer.count
        let limit = JSONWriter.oneLineLimit
        // The object is `{"id": "` ID `", "version": "` VERSION `"}`: 25 characters, the id and the
        // version (3 at least), so an id of more than 72 characters is never on one line.
        let wrote = record.id.utf8.withContiguousStorageIfAvailable { id -> Bool in
            guard id.count <= limit - 25 - 3, !id.contains(where: Self.needsEscapeOrIsNotASCII) else { return false }
            writer.append("    {\"id\": \"")
            writer.append(id)
            return true
        }
        guard wrote == true else { return false }
        writer.append("\", \"version\": ")
        writer.quoted(record.version)
        writer.append("}")
        // All ASCII: the object's length without the indentation is its character count.
        guard writer.count - start - 4 <= limit else {
            writer.truncate(to: start)
            return false
        }
        writer.append(",\n")
        return true
    }

    /// Whether a byte of a string must be escaped in JSON, or is part of a non-ASCII character.
    private static func needsEscapeOrIsNotASCII(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// An object of plain values at `indent`: written on one line, then spread one entry a line when
    /// that line is too long. `entry` writes the key and value of an entry, in key order.
    private mutating func object(indent: Int, count: Int, entry: (inout Self, Int) -> Void) {
        let start = writer.count
        raw("{")
        for index in 0..<count {
            if index > 0 { raw(", ") }
            entry(&self, index)
        }
        raw("}")
        if writer.characterCount(since: start) <= JSONWriter.oneLineLimit { return }
        writer.truncate(to: start)
        raw("{\n")
        for index in 0..<count {
            writer.spaces(indent + 2)
            entry(&self, index)
            raw(index == count - 1 ? "\n" : ",\n")
        }
        writer.spaces(indent)
        raw("}")
    }

    private mutating func raw(_ text: StaticString) { writer.append(text) }

    private mutating func optionalVersion(_ version: Version?) {
        if let version { writer.quoted(version) } else { raw("null") }
    }
}

/// The lines of a launch's `completed` records (``StateDocument/EncodedRecords``), kept from one write
/// to the next and grown as records are added, in memory whose address the writes lend to `writev`.
/// Shared by copies of the records' value until one of them adds to it, which copies it first.
final class RecordLines: @unchecked Sendable {
    private var base: UnsafeMutablePointer<UInt8>?
    private var capacity = 0
    /// How many bytes the lines take, each with `,` and a line break after it.
    private(set) var count = 0

    deinit { base?.deallocate() }

    /// The lines, without what follows the last (`,` and a line break); empty when there are none.
    var withoutLastSeparator: UnsafeRawBufferPointer {
        count < 2 ? UnsafeRawBufferPointer(start: nil, count: 0) : UnsafeRawBufferPointer(start: base, count: count - 2)
    }

    /// Room for `length` more bytes after the lines, grown when needed; ``commit(_:)`` adds what was
    /// written there.
    ///
    /// - Parameter length: The most bytes about to be written.
    /// - Returns: The room, valid until the next call.
    func room(for length: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if count + length > capacity {
            let grown = max(count + length, 2 * capacity, 1024)
            let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            if let base {
                memory.update(from: base, count: count)
                base.deallocate()
            }
            (base, capacity) = (memory, grown)
        }
        return UnsafeMutableBufferPointer(start: base! + count, count: length)
    }

    /// Adds the `written` bytes at the start of the last ``room(for:)`` to the lines.
    func commit(_ written: Int) { count += written }

    /// A copy with the same lines, in memory of its own.
    func copy() -> RecordLines {
        let copy = RecordLines()
        let room = copy.room(for: count)
        if let base { room.baseAddress!.update(from: base, count: count) }
        copy.commit(count)
        return copy
    }
}

/// Memory that the documents of one launch are written into, kept from one write to the next and
/// grown when a document needs more. Used only by the one launch whose ``StateDocument/EncodedRecords``
/// holds it, one write at a time.
final class DocumentMemory: @unchecked Sendable {
    private var base: UnsafeMutablePointer<UInt8>?
    private var capacity = 0

    deinit { base?.deallocate() }

    /// The memory, with room for at least `count` bytes; what it held before is not kept.
    ///
    /// - Parameter count: The most bytes the next document takes.
    /// - Returns: The memory, valid while this object lives and until the next call.
    func buffer(atLeast count: Int) -> UnsafeMutableBufferPointer<UInt8> {
        if count > capacity {
            base?.deallocate()
            capacity = max(count, 2 * capacity, 1024)
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        }
        return UnsafeMutableBufferPointer(start: base, count: capacity)
    }
}
