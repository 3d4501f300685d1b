/// Writes ``JSONValue``s as text with keys in the order given, so that output is stable.
///
/// The text is built as UTF-8 bytes: an object that pretty output may keep on one line is written
/// once, then spread over lines only if it turns out too long.
package enum JSONWriter {
    /// The value on one line, with a space after each `:` and `,`.
    ///
    /// - Parameter value: The value.
    /// - Returns: Its text.
    package static func compact(_ value: JSONValue) -> String {
        String(decoding: compactBytes(value), as: UTF8.self)
    }

    /// The value on one line, as ``compact(_:)`` writes it, as UTF-8 bytes.
    ///
    /// - Parameter value: The value.
    /// - Returns: Its text's bytes.
    package static func compactBytes(_ value: JSONValue) -> [UInt8] {
        var text: [UInt8] = []
        write(value, into: &text, indent: nil)
        return text
    }

    /// The value spread over lines with two-space indentation; a list of plain values (and an object
    /// holding only plain values and such lists, when short) stays on one line.
    ///
    /// - Parameter value: The value.
    /// - Returns: Its text, without a final line break.
    package static func pretty(_ value: JSONValue) -> String {
        String(decoding: prettyBytes(value), as: UTF8.self)
    }

    /// The value as ``pretty(_:)`` writes it, as UTF-8 bytes.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - indent: The indentation of the line the value starts on, in spaces.
    /// - Returns: Its text's bytes, without a final line break.
    package static func prettyBytes(_ value: JSONValue, indent: Int = 0) -> [UInt8] {
        var text: [UInt8] = []
        write(value, into: &text, indent: indent)
        return text
    }

    /// A string as a JSON string literal: `"a \"b\""`.
    ///
    /// - Parameter string: The string.
    /// - Returns: It in double quotes, with `"`, `\` and control characters escaped.
    package static func quoted(_ string: String) -> String {
        var text: [UInt8] = []
        writeString(string, into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// The longest object, in characters, that pretty output keeps on one line.
    package static let oneLineLimit = 100

    /// Appends a value's text.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - text: The text to append to.
    ///   - indent: The indentation of the current line in spaces, for pretty output; `nil` for one line.
    private static func write(_ value: JSONValue, into text: inout [UInt8], indent: Int?) {
        switch value {
        case .null: text += "null".utf8
        case .bool(let flag): text += (flag ? "true" : "false").utf8
        case .integer(let number): text += String(number).utf8
        case .number(let literal): text += literal.utf8
        case .string(let string): writeString(string, into: &text)
        case .array(let elements):
            guard let indent, !elements.isEmpty, !elements.allSatisfy(isPlain) else {
                text.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { text += ", ".utf8 }
                    write(element, into: &text, indent: nil)
                }
                text.append(UInt8(ascii: "]"))
                return
            }
            let inner = indent + 2
            text += "[\n".utf8
            for (index, element) in elements.enumerated() {
                text += repeatElement(UInt8(ascii: " "), count: inner)
                write(element, into: &text, indent: inner)
                text += (index == elements.count - 1 ? "\n" : ",\n").utf8
            }
            text += repeatElement(UInt8(ascii: " "), count: indent)
            text.append(UInt8(ascii: "]"))
        case .object(let object):
            let start = text.count
            let entries = object.entries
            func writeOneLine() {
                text.append(UInt8(ascii: "{"))
                for (index, entry) in entries.enumerated() {
                    if index > 0 { text += ", ".utf8 }
                    writeString(entry.key, into: &text)
                    text += ": ".utf8
                    write(entry.value, into: &text, indent: nil)
                }
                text.append(UInt8(ascii: "}"))
            }
            guard let indent, !entries.isEmpty else { return writeOneLine() }
            // An object of plain values and lists of them stays on one line when short enough: written
            // so, then taken back when too long.
            if entries.allSatisfy({ isPlain($0.value) || isListOfPlainValues($0.value) }) {
                writeOneLine()
                if characterCount(text[start...]) <= oneLineLimit { return }
                text.removeSubrange(start...)
            }
            let inner = indent + 2
            text += "{\n".utf8
            for (index, entry) in entries.enumerated() {
                text += repeatElement(UInt8(ascii: " "), count: inner)
                writeString(entry.key, into: &text)
                text += ": ".utf8
                write(entry.value, into: &text, indent: inner)
                text += (index == entries.count - 1 ? "\n" : ",\n").utf8
            }
            text += repeatElement(UInt8(ascii: " "), count: indent)
            text.append(UInt8(ascii: "}"))
        }
    }

    /// How many characters one-line text has: its byte count when it is all ASCII (one-line JSON
    /// holds no line break, the one pair of ASCII characters that makes a single character).
    private static func characterCount(_ text: ArraySlice<UInt8>) -> Int {
        text.allSatisfy { $0 < 0x80 } ? text.count : String(decoding: text, as: UTF8.self).count
    }

    /// Whether a value is neither a list nor an object.
    private static func isPlain(_ value: JSONValue) -> Bool {
        switch value {
        case .array, .object: false
        default: true
        }
    }

    /// Whether a value is a list of plain values.
    private static func isListOfPlainValues(_ value: JSONValue) -> Bool {
        if case .array(let elements) = value { return elements.allSatisfy(isPlain) }
        return false
    }

    /// Appends a string literal: `"` and `\` escaped, the control characters (and DEL) escaped by
    /// their short names or as `\u00XX`, everything else (non-ASCII characters included) as it is.
    ///
    /// - Parameters:
    ///   - string: The string.
    ///   - text: The text to append to.
    private static func writeString(_ string: String, into text: inout [UInt8]) {
        text.append(UInt8(ascii: "\""))
        // Most strings (keys, versions, ids) need no escape: copied whole.
        if !string.utf8.contains(where: needsEscape) {
            text += string.utf8
            text.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case 0x22: text += #"\""#.utf8
            case 0x5C: text += #"\\"#.utf8
            case 0x0A: text += #"\n"#.utf8
            case 0x0D: text += #"\r"#.utf8
            case 0x09: text += #"\t"#.utf8
            case 0x08: text += #"\b"#.utf8
            case 0x0C: text += #"\f"#.utf8
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789ABCDEF".utf8)
                text += #"\u00"#.utf8
                text += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: text.append(byte)
            }
        }
        text.append(UInt8(ascii: "\""))
    }

    /// Whether a byte of a string is written escaped: `"`, `\`, the control characters and DEL.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F
    }
}
