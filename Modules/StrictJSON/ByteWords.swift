/// The bit tricks that read text eight bytes at a time, as one 64-bit word (the byte writer looks for
/// bytes to escape, the parser for the end of a string).
///
/// Each `marks` function sets the high bit of every byte of the word that matches. Where a byte
/// matches, a byte above it (later in the text) may be marked wrongly, never one below it: the
/// lowest mark, the first match in the text, is exact, and so is whether there is any.
enum ByteWords {
    /// 0x01 in every byte.
    static let ones: UInt64 = 0x0101_0101_0101_0101
    /// The high bit of every byte.
    static let high: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes at `offset`, the first of them the lowest byte of the word.
    @inline(__always)
    static func load(_ base: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Marks the bytes equal to `byte`, which must be below 0x80.
    @inline(__always)
    static func marks(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
        let difference = word ^ (UInt64(byte) &* ones)
        return (difference &- ones) & ~difference & high
    }

    /// Marks the bytes below `bound`, which must be at most 0x80: subtracting it borrows into the
    /// high bit of such a byte, which it did not have.
    @inline(__always)
    static func marks(_ word: UInt64, below bound: UInt8) -> UInt64 {
        (word &- UInt64(bound) &* ones) & ~word & high
    }

    /// Marks the bytes of 0x80 and above (the bytes of non-ASCII characters in UTF-8).
    @inline(__always)
    static func marksNotASCII(_ word: UInt64) -> UInt64 { word & high }

    /// The position in its word of the lowest marked byte, for a word with a mark.
    @inline(__always)
    static func firstMarked(_ marks: UInt64) -> Int { marks.trailingZeroBitCount >> 3 }
}
