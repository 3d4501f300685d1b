/// A fault in the syntax of a JSON document: where it is (line, column and the JSON path of the value
/// being read) and what is wrong.
///
/// Read by the fixture reader of UpgradeSimulation and by UpgradeStorage's state document and history
/// readers, which each put it in their own words with the file or store it came from.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    /// The line of the fault, from 1.
    package var line: Int
    /// The column of the fault, in characters (not bytes) from 1.
    package var column: Int
    /// The JSON path of the value being read at the fault (for a duplicate key or a trailing comma,
    /// the object or list that holds it); empty for the document itself.
    package var path: JSONPath
    /// What is wrong, such as `duplicate key "to"` or `trailing comma before "]"`.
    package var message: String

    /// Creates a syntax error.
    ///
    /// - Parameters:
    ///   - line: The line, from 1.
    ///   - column: The column, in characters from 1.
    ///   - path: The JSON path of the value being read.
    ///   - message: What is wrong.
    package init(line: Int, column: Int, path: JSONPath, message: String) {
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }
}

/// A small, strict JSON reader (RFC 8259) over UTF-8 bytes: the package's one JSON parser.
///
/// It rejects everything RFC 8259 does not allow, including what `JSONSerialization` and
/// `JSONDecoder` let through or lose (a duplicate key, of which they keep one value; a trailing
/// comma): comments, text after the document, invalid UTF-8, lone surrogate escapes, literals such
/// as `NaN`. It keeps the order of keys, and it tracks the JSON path of the value it is reading, so
/// that a syntax error names where in the structure it lies as well as its line and column (the path
/// is kept only when a document is read again to word an error). The fixture reader of
/// UpgradeSimulation and the state document and history readers of UpgradeStorage read with it.
///
/// It reads a document once, to its tokens (``tape(_:)``, one a value and one a key, over the
/// document's bytes); ``parse(_:)-(UnsafeBufferPointer<UInt8>)`` makes the ``JSONValue`` of them.
/// Strings are checked eight bytes at a time up to their first byte that is not plain ASCII text, and
/// are made only when asked for; a key is compared with the keys before it in its object only when
/// its length and its first and last bytes match one of theirs (every key, once a key has an escape
/// or a non-ASCII character), and past 16 members the keys are kept in a set (``ManyKeys``).
package struct JSONParser {
    /// The document, lent by the caller for the parse.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The index in ``bytes`` of the next byte to read.
    private var position = 0
    /// The JSON path of the value being read, for errors; kept only when ``tracksPath`` is set.
    private var path: [JSONPath.Component] = []
    /// Whether ``path`` is kept. A document is read without it first (the common case, a document
    /// that reads well, needs no path), and read again with it only to word an error.
    private var tracksPath = false
    /// How deep the value being read is nested.
    private var depth = 0
    /// Containers may nest this deep; a deeper document is refused rather than overflowing the stack.
    private static let maximumDepth = 256
    /// When set, the path whose value's position ``locate(_:in:)`` is looking for.
    private var target: [JSONPath.Component]?
    /// The position of the value at ``target``, once read.
    private var found: Int?
    /// The tokens read so far.
    private(set) var tokens = JSONTokenBuffer()
    /// How many tokens the document is likely to have, the room made at the first.
    private var expectedTokens = 0

    /// Reads a whole document.
    ///
    /// - Parameter bytes: The document, UTF-8 (a leading byte-order mark is skipped).
    /// - Returns: The value.
    /// - Throws: ``JSONSyntaxError`` for anything that is not one well-formed JSON value.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in try parse(buffer) }
    }

    /// Reads a whole document from memory the caller owns.
    ///
    /// - Parameter bytes: The document, UTF-8 (a leading byte-order mark is skipped).
    /// - Returns: The value.
    /// - Throws: ``JSONSyntaxError`` for anything that is not one well-formed JSON value.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        try tape(bytes).value(at: 0)
    }

    /// Reads a whole document from memory the caller owns, to its tokens: the parse itself, which
    /// ``parse(_:)-(UnsafeBufferPointer<UInt8>)`` continues by making the document's value.
    ///
    /// - Parameter bytes: The document, UTF-8 (a leading byte-order mark is skipped); it must stay
    ///   valid and unchanged while the tape is used.
    /// - Returns: The document's tokens.
    /// - Throws: ``JSONSyntaxError`` for anything that is not one well-formed JSON value.
    package static func tape(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONTape {
        do {
            return try tape(bytes, trackingPath: false)
        } catch {
            // The same fault, found again with the path of the value it lies in.
            return try tape(bytes, trackingPath: true)
        }
    }

    private static func tape(_ bytes: UnsafeBufferPointer<UInt8>, trackingPath: Bool) throws(JSONSyntaxError)
        -> JSONTape
    {
        var parser = JSONParser(bytes: bytes)
        parser.tracksPath = trackingPath
        if Self.startsWithByteOrderMark(bytes) { parser.position = 3 }
        parser.skipWhitespace()
        if parser.position == bytes.count { throw parser.error("the document is empty; expected a JSON object") }
        do {
            try parser.parseValue()
        } catch {
            parser.tokens.free()
            throw error
        }
        parser.skipWhitespace()
        if parser.position < bytes.count {
            parser.tokens.free()
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return JSONTape(bytes: bytes, tokens: parser.tokens.take())
    }

    /// The text of a string token, escapes resolved.
    ///
    /// - Parameters:
    ///   - token: The token, of a document that parsed.
    ///   - bytes: The document.
    /// - Returns: Its text.
    static func text(of token: JSONToken, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let written = UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
        if token.flags & JSONToken.escaped == 0 { return String(decoding: written, as: UTF8.self) }
        // Read again from its opening quote, escapes resolved: it parsed once, so it parses again
        // (were it not to, its text as written).
        var parser = JSONParser(bytes: bytes)
        parser.position = token.start - 1
        return (try? parser.decodeEscapedString()) ?? String(decoding: written, as: UTF8.self)
    }

    /// Where the value at a path starts, for an error about that value found after the document
    /// parsed (a wrong type, an unknown key): the line and column, counted as in ``JSONSyntaxError``.
    ///
    /// - Parameters:
    ///   - path: The value's path; for a key of an object, the position is that of the key's value.
    ///   - bytes: The document, which parses.
    /// - Returns: The line and column, from 1; `nil` when the document does not parse or has no value
    ///   at `path`.
    package static func locate(_ path: JSONPath, in bytes: [UInt8]) -> (line: Int, column: Int)? {
        bytes.withUnsafeBufferPointer { locate(path, in: $0) }
    }

    /// Where the value at a path starts, in memory the caller owns, as the array form says.
    package static func locate(_ path: JSONPath, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int)? {
        var parser = JSONParser(bytes: bytes)
        parser.tracksPath = true
        parser.target = path.components
        if Self.startsWithByteOrderMark(bytes) { parser.position = 3 }
        parser.skipWhitespace()
        let parsed = (try? parser.parseValue()) != nil
        parser.tokens.free()
        guard parsed, let found = parser.found else { return nil }
        parser.position = found
        let error = parser.error("")
        return (error.line, error.column)
    }

    /// Whether a document starts with the UTF-8 byte-order mark, which is skipped (compared byte by
    /// byte: a literal list of bytes would be an array made at every read).
    private static func startsWithByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// A parser at the start of `bytes`.
    ///
    /// - Parameter bytes: The document.
    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A state document of some 150 bytes has 15 tokens; a longer document one every 8 bytes or so,
        // up to room of a few thousand at first (a long string is one token), then doubled as needed.
        expectedTokens = min(max(16, bytes.count / 8), 4096)
    }

    /// Reads the value that starts at the current position, to its tokens.
    ///
    /// - Throws: ``JSONSyntaxError`` when no well-formed value starts here.
    private mutating func parseValue() throws(JSONSyntaxError) {
        guard position < bytes.count else { throw error("unexpected end of the document; expected a value") }
        if let target, found == nil, path == target { found = position }
        switch bytes[position] {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case UInt8(ascii: "\""): try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        case UInt8(ascii: "t"): try parseLiteral("true", .true)
        case UInt8(ascii: "f"): try parseLiteral("false", .false)
        case UInt8(ascii: "n"): try parseLiteral("null", .null)
        default: throw error("unexpected \(describeCurrent()); expected a value")
        }
    }

    /// Reads an object, the current position at its `{`; keys must be unique.
    ///
    /// - Throws: ``JSONSyntaxError`` for a duplicate key, a trailing comma or any other fault.
    private mutating func parseObject() throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
        depth += 1
        defer { depth -= 1 }
        let object = tokens.append(JSONToken(kind: .object, start: position), expecting: expectedTokens)
        position += 1
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            tokens.close(object, members: 0)
            return
        }
        var members = 0
        // A bit for each plain key so far, whether a key had an escape or a non-ASCII character, and
        // the keys' texts past 16 members (JSONParser+RepeatedKeys.swift).
        var keyBits: UInt64 = 0
        var comparesAll = false
        var manyKeys: ManyKeys?
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw error("unexpected \(describeCurrent()); expected a key in double quotes")
            }
            let keyStart = position
            let key = try scanString()
            tokens.markKey(key, of: object)
            let repeated: Bool
            if members >= Self.keysComparedOneByOne {
                repeated = repeatsKeyOfMany(key, in: object, members: members, &manyKeys)
            } else {
                let token = tokens.base.unsafelyUnwrapped[key]
                var mayRepeat = comparesAll
                if token.flags & (JSONToken.escaped | JSONToken.nonASCII) != 0 {
                    (comparesAll, mayRepeat) = (true, true)
                } else {
                    let length = token.end - token.start
                    let bit: UInt64 =
                        length == 0
                        ? 1 : 1 << ((length &* 7 &+ Int(bytes[token.start]) &* 3 &+ Int(bytes[token.end - 1])) & 63)
                    if keyBits & bit != 0 { mayRepeat = true }
                    keyBits |= bit
                }
                repeated = mayRepeat && members > 0 && earlierKey(like: key, in: object, members: members) != nil
            }
            if repeated {
                position = keyStart
                throw error("duplicate key \(JSONWriter.quoted(keyText(key)))")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw error(
                    "unexpected \(describeCurrent()); expected \":\" after the key \(JSONWriter.quoted(keyText(key)))")
            }
            position += 1
            skipWhitespace()
            if tracksPath { path.append(.key(keyText(key))) }
            try parseValue()
            if tracksPath { path.removeLast() }
            members += 1
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                skipWhitespace()
                if peek(UInt8(ascii: "}")) { throw error("trailing comma before \"}\"") }
                continue
            }
            if peek(UInt8(ascii: "}")) {
                position += 1
                tokens.close(object, members: members)
                return
            }
            throw error("unexpected \(describeCurrent()); expected \",\" or \"}\"")
        }
    }

    /// The text of the key token at `index`, for a message or a path.
    func keyText(_ index: Int) -> String { Self.text(of: tokens.base.unsafelyUnwrapped[index], in: bytes) }

    /// Reads a list, the current position at its `[`.
    ///
    /// - Throws: ``JSONSyntaxError`` for a trailing comma or any other fault.
    private mutating func parseArray() throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
        depth += 1
        defer { depth -= 1 }
        let array = tokens.append(JSONToken(kind: .array, start: position), expecting: expectedTokens)
        position += 1
        var elements = 0
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            tokens.close(array, members: 0)
            return
        }
        while true {
            skipWhitespace()
            if tracksPath { path.append(.index(elements)) }
            try parseValue()
            if tracksPath { path.removeLast() }
            elements += 1
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                skipWhitespace()
                if peek(UInt8(ascii: "]")) { throw error("trailing comma before \"]\"") }
                continue
            }
            if peek(UInt8(ascii: "]")) {
                position += 1
                tokens.close(array, members: elements)
                return
            }
            throw error("unexpected \(describeCurrent()); expected \",\" or \"]\"")
        }
    }

    /// Checks a string, the current position at its opening quote, and adds its token.
    ///
    /// - Returns: The token's index.
    /// - Throws: ``JSONSyntaxError`` for a control character, invalid UTF-8, a bad escape or a
    ///   missing closing quote.
    @discardableResult
    private mutating func scanString() throws(JSONSyntaxError) -> Int {
        position += 1  // the opening quote
        let start = position
        var flags: UInt8 = 0
        // The index in a local: a stored position is written back at every byte.
        var index = position
        let count = bytes.count
        // The document has a byte, the opening quote.
        let base = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
        while true {
            // Eight bytes at a time, to the first that is not plain ASCII text: the closing quote, a
            // backslash, a control character or a byte of a non-ASCII character.
            while index + 8 <= count {
                let word = ByteWords.load(base, at: index)
                let marks =
                    ByteWords.marks(word, equalTo: 0x22) | ByteWords.marks(word, equalTo: 0x5C)
                    | ByteWords.marks(word, below: 0x20) | ByteWords.marksNotASCII(word)
                if marks != 0 {
                    index += ByteWords.firstMarked(marks)
                    break
                }
                index += 8
            }
            guard index < count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                position = index + 1
                return tokens.append(
                    JSONToken(kind: .string, flags: flags, start: start, end: index), expecting: expectedTokens)
            }
            if byte == UInt8(ascii: "\\") {
                flags |= JSONToken.escaped
                position = index + 1
                _ = try parseEscape()
                index = position
            } else if byte < 0x20 {
                position = index
                throw error("control character U+\(hex(byte, digits: 4)) in a string; write it as an escape")
            } else if byte >= 0x80 {
                flags |= JSONToken.nonASCII
                position = index
                try skipUTF8Sequence()
                index = position
            } else {
                index += 1
            }
        }
        position = index
        throw error("unexpected end of the document inside a string")
    }

    /// Reads a string that ``scanString()`` checked and found an escape in, the current position at its
    /// opening quote: its text is built from the runs of plain text and the escapes between them.
    ///
    /// - Returns: The string, escapes resolved.
    /// - Throws: ``JSONSyntaxError`` for a bad escape or a missing closing quote, which a string that
    ///   was checked does not have.
    private mutating func decodeEscapedString() throws(JSONSyntaxError) -> String {
        position += 1  // the opening quote
        var scalars = String.UnicodeScalarView()
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
                position += 1
                continue
            }
            if position > runStart {
                // Checked, so decoding repairs nothing; a quote or a backslash is never inside a
                // character of several bytes.
                scalars.append(
                    contentsOf: String(
                        decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<position]), as: UTF8.self
                    ).unicodeScalars)
            }
            position += 1
            if byte == UInt8(ascii: "\"") { return String(scalars) }
            scalars.append(try parseEscape())
            runStart = position
        }
        throw error("unexpected end of the document inside a string")
    }

    /// Reads an escape, the current position just after its backslash.
    ///
    /// - Returns: The character it stands for; a surrogate pair is read whole.
    /// - Throws: ``JSONSyntaxError`` for an unknown escape or a lone surrogate.
    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard position < bytes.count else { throw error("unexpected end of the document inside a string") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            if (0xD800..<0xDC00).contains(first) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { throw error("a high surrogate \\u\(hex(first, digits: 4)) must be followed by a low one") }
                position += 2
                let second = try parseHex4()
                guard (0xDC00..<0xE000).contains(second) else {
                    throw error("\\u\(hex(second, digits: 4)) is not a low surrogate")
                }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else {
                throw error("a lone low surrogate \\u\(hex(first, digits: 4))")
            }
            return scalar
        default:
            position -= 2  // point at the backslash
            throw error("invalid escape \"\\\(describeByte(byte))\"")
        }
    }

    /// Reads the four hex digits of a `\u` escape.
    ///
    /// - Returns: Their value.
    /// - Throws: ``JSONSyntaxError`` when there are not four hex digits.
    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw error("unexpected end of the document in a \\u escape") }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("a \\u escape needs four hex digits")
            }
            value = value * 16 + UInt32(digit)
            position += 1
        }
        return value
    }

    /// Checks one multi-byte UTF-8 sequence (well-formed, shortest form, no surrogates) and skips it.
    ///
    /// - Throws: ``JSONSyntaxError`` for a sequence that is not valid UTF-8.
    private mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        let lead = bytes[position]
        let length: Int
        let minimum: UInt32
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: (length, minimum, scalar) = (2, 0x80, UInt32(lead & 0x1F))
        case 0xE0...0xEF: (length, minimum, scalar) = (3, 0x800, UInt32(lead & 0x0F))
        case 0xF0...0xF4: (length, minimum, scalar) = (4, 0x10000, UInt32(lead & 0x07))
        default: throw error("invalid UTF-8 byte 0x\(hex(lead, digits: 2))")
        }
        guard position + length <= bytes.count else { throw error("truncated UTF-8 sequence") }
        for offset in 1..<length {
            let byte = bytes[position + offset]
            guard byte & 0xC0 == 0x80 else { throw error("invalid UTF-8 sequence") }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800..<0xE000).contains(scalar) else {
            throw error("invalid UTF-8 sequence")
        }
        position += length
    }

    /// Reads a number, as RFC 8259 writes it (no leading zero, `+`, `NaN` or `Infinity`), and adds its
    /// token: an integer token for an integer that fits in `Int`, with its value, otherwise a number
    /// token, whose text is as written.
    ///
    /// - Throws: ``JSONSyntaxError`` for a malformed number.
    private mutating func parseNumber() throws(JSONSyntaxError) {
        let start = position
        var isInteger = true
        let negative = peek(UInt8(ascii: "-"))
        if negative { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw error("a number needs a digit after \"-\"")
        }
        // The magnitude of an integer, read as its digits are checked; `nil` once it is too large.
        var magnitude: UInt64? = 0
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error("a number may not have a leading zero")
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) {
                if let value = magnitude {
                    let (tens, overflow) = value.multipliedReportingOverflow(by: 10)
                    let (sum, carry) = tens.addingReportingOverflow(UInt64(bytes[position] - UInt8(ascii: "0")))
                    magnitude = overflow || carry ? nil : sum
                }
                position += 1
            }
        }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("a number needs a digit after \".\"")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("a number needs a digit in its exponent")
            }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        var token = JSONToken(kind: .number, start: start, end: position)
        if isInteger, let magnitude {
            // `Int.min` has a magnitude one more than `Int.max`.
            if !negative, magnitude <= UInt64(Int.max) {
                (token.kind, token.value) = (.integer, Int(magnitude))
            } else if negative, magnitude <= UInt64(Int.max) + 1 {
                (token.kind, token.value) = (.integer, Int(truncatingIfNeeded: 0 &- magnitude))
            }
        }
        tokens.append(token, expecting: expectedTokens)
    }

    /// Reads `true`, `false` or `null`, and adds its token.
    ///
    /// - Parameters:
    ///   - word: The literal expected.
    ///   - kind: Its token's kind.
    /// - Throws: ``JSONSyntaxError`` when the text is not `word`.
    private mutating func parseLiteral(_ word: StaticString, _ kind: JSONTape.Kind) throws(JSONSyntaxError) {
        // Byte by byte, with no array made for the comparison.
        var end = position
        let matches = word.withUTF8Buffer { literal in
            for byte in literal {
                guard end < bytes.count, bytes[end] == byte else { return false }
                end += 1
            }
            return true
        }
        guard matches else { throw error("unexpected \(describeCurrent()); expected a value") }
        tokens.append(JSONToken(kind: kind, start: position, end: end), expecting: expectedTokens)
        position = end
    }

    /// Skips the four white-space characters of JSON.
    private mutating func skipWhitespace() {
        var index = position
        defer { position = index }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    /// Whether the byte at the current position is `byte`.
    private func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

    /// Whether `byte` is an ASCII digit.
    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// The character at the current position, for a message: `character "x"` or `end of the document`.
    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of the document" }
        let byte = bytes[position]
        if byte >= 0x80 {
            // Name the whole character when the bytes form one.
            var end = position + 1
            while end < bytes.count, end - position < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
            return "character \(JSONWriter.quoted(text))"
        }
        return "character \"\(describeByte(byte))\""
    }

    /// A byte as it reads in a message: itself when printable ASCII, otherwise a `\u` escape.
    private func describeByte(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\u\(hex(byte, digits: 4))"
    }

    /// `value` in upper-case hex, padded with zeros to `digits` digits.
    private func hex<T: BinaryInteger>(_ value: T, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// An error at the current position: line and column counted in characters, from 1.
    ///
    /// - Parameter message: What is wrong.
    /// - Returns: The error, with the position and the current JSON path.
    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        let end = min(position, bytes.count)
        for index in 0..<end where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        let column = bytes[lineStart..<end].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return JSONSyntaxError(line: line, column: column, path: JSONPath(path), message: message)
    }
}
