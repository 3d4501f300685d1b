import Foundation

/// Reads a file named on the command line (a fixture, an installed base), wording why it cannot be
/// read for the error that names it.
package enum InputFile {
    /// Why a file could not be read: `no such file`, `is a folder, not a KIND file`, or the system's
    /// reason.
    package struct UnreadableError: Error {
        package let reason: String
    }

    /// Reads a whole file.
    ///
    /// - Parameters:
    ///   - file: The file's path.
    ///   - kind: What the file should be, for the message about a folder (`fixture`).
    /// - Returns: The file's bytes.
    /// - Throws: ``UnreadableError`` with the reason.
    package static func read(_ file: String, kind: String) throws(UnreadableError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: file, isDirectory: &isFolder)
            let reason =
                !exists
                ? "no such file"
                : isFolder.boolValue
                    ? "is a folder, not \(kind.first.map { "aeiou".contains($0) } == true ? "an" : "a") \(kind) file"
                    : "cannot be read (\(error.localizedDescription))"
            throw UnreadableError(reason: reason)
        }
    }
}
