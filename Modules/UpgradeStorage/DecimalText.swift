import VersionKit

/// Numbers and versions written as text straight into a byte buffer, as `String(_:)` and
/// `Version.description` write them, without making a string: for the documents and history lines
/// that launches write.
enum DecimalText {
    /// Appends an integer in decimal: its digits made on the stack, appended once.
    ///
    /// - Parameters:
    ///   - value: The integer.
    ///   - bytes: The text to append to.
    static func append(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 0 && value < 10 { return bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
            var start = digits.count
            var rest = value.magnitude
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// Appends a version in double quotes, as a JSON string: `"1.2"` or `"1.2.3"`.
    ///
    /// - Parameters:
    ///   - version: The version.
    ///   - bytes: The text to append to.
    static func appendQuoted(_ version: Version, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        append(version.major, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        append(version.minor, to: &bytes)
        if version.componentCount == 3 {
            bytes.append(UInt8(ascii: "."))
            append(version.patch, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
