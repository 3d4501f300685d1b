import StrictJSON
import Testing
import VersionKit

/// The bounded writer that the state document, its records, the history lines and `JSONWriter`'s
/// strings and integers are written with (Modules/StrictJSON/ByteWriter.swift).
@Suite("Byte writer")
struct ByteWriterTests {
    /// The text a writer body writes into memory of `bound` bytes.
    private func text(bound: Int, _ body: (inout ByteWriter) -> Void) -> String {
        String(decoding: ByteWriter.bytes(bound: bound, body), as: UTF8.self)
    }

    @Test(
        "integers are written as String(_:) writes them, within their bound",
        arguments: [0, 1, 9, 10, 99, 100, 12_345, -1, -9, -10, Int.max, Int.min, Int.max - 1, Int.min + 1])
    func integers(number: Int) {
        let written = text(bound: ByteWriter.integerBound) { $0.integer(number) }
        #expect(written == String(number))
        #expect(written.utf8.count <= ByteWriter.integerBound)
    }

    @Test("every power of ten and its neighbours is written as String(_:) writes it")
    func powersOfTen() {
        var power = 1
        for _ in 0..<19 {
            for number in [power - 1, power, power + 1, -power, -power - 1] {
                #expect(text(bound: ByteWriter.integerBound) { $0.integer(number) } == String(number))
            }
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
    }

    @Test("a version is written in quotes as its description, within its bound")
    func versions() {
        let versions = [
            Version(major: 1, minor: 2), Version(major: 1, minor: 2, patch: 0), Version(major: 0, minor: 0, patch: 7),
            Version(major: 2_147_483_647, minor: 2_147_483_647, patch: 2_147_483_647),
        ]
        for version in versions {
            let written = text(bound: ByteWriter.versionBound) { $0.quoted(version) }
            #expect(written == "\"\(version)\"")
        }
    }

    @Test(
        "a string is written as the JSON literal that reads back as it, escaping exactly what JSON requires",
        arguments: [
            ("", #""""#), ("plain id", #""plain id""#), ("a\"b", #""a\"b""#), ("a\\b", #""a\\b""#),
            ("line\nbreak", #""line\nbreak""#), ("\r\t\u{8}\u{C}", #""\r\t\b\f""#),
            ("\u{0}\u{1F}\u{7F}", #""\u0000\u001F\u007F""#),
            ("é ṩ 日本 🙂", #""é ṩ 日本 🙂""#), ("/slash", #""/slash""#),
        ])
    func strings(string: String, literal: String) throws {
        let written = text(bound: ByteWriter.quotedBound(utf8Count: string.utf8.count)) { $0.quoted(string) }
        #expect(written == literal)
        #expect(try JSONParser.parse(Array(written.utf8)) == .string(string))
        #expect(JSONWriter.quoted(string) == literal)
    }

    @Test(
        "a character to escape is escaped wherever it falls, in the eight-byte words read at once or after them",
        arguments: [
            ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1}", #"\u0001"#), ("\u{1F}", #"\u001F"#),
            ("\u{7F}", #"\u007F"#),
        ])
    func escapeAtEveryPosition(character: String, escaped: String) throws {
        for length in 1...20 {
            for position in 0..<length {
                var characters = Array(repeating: "a", count: length)
                characters[position] = character
                let string = characters.joined()
                let expected =
                    "\"" + String(repeating: "a", count: position) + escaped
                    + String(repeating: "a", count: length - position - 1) + "\""
                let written = text(bound: ByteWriter.quotedBound(utf8Count: string.utf8.count)) { $0.quoted(string) }
                #expect(written == expected, "\(length) characters, the escape at \(position)")
            }
        }
        // Bytes next to those escaped, and non-ASCII bytes, are not escaped.
        let neighbours = "\u{20}!#[]^~\u{80}é" + String(repeating: "\u{21}", count: 9)
        let written = text(bound: ByteWriter.quotedBound(utf8Count: neighbours.utf8.count)) { $0.quoted(neighbours) }
        #expect(written == "\"" + neighbours + "\"")
    }

    @Test("a string made only of characters to escape fits its bound")
    func escapeBound() {
        let string = String(repeating: "\u{1}", count: 40)
        let written = text(bound: ByteWriter.quotedBound(utf8Count: string.utf8.count)) { $0.quoted(string) }
        #expect(written.utf8.count == ByteWriter.quotedBound(utf8Count: string.utf8.count))
    }

    @Test("literals, bytes, spaces and a truncation write what they say, and characters are counted as text")
    func pieces() {
        let written = text(bound: 64) { writer in
            writer.append("ab")
            writer.append(UInt8(ascii: "c"))
            let start = writer.count
            Array("déf".utf8).withUnsafeBufferPointer { writer.append($0) }
            #expect(writer.characterCount(since: start) == 3)
            writer.spaces(2)
            writer.append("dropped")
            writer.truncate(to: writer.count - "dropped".utf8.count)
            writer.spaces(0)
        }
        #expect(written == "abcdéf  ")
    }

    @Test(
        "characters are counted as text wherever a non-ASCII character falls, in the eight-byte words or after them",
        arguments: [0, 1, 7, 8, 9, 15, 16, 23, 30])
    func characterCountAtEveryPosition(position: Int) {
        var characters = Array(repeating: "a", count: 31)
        characters[position] = "é"
        let string = characters.joined()
        _ = text(bound: 128) { writer in
            writer.append(UInt8(ascii: "x"))
            let start = writer.count
            Array(string.utf8).withUnsafeBufferPointer { writer.append($0) }
            #expect(writer.characterCount(since: start) == 31)
            let bytes = Array(string.utf8)
            for offset in bytes.indices {
                let expected = String(decoding: bytes[offset...], as: UTF8.self).count
                #expect(writer.characterCount(since: start + offset) == expected, "from byte \(offset)")
            }
            #expect(writer.characterCount(since: 0) == 32)
        }
        for length in 0...17 {
            _ = text(bound: 32) { writer in
                writer.spaces(length)
                #expect(writer.characterCount(since: 0) == length)
            }
        }
    }

    @Test("text appended to an array follows what the array held")
    func appendsToArray() {
        var bytes = Array("[".utf8)
        ByteWriter.append(to: &bytes, bound: ByteWriter.integerBound) { $0.integer(-42) }
        JSONWriter.appendInteger(7, to: &bytes)
        JSONWriter.appendQuoted("x", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"[-427"x""#)
    }
}
