/// A fault in an installed-base file: which file, which line, and what is wrong.
///
/// Its ``description`` is one line such as
/// `installed.csv:4: devices "-3": a number of devices has no sign; write 3 or 0`.
public struct InstalledBaseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as its path was given.
    package var file: String
    /// The line of the fault, from 1; `nil` for a fault of the file as a whole.
    package var line: Int?
    /// What is wrong, in words a person can act on.
    package var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - file: The file, as its path was given.
    ///   - line: The line of the fault, from 1, or `nil` for the file as a whole.
    ///   - message: What is wrong.
    package init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: MESSAGE`, or `FILE: MESSAGE` for a fault of the file as a whole.
    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}
