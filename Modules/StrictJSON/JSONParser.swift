/// A small, strict JSON reader (RFC 8259) over UTF-8 bytes: the package's one JSON parser.
///
/// It rejects everything RFC 8259 does not allow, including what `JSONSerialization` and
/// `JSONDecoder` let through or lose (a duplicate key, of which they keep one value; a trailing
/// comma): comments, text after the document, invalid UTF-8, lone surrogate escapes, literals such
/// as `NaN`, containers nested more than 256 deep. It keeps the order of keys, and it tracks the JSON
/// path of the value it is reading, so that a syntax error names where in the structure it lies as
/// well as its line and column. Keys are told apart as Swift strings (`==`). The fixture reader of
/// UpgradeFixtures and the state document and history readers of UpgradeStorage read with it.
package struct JSONParser {
    /// The document, lent by the caller for the parse.
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The index in ``bytes`` of the next byte to read.
    private var position = 0
    /// The JSON path of the value being read, for errors.
    private var path: [JSONPath.Component] = []
    /// How deep the value being read is nested.
    private var depth = 0
    /// Containers may nest this deep; a deeper document is refused rather than overflowing the stack.
    private static let maximumDepth = 256
    /// When set, the path whose value's position ``locate(_:in:)-(_,[UInt8])`` is looking for.
    private var target: [JSONPath.Component]?
    /// The position of the value at ``target``, once read.
    private var found: Int?

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
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        if parser.position == bytes.count { throw parser.error("the document is empty; expected a JSON object") }
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.position < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
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
        parser.target = path.components
        parser.skipWhitespace()
        guard (try? parser.parseValue()) != nil, let found = parser.found else { return nil }
        parser.position = found
        let error = parser.error("")
        return (error.line, error.column)
    }

    /// A parser at the start of `bytes`, past a byte-order mark.
    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { position = 3 }
    }

    /// Reads the value that starts at the current position.
    ///
    /// - Throws: ``JSONSyntaxError`` when no well-formed value starts here.
    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of the document; expected a value") }
        if let target, found == nil, path == target { found = position }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        default: throw error("unexpected \(describeCurrent()); expected a value")
        }
    }

    /// Enters a container, refusing one nested too deep.
    private mutating func enter() throws(JSONSyntaxError) {
        guard depth < Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
        depth += 1
        position += 1
        skipWhitespace()
    }

    /// Reads an object, the current position at its `{`; keys must be unique.
    ///
    /// - Throws: ``JSONSyntaxError`` for a duplicate key, a trailing comma or any other fault.
    private mutating func parseObject() throws(JSONSyntaxError) -> JSONObject {
        try enter()
        defer { depth -= 1 }
        var object = JSONObject()
        if peek(UInt8(ascii: "}")) {
            position += 1
            return object
        }
        var keys = Set<String>()
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else {
                throw error("unexpected \(describeCurrent()); expected a key in double quotes")
            }
            let keyStart = position
            let key = try parseString()
            if !keys.insert(key).inserted {
                position = keyStart
                throw error("duplicate key \(JSONWriter.quoted(key))")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else {
                throw error("unexpected \(describeCurrent()); expected \":\" after the key \(JSONWriter.quoted(key))")
            }
            position += 1
            skipWhitespace()
            path.append(.key(key))
            object.append(key, try parseValue())
            path.removeLast()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                skipWhitespace()
                if peek(UInt8(ascii: "}")) { throw error("trailing comma before \"}\"") }
                continue
            }
            if peek(UInt8(ascii: "}")) {
                position += 1
                return object
            }
            throw error("unexpected \(describeCurrent()); expected \",\" or \"}\"")
        }
    }

    /// Reads a list, the current position at its `[`.
    ///
    /// - Throws: ``JSONSyntaxError`` for a trailing comma or any other fault.
    private mutating func parseArray() throws(JSONSyntaxError) -> [JSONValue] {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        if peek(UInt8(ascii: "]")) {
            position += 1
            return elements
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) {
                position += 1
                skipWhitespace()
                if peek(UInt8(ascii: "]")) { throw error("trailing comma before \"]\"") }
                continue
            }
            if peek(UInt8(ascii: "]")) {
                position += 1
                return elements
            }
            throw error("unexpected \(describeCurrent()); expected \",\" or \"]\"")
        }
    }

    /// Reads a string, the current position at its opening quote: runs of plain text are taken as
    /// they are written, escapes resolved between them.
    ///
    /// - Returns: The string.
    /// - Throws: ``JSONSyntaxError`` for a control character, invalid UTF-8, a bad escape or a
    ///   missing closing quote.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        position += 1  // the opening quote
        var text = ""
        var runStart = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                if position > runStart {
                    text += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<position]), as: UTF8.self)
                }
                position += 1
                if byte == UInt8(ascii: "\"") { return text }
                text.unicodeScalars.append(try parseEscape())
                runStart = position
            } else if byte < 0x20 {
                throw error("control character U+\(hex(byte, digits: 4)) in a string; write it as an escape")
            } else if byte >= 0x80 {
                try skipUTF8Sequence()
            } else {
                position += 1
            }
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
            guard let digit = UInt32(String(UnicodeScalar(bytes[position])), radix: 16) else {
                throw error("a \\u escape needs four hex digits")
            }
            value = value * 16 + digit
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

    /// Reads a number, as RFC 8259 writes it (no leading zero, `+`, `NaN` or `Infinity`): an integer
    /// that fits in `Int` as ``JSONValue/integer(_:)``, any other as ``JSONValue/number(_:)`` with its
    /// text as written.
    ///
    /// - Throws: ``JSONSyntaxError`` for a malformed number.
    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = position
        var isInteger = true
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else {
            throw error("a number needs a digit after \"-\"")
        }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error("a number may not have a leading zero")
            }
        } else {
            skipDigits()
        }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("a number needs a digit after \".\"")
            }
            skipDigits()
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw error("a number needs a digit in its exponent")
            }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let integer = Int(text) { return .integer(integer) }
        return .number(text)
    }

    /// Skips ASCII digits.
    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }

    /// Reads `true`, `false` or `null`.
    ///
    /// - Parameters:
    ///   - word: The literal expected.
    ///   - value: Its value.
    /// - Throws: ``JSONSyntaxError`` when the text is not `word`.
    private mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let end = position + word.utf8.count
        guard end <= bytes.count, bytes[position..<end].elementsEqual(word.utf8) else {
            throw error("unexpected \(describeCurrent()); expected a value")
        }
        position = end
        return value
    }

    /// Skips the four white-space characters of JSON.
    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position += 1
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
