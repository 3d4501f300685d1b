import VersionKit

/// Text written byte by byte into memory of a size known beforehand: the writer of the state
/// document, its records and the history lines, which a launch runs at every write, and the one
/// place that writes JSON strings and integers (``JSONWriter`` writes them through it).
///
/// Each append is a store or a copy of a few bytes, where an append to an array checks its
/// uniqueness and capacity and may grow it. The caller sizes the memory for the longest text it
/// may write (each part has its bound: ``quotedBound(utf8Count:)``, ``integerBound``,
/// ``versionBound``, ``numberBound``); writing past it is a programming error, which traps rather
/// than writing outside the memory.
package struct ByteWriter {
    /// The memory written into.
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes are written, from the start of `buffer`.
    package private(set) var count = 0

    /// The most bytes ``integer(_:)`` writes: 19 digits and a sign.
    package static let integerBound = 20
    /// The most bytes ``quoted(_:)-(Version)`` writes: three components, two dots and the quotes.
    package static let versionBound = 3 * integerBound + 4
    /// The most bytes ``thousandths(_:)`` writes: `Double.description`'s longest text, 24 bytes.
    package static let numberBound = 32

    /// A writer at the start of `buffer`.
    ///
    /// - Parameter buffer: The memory, whose bytes need not be initialized.
    package init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    /// The bytes written so far.
    package var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: buffer[..<count]) }

    /// Writes into new memory of `bound` bytes and appends what was written to `bytes`: for a writer
    /// whose text goes into an array that grows.
    ///
    /// - Parameters:
    ///   - bytes: The array to append to.
    ///   - bound: The most bytes `body` writes.
    ///   - body: Writes the text.
    package static func append(to bytes: inout [UInt8], bound: Int, _ body: (inout ByteWriter) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
            var writer = ByteWriter(buffer)
            body(&writer)
            bytes.append(contentsOf: writer.written)
        }
    }

    /// Writes into a new array of at most `bound` bytes.
    ///
    /// - Parameters:
    ///   - bound: The most bytes `body` writes.
    ///   - body: Writes the text.
    /// - Returns: The bytes written.
    package static func bytes(bound: Int, _ body: (inout ByteWriter) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            var writer = ByteWriter(buffer)
            body(&writer)
            count = writer.count
        }
    }

    /// Makes room for `length` more bytes, trapping when the memory has none: a bound that was too
    /// small is a bug of the caller's.
    ///
    /// - Parameter length: How many bytes are about to be written.
    /// - Returns: Where they go.
    @inline(__always)
    private mutating func reserve(_ length: Int) -> UnsafeMutablePointer<UInt8> {
        precondition(length <= buffer.count &- count, "ByteWriter: the text is longer than its bound")
        defer { count &+= length }
        return buffer.baseAddress! + count
    }

    /// Drops what was written after `position`, for a text written again in another layout.
    ///
    /// - Parameter position: A count returned earlier.
    package mutating func truncate(to position: Int) {
        precondition(position >= 0 && position <= count, "ByteWriter: truncated past its end")
        count = position
    }

    /// Appends one byte.
    @inline(__always)
    package mutating func append(_ byte: UInt8) { reserve(1).pointee = byte }

    /// Appends a literal's UTF-8 bytes.
    @inline(__always)
    package mutating func append(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        reserve(length).update(from: text.utf8Start, count: length)
    }

    /// Appends bytes.
    package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count).update(from: start, count: bytes.count)
    }

    /// Appends `count` spaces.
    package mutating func spaces(_ count: Int) {
        guard count > 0 else { return }
        reserve(count).update(repeating: UInt8(ascii: " "), count: count)
    }

    /// Appends an integer in decimal, as `String(_:)` writes it: at most 20 bytes.
    package mutating func integer(_ number: Int) {
        if number >= 0 && number < 10 { return append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number)) }
        var digits = 1
        var power: UInt = 10
        let magnitude = number.magnitude
        while digits < 20 && power <= magnitude {
            digits &+= 1
            power = power &* 10
        }
        let sign = number < 0 ? 1 : 0
        let start = reserve(sign + digits)
        if sign == 1 { start.pointee = UInt8(ascii: "-") }
        var rest = magnitude
        var index = sign + digits - 1
        while index >= sign {
            start[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            index -= 1
        }
    }

    /// Appends a version in double quotes, as `Version.description` writes it: `"1.2"` or `"1.2.3"`.
    package mutating func quoted(_ version: Version) {
        append(UInt8(ascii: "\""))
        integer(version.major)
        append(UInt8(ascii: "."))
        integer(version.minor)
        if version.componentCount == 3 {
            append(UInt8(ascii: "."))
            integer(version.patch)
        }
        append(UInt8(ascii: "\""))
    }

    /// The most bytes ``quoted(_:)-(String)`` writes for a string of `length` UTF-8 bytes: each byte
    /// may be escaped as `\u00XX`, and the quotes.
    package static func quotedBound(utf8Count length: Int) -> Int { 6 * length + 2 }

    /// Appends a string as a JSON string literal: `"` and `\` escaped, the control characters (and
    /// DEL) escaped by their short names or as `\u00XX`, everything else (non-ASCII characters
    /// included) as it is.
    package mutating func quoted(_ string: String) {
        append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            // Eight bytes at a time up to the first word that holds a byte to escape (an id has none).
            let plain = Self.plainPrefix(bytes)
            for index in plain..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x7F || byte == 0x22 || byte == 0x5C else { continue }
                append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                switch byte {
                case 0x22: append("\\\"")
                case 0x5C: append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                default:
                    let hex: StaticString = "0123456789ABCDEF"
                    append("\\u00")
                    append(hex.utf8Start[Int(byte >> 4)])
                    append(hex.utf8Start[Int(byte & 0x0F)])
                }
            }
            append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        append(UInt8(ascii: "\""))
    }

    /// How many bytes at the start of `bytes` need no escape in a JSON string, read eight at a time:
    /// a multiple of eight, up to the first word that holds a byte below 0x20, `"`, `\\` or DEL.
    private static func plainPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let start = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(start)
        var index = 0
        while index + 8 <= bytes.count {
            let word = ByteWords.load(raw, at: index)
            let marks =
                ByteWords.marks(word, below: 0x20) | ByteWords.marks(word, equalTo: 0x22)
                | ByteWords.marks(word, equalTo: 0x5C) | ByteWords.marks(word, equalTo: 0x7F)
            if marks != 0 { break }
            index += 8
        }
        return index
    }

    /// The number of characters written since `position` (a byte each while they are ASCII), as
    /// `JSONWriter.characterCount(_:)` counts them.
    ///
    /// - Parameter position: A count returned earlier.
    /// - Returns: How many characters the bytes since then make.
    package func characterCount(since position: Int) -> Int {
        let text = UnsafeBufferPointer(rebasing: buffer[position..<count])
        if Self.isASCII(text) { return text.count }
        return String(decoding: text, as: UTF8.self).count
    }

    /// Whether every byte is below 0x80, read eight bytes at a time: a launch asks it of each object
    /// it writes on one line.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(start)
        var high: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            high |= ByteWords.marksNotASCII(ByteWords.load(raw, at: index))
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return ByteWords.marksNotASCII(high) == 0
    }

    /// Appends a number as `Double.description` writes it, or `0` for a value that is not finite: at
    /// most ``numberBound`` bytes.
    ///
    /// A value that is a whole number of thousandths from 0 to 2^40 (the milliseconds and times a
    /// launch records, `LaunchMachine.recorded(_:)`) is written from its integer parts: `1.5`, `0.001`,
    /// `12.0`. That is the text `Double.description` gives, its shortest text that reads back as the
    /// same value: a thousandth is more than the value's precision there (2^-12 at 2^40), so no text
    /// with fewer decimals reads back as it, and it is written without an exponent from 1e-4 to
    /// 2^53. Any other value is written by `Double.description`.
    package mutating func thousandths(_ value: Double) {
        guard value.isFinite else { return append(UInt8(ascii: "0")) }
        let scaled = (value * 1000).rounded()
        // In 64 bits, and the whole part written only where it fits in an `Int` (32 bits on arm64_32).
        guard value.sign == .plus, scaled < 0x1p50, scaled / 1000 == value,
            let whole = Int(exactly: Int64(scaled) / 1000)
        else {
            var text = value.description
            return text.withUTF8 { append($0) }
        }
        integer(whole)
        append(UInt8(ascii: "."))
        var fraction = Int(Int64(scaled) % 1000)
        guard fraction != 0 else { return append(UInt8(ascii: "0")) }
        // Three digits, without the trailing zeros.
        var divisor = 100
        while fraction != 0 {
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}
