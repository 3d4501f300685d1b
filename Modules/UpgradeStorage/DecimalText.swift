import StrictJSON
import VersionKit

/// Versions and numbers written as text straight into a byte buffer, as `Version.description` and
/// `Double.description` write them, without making a string: for the documents and history lines
/// that launches write (integers: `JSONWriter.appendInteger(_:to:)`).
enum DecimalText {
    /// Appends a version in double quotes, as a JSON string: `"1.2"` or `"1.2.3"`.
    ///
    /// - Parameters:
    ///   - version: The version.
    ///   - bytes: The text to append to.
    static func appendQuoted(_ version: Version, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        JSONWriter.appendInteger(version.major, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        JSONWriter.appendInteger(version.minor, to: &bytes)
        if version.componentCount == 3 {
            bytes.append(UInt8(ascii: "."))
            JSONWriter.appendInteger(version.patch, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a number as `Double.description` writes it, or `0` for a value that is not finite.
    ///
    /// A value that is a whole number of thousandths from 0 to 2^40 (the milliseconds and times a
    /// launch records, `LaunchMachine.recorded(_:)`) is written from its integer parts: `1.5`, `0.001`,
    /// `12.0`. That is the text `Double.description` gives, its shortest text that reads back as the
    /// same value: a thousandth is more than the value's precision there (2^-12 at 2^40), so no text
    /// with fewer decimals reads back as it, and it is written without an exponent from 1e-4 to
    /// 2^53. Any other value is written by `Double.description`.
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - bytes: The text to append to.
    static func appendThousandths(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite else { return bytes.append(UInt8(ascii: "0")) }
        let scaled = (value * 1000).rounded()
        guard value.sign == .plus, scaled < 0x1p50, scaled / 1000 == value else {
            return bytes.append(contentsOf: value.description.utf8)
        }
        // In 64 bits, and the whole part written only where it fits in an `Int` (32 bits on arm64_32).
        let thousandths = Int64(scaled)
        guard let whole = Int(exactly: thousandths / 1000) else {
            return bytes.append(contentsOf: value.description.utf8)
        }
        JSONWriter.appendInteger(whole, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        var fraction = Int(thousandths % 1000)
        guard fraction != 0 else { return bytes.append(UInt8(ascii: "0")) }
        // Three digits, without the trailing zeros.
        var divisor = 100
        while fraction != 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}
