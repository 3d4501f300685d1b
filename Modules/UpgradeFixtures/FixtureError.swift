import StrictJSON
import UpgradeCore

/// A fault in a fixture file: which file, where in it (the JSON path, and the line for a syntax
/// error), and what is wrong.
///
/// Its ``description`` is one line such as
/// `Fixtures/skip.json: histories[2].launches[0]: "1.x": unexpected character "x" at offset 2; ...`.
public struct FixtureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as its path was given.
    package var file: String
    /// Where in the document: `histories[2].launches[0]`; empty for the document as a whole.
    package var path: String
    /// The line and column of a JSON syntax error, from 1; `nil` for other faults.
    package var line: Int?
    /// The column of a JSON syntax error, in characters from 1; `nil` for other faults.
    package var column: Int?
    /// What is wrong, in words a person can act on.
    package var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - file: The file, as its path was given.
    ///   - path: Where in the document.
    ///   - line: The line of a syntax error.
    ///   - column: The column of a syntax error.
    ///   - message: What is wrong.
    package init(file: String, path: JSONPath = JSONPath(), line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.path = path.description
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE: PATH: MESSAGE`, with `:LINE:COLUMN` after the file for a syntax error and without the
    /// path when the fault is in the document as a whole.
    public var description: String {
        var text = file
        if let line, let column { text += ":\(line):\(column)" }
        if !path.isEmpty { text += ": \(path)" }
        return text + ": " + message
    }
}
