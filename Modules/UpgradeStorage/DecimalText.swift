import StrictJSON
import VersionKit

/// Versions written as text straight into a byte buffer, as `Version.description` writes them,
/// without making a string: for the documents and history lines that launches write (integers:
/// `JSONWriter.appendInteger(_:to:)`).
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
}
