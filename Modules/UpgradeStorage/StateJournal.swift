/// The byte layout of the file store's journals, `NAME.journal-0` and `NAME.journal-1`: what
/// <doc:FileStoreGuarantees> calls "One flush per write".
///
/// A journal is a header, then records, each the whole state as a document holds it:
///
/// - header (16 bytes): `AUJ1`, the generation (64 bits, little-endian), and the checksum of those
///   12 bytes (its low 32 bits);
/// - record: the payload's length (32 bits), the payload (a state document's bytes), the length
///   again, and the checksum (64 bits) of the generation and the payload.
///
/// The checksum is FNV-1a's (64 bits) taken a little-endian 64-bit word at a time, the last bytes
/// one by one.
///
/// A record is valid when both lengths agree and the checksum matches; a torn or partial record
/// (left by a process or a machine that stopped while appending it) is not, and neither is a
/// record of an earlier generation left in the file, since the generation is in its checksum.
package enum StateJournal {
    /// The header's size in bytes.
    package static let headerSize = 16
    /// The bytes a record adds to its payload: a length before it, a length and a checksum after.
    package static let recordOverhead = 16
    /// The size past which a write starts a new generation in the other journal (at the same cost,
    /// one flush), so that a journal never holds more than this and one record.
    package static let generationSize = 8 << 20
    /// The largest journal read: a generation's size and one record of the largest state document.
    package static let maximumSize = generationSize + StateDocument.maximumSize + recordOverhead + headerSize

    private static let magic: [UInt8] = Array("AUJ1".utf8)

    /// A header for `generation`.
    package static func header(generation: UInt64) -> [UInt8] {
        var bytes = magic
        append(generation, to: &bytes)
        append(UInt32(truncatingIfNeeded: checksum(bytes)), to: &bytes)
        return bytes
    }

    /// The generation of a header, or `nil` when `bytes` do not start with a whole, valid one.
    package static func generation(ofHeader bytes: some RandomAccessCollection<UInt8>) -> UInt64? {
        guard bytes.count >= headerSize else { return nil }
        let header = Array(bytes.prefix(headerSize))
        guard header.starts(with: magic),
            UInt32(truncatingIfNeeded: checksum(header[..<12])) == integer(header, at: 12, as: UInt32.self)
        else { return nil }
        return integer(header, at: 4, as: UInt64.self)
    }

    /// A record of `payload` in a journal of `generation`.
    package static func record(_ payload: [UInt8], generation: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + recordOverhead)
        append(UInt32(payload.count), to: &bytes)
        bytes += payload
        append(UInt32(payload.count), to: &bytes)
        append(recordChecksum(payload[...], generation: generation), to: &bytes)
        return bytes
    }

    /// Whether `bytes` is the end of a valid record of `generation`: its trailer (length and
    /// checksum) and, `length` bytes before it, its payload, preceded by the same length.
    ///
    /// - Parameters:
    ///   - bytes: The record whole: the length, the payload, the length, the checksum.
    ///   - generation: The journal's generation.
    ///   - checked: `false` only for the power-cut tests' mutation check, which shows that the
    ///     tests catch a reader that takes a torn record for a whole one.
    /// - Returns: The payload's range in `bytes`, or `nil` when the record is not valid.
    package static func payload(ofRecord bytes: [UInt8], generation: UInt64, checked: Bool = true) -> Range<Int>? {
        guard bytes.count >= recordOverhead else { return nil }
        let length = Int(integer(bytes, at: 0, as: UInt32.self))
        guard checked else { return 4..<min(4 + length, bytes.count) }
        guard length == bytes.count - recordOverhead,
            integer(bytes, at: 4 + length, as: UInt32.self) == UInt32(length),
            integer(bytes, at: 8 + length, as: UInt64.self)
                == recordChecksum(bytes[4..<4 + length], generation: generation)
        else { return nil }
        return 4..<4 + length
    }

    /// The records of a whole journal file, read from the start: the ranges of the valid records'
    /// payloads, up to the first record that is not valid (a torn tail), which ends the walk.
    ///
    /// - Parameters:
    ///   - file: The journal's bytes, header included.
    ///   - generation: The header's generation.
    ///   - checked: As in ``payload(ofRecord:generation:checked:)``.
    /// - Returns: The payloads' ranges in `file`, oldest first.
    package static func payloads(in file: [UInt8], generation: UInt64, checked: Bool = true) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var start = headerSize
        while file.count - start >= recordOverhead {
            let length = Int(integer(file, at: start, as: UInt32.self))
            let end = checked ? start + length + recordOverhead : min(start + length + recordOverhead, file.count)
            guard end <= file.count,
                let payload = payload(ofRecord: Array(file[start..<end]), generation: generation, checked: checked)
            else { break }
            found.append(start + payload.lowerBound..<start + payload.upperBound)
            start = end
        }
        if !checked, start < file.count { found.append(start + 4..<file.count) }
        return found
    }

    /// The length of the record that ends at the end of `trailer`, the last 12 bytes of a record.
    package static func length(ofRecordEndingWith trailer: [UInt8]) -> Int {
        Int(integer(trailer, at: trailer.count - 12, as: UInt32.self)) + recordOverhead
    }

    private static func recordChecksum(_ payload: ArraySlice<UInt8>, generation: UInt64) -> UInt64 {
        var seed: [UInt8] = []
        append(generation, to: &seed)
        return checksum(payload, startingFrom: checksum(seed))
    }

    /// FNV-1a's steps, 64 bits, taken a little-endian 64-bit word at a time (then byte by byte for
    /// the last bytes): a record's bytes are hashed at each write and each read of a journal, and a
    /// launch of a thousand steps writes some thirty megabytes of them.
    private static func checksum(
        _ bytes: some Sequence<UInt8>, startingFrom start: UInt64 = 0xcbf2_9ce4_8422_2325
    ) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var hash = start
        let done: Bool? = bytes.withContiguousStorageIfAvailable { buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            var offset = 0
            while raw.count - offset >= 8 {
                hash =
                    (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))) &* prime
                offset += 8
            }
            for byte in raw[offset...] { hash = (hash ^ UInt64(byte)) &* prime }
            return true
        }
        if done == nil { return checksum(Array(bytes), startingFrom: start) }
        return hash
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func integer<Integer: FixedWidthInteger>(
        _ bytes: some RandomAccessCollection<UInt8>, at offset: Int, as _: Integer.Type
    ) -> Integer {
        var value: Integer = 0
        let start = bytes.index(bytes.startIndex, offsetBy: offset)
        for (shift, byte) in bytes[start...].prefix(MemoryLayout<Integer>.size).enumerated() {
            value |= Integer(byte) << (8 * shift)
        }
        return value
    }
}
