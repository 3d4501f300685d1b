/// A non-negative decimal number as an installed-base file writes it: digits, optionally a point
/// and more digits (`12`, `0.35`); no sign, exponent, spaces, `nan` or `inf`.
struct DecimalText: Sendable, Hashable {
    /// Why a text is not such a number.
    struct SyntaxError: Error, Sendable, Hashable {
        /// What is wrong, in words.
        var reason: String
    }

    /// The text as written.
    let text: Substring
    /// The digits before the point, leading zeros dropped.
    let whole: Substring
    /// The digits after the point, trailing zeros included.
    let fraction: Substring

    /// Reads a number.
    ///
    /// - Parameter text: The field's text.
    /// - Throws: ``SyntaxError`` saying what is wrong.
    init(parsing text: Substring) throws(SyntaxError) {
        self.text = text
        let example = "write a number such as 12 or 0.35"
        guard let first = text.first else { throw SyntaxError(reason: "is empty; \(example)") }
        if text.contains(where: { $0 == " " || $0 == "\t" }) {
            throw SyntaxError(reason: "has a space; \(example), with nothing around it")
        }
        if first == "-" { throw SyntaxError(reason: "is negative; a number of devices is 0 or more") }
        if first == "+" { throw SyntaxError(reason: "has a sign; write the number without it") }
        let lowered = text.lowercased()
        if lowered.contains("nan") || lowered.contains("inf") {
            throw SyntaxError(reason: "is not a number; \(example)")
        }
        let isDigit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        if isDigit(first), text.contains(where: { $0 == "e" || $0 == "E" }) {
            throw SyntaxError(reason: "has an exponent; write the digits out")
        }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { $0.allSatisfy(isDigit) }
        guard parts.allSatisfy(isDigits) else {
            throw SyntaxError(reason: "is not a decimal number; \(example)")
        }
        guard !parts[0].isEmpty, parts.count == 1 || !parts[1].isEmpty else {
            throw SyntaxError(reason: "needs digits on both sides of the point, such as 0.5 or 5.0")
        }
        let fraction = parts.count == 2 ? parts[1] : text[text.endIndex...]
        guard fraction.count <= DeviceCount.maximumScale else {
            throw SyntaxError(reason: "has more than \(DeviceCount.maximumScale) digits after the point")
        }
        whole = parts[0].drop { $0 == "0" }
        self.fraction = fraction
    }

    /// The value times 10 to the power `scale`, or `nil` when it does not fit in 64 bits.
    ///
    /// - Parameter scale: At least ``fraction``'s length, at most ``DeviceCount/maximumScale``.
    func units(scale: Int) -> UInt64? {
        var result: UInt64 = 0
        let padding = repeatElement(Character("0"), count: scale - fraction.count)
        for digit in [whole, fraction].joined() + padding {
            let (shifted, overflow) = result.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            let (sum, carry) = shifted.addingReportingOverflow(UInt64(digit.asciiValue! - UInt8(ascii: "0")))
            guard !carry else { return nil }
            result = sum
        }
        return result
    }
}
