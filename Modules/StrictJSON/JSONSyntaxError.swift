/// A fault in the syntax of a JSON document: where it is (line, column and the JSON path of the value
/// being read) and what is wrong.
///
/// Read by the fixture reader of UpgradeFixtures and by UpgradeStorage's state document and history
/// readers, which each put it in their own words with the file or store it came from.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    /// The line of the fault, from 1.
    package var line: Int
    /// The column of the fault, in characters (not bytes) from 1.
    package var column: Int
    /// The JSON path of the value being read at the fault (for a duplicate key or a trailing comma,
    /// the object or list that holds it); empty for the document itself.
    package var path: JSONPath
    /// What is wrong, such as `duplicate key "to"` or `trailing comma before "]"`.
    package var message: String

    /// Creates a syntax error.
    ///
    /// - Parameters:
    ///   - line: The line, from 1.
    ///   - column: The column, in characters from 1.
    ///   - path: The JSON path of the value being read.
    ///   - message: What is wrong.
    package init(line: Int, column: Int, path: JSONPath, message: String) {
        self.line = line
        self.column = column
        self.path = path
        self.message = message
    }
}
