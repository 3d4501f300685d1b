/// Escaping for text placed in the HTML report, whose SVG parts must also read as XML.
enum HTMLText {
    /// The text safe in an element or a quoted attribute of HTML and of XML: `&`, `<`, `>`, `"` and
    /// `'` as character references, and the characters neither can carry (control characters other
    /// than tab, line feed and carriage return, and noncharacters) replaced by U+FFFD.
    ///
    /// - Parameter text: Any text, such as a fixture's or a step's name.
    /// - Returns: The escaped text.
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                result.unicodeScalars.append(isCarried(scalar) ? scalar : "\u{FFFD}")
            }
        }
        return result
    }

    /// Whether both HTML (without a parse error) and XML 1.0 carry the scalar as it is.
    private static func isCarried(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return false }
        if (0xFDD0...0xFDEF).contains(value) { return false }
        if value & 0xFFFE == 0xFFFE { return false }  // U+FFFE, U+FFFF and their kin in every plane
        return true
    }

    /// The text cut to at most `limit` characters, with `…` in place of what was cut.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - limit: The most characters to keep, at least 2.
    /// - Returns: The text, or its start and `…`.
    static func truncated(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(max(1, limit - 1))) + "…"
    }
}
