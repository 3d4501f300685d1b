/// Writes ``JSONValue``s as text with keys in the order given, so that output is stable.
package enum JSONWriter {
    /// The value on one line, with a space after each `:` and `,`.
    ///
    /// - Parameter value: The value.
    /// - Returns: Its text.
    package static func compact(_ value: JSONValue) -> String {
        var text = ""
        write(value, into: &text, indent: nil)
        return text
    }

    /// The value spread over lines with two-space indentation; a list of plain values (and an object
    /// holding only plain values and such lists, when short) stays on one line.
    ///
    /// - Parameter value: The value.
    /// - Returns: Its text, without a final line break.
    package static func pretty(_ value: JSONValue) -> String {
        var text = ""
        write(value, into: &text, indent: "")
        return text
    }

    /// A string as a JSON string literal: `"a \"b\""`.
    ///
    /// - Parameter string: The string.
    /// - Returns: It in double quotes, with `"`, `\` and control characters escaped.
    package static func quoted(_ string: String) -> String {
        var text = ""
        writeString(string, into: &text)
        return text
    }

    /// Appends a value's text.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - text: The text to append to.
    ///   - indent: The indentation of the current line for pretty output; `nil` for one line.
    private static func write(_ value: JSONValue, into text: inout String, indent: String?) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .integer(let number): text += String(number)
        case .number(let literal): text += literal
        case .string(let string): writeString(string, into: &text)
        case .array(let elements):
            guard let indent, !elements.isEmpty, !fitsOnOneLine(value) else {
                text += "["
                for (index, element) in elements.enumerated() {
                    if index > 0 { text += ", " }
                    write(element, into: &text, indent: nil)
                }
                text += "]"
                return
            }
            let inner = indent + "  "
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += inner
                write(element, into: &text, indent: inner)
                text += index == elements.count - 1 ? "\n" : ",\n"
            }
            text += indent + "]"
        case .object(let object):
            guard let indent, !object.entries.isEmpty, !fitsOnOneLine(value) else {
                text += "{"
                for (index, entry) in object.entries.enumerated() {
                    if index > 0 { text += ", " }
                    writeString(entry.key, into: &text)
                    text += ": "
                    write(entry.value, into: &text, indent: nil)
                }
                text += "}"
                return
            }
            let inner = indent + "  "
            text += "{\n"
            for (index, entry) in object.entries.enumerated() {
                text += inner
                writeString(entry.key, into: &text)
                text += ": "
                write(entry.value, into: &text, indent: inner)
                text += index == object.entries.count - 1 ? "\n" : ",\n"
            }
            text += indent + "}"
        }
    }

    /// Lists of plain values, and small objects of plain values and such lists, read best on one line.
    ///
    /// - Parameter value: The value.
    /// - Returns: Whether pretty output keeps it on one line.
    private static func fitsOnOneLine(_ value: JSONValue) -> Bool {
        func isPlain(_ value: JSONValue) -> Bool {
            switch value {
            case .array, .object: false
            default: true
            }
        }
        switch value {
        case .array(let elements):
            return elements.allSatisfy(isPlain)
        case .object(let object):
            let simple = object.entries.allSatisfy { entry in
                if case .array(let elements) = entry.value { return elements.allSatisfy(isPlain) }
                return isPlain(entry.value)
            }
            return simple && compact(value).count <= 100
        default:
            return true
        }
    }

    /// Appends a string literal.
    ///
    /// - Parameters:
    ///   - string: The string.
    ///   - text: The text to append to.
    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
