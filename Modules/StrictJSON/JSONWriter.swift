/// Writes ``JSONValue``s as text with keys in the order given, so that output is stable.
///
/// The text is built as UTF-8 bytes: a string without characters to escape is copied whole, and an
/// object that pretty output may keep on one line is written once, then spread over lines only if it
/// turns out too long.
package enum JSONWriter {
    /// The value on one line, with a space after each `:` and `,`.
    ///
    /// - Parameter value: The value.
    /// - Returns: Its text.
    package static func compact(_ value: JSONValue) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(256)
        write(value, into: &text, indent: nil)
        return String(decoding: text, as: UTF8.self)
    }

    /// The value spread over lines with two-space indentation; a list of plain values (and an object
    /// holding only plain values and such lists, when short) stays on one line.
    ///
    /// - Parameter value: The value.
    /// - Returns: Its text, without a final line break.
    package static func pretty(_ value: JSONValue) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(256)
        write(value, into: &text, indent: 0)
        return String(decoding: text, as: UTF8.self)
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

    /// Appends a string as a JSON string literal, as ``quoted(_:)`` writes it.
    ///
    /// - Parameters:
    ///   - string: The string.
    ///   - text: The UTF-8 text to append to.
    package static func appendQuoted(_ string: String, to text: inout [UInt8]) {
        writeString(string, into: &text)
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
        case .null: text.append(contentsOf: "null".utf8)
        case .bool(let flag): text.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): appendInteger(number, to: &text)
        case .number(let literal): text.append(contentsOf: literal.utf8)
        case .string(let string): writeString(string, into: &text)
        case .array(let elements):
            guard let indent, !elements.isEmpty, !elements.allSatisfy(isPlain) else {
                text.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { text.append(contentsOf: ", ".utf8) }
                    write(element, into: &text, indent: nil)
                }
                text.append(UInt8(ascii: "]"))
                return
            }
            let inner = indent + 2
            text.append(contentsOf: "[\n".utf8)
            for (index, element) in elements.enumerated() {
                text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: inner))
                write(element, into: &text, indent: inner)
                text.append(contentsOf: (index == elements.count - 1 ? "\n" : ",\n").utf8)
            }
            text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
            text.append(UInt8(ascii: "]"))
        case .object(let object):
            let start = text.count
            let entries = object.entries
            func writeOneLine() {
                text.append(UInt8(ascii: "{"))
                for (index, entry) in entries.enumerated() {
                    if index > 0 { text.append(contentsOf: ", ".utf8) }
                    writeString(entry.key, into: &text)
                    text.append(contentsOf: ": ".utf8)
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
            text.append(contentsOf: "{\n".utf8)
            for (index, entry) in entries.enumerated() {
                text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: inner))
                writeString(entry.key, into: &text)
                text.append(contentsOf: ": ".utf8)
                write(entry.value, into: &text, indent: inner)
                text.append(contentsOf: (index == entries.count - 1 ? "\n" : ",\n").utf8)
            }
            text.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent))
            text.append(UInt8(ascii: "}"))
        }
    }

    /// Appends an integer in decimal, as `String(_:)` writes it, without making the string: its digits
    /// made on the stack, appended once.
    ///
    /// - Parameters:
    ///   - number: The integer.
    ///   - text: The UTF-8 text to append to.
    package static func appendInteger(_ number: Int, to text: inout [UInt8]) {
        if number >= 0 && number < 10 { return text.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number)) }
        ByteWriter.append(to: &text, bound: ByteWriter.integerBound) { $0.integer(number) }
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

    /// How many characters some one-line JSON text has: its byte count when it is all ASCII (one-line
    /// JSON text holds no line break, the one pair of ASCII characters that makes a single character).
    ///
    /// - Parameter text: UTF-8 text on one line.
    /// - Returns: Its number of characters, as `String.count` counts them.
    package static func characterCount(_ text: ArraySlice<UInt8>) -> Int {
        if text.allSatisfy({ $0 < 0x80 }) { return text.count }
        return String(decoding: text, as: UTF8.self).count
    }

    /// Appends a string literal.
    ///
    /// - Parameters:
    ///   - string: The string.
    ///   - text: The text to append to.
    private static func writeString(_ string: String, into text: inout [UInt8]) {
        ByteWriter.append(to: &text, bound: ByteWriter.quotedBound(utf8Count: string.utf8.count)) { $0.quoted(string) }
    }
}
