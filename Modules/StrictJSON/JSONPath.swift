/// A location in a JSON document, rendered as `histories[2].launches[0]`.
///
/// The package's JSON reader tracks it as it reads, so that an error names where in the structure of
/// a document it lies: UpgradeFixtures' `FixtureError` carries one (as its own public `JSONPath`),
/// and UpgradeStorage names it in the errors of a state document that is not valid.
package struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path: an object key or a list index.
    package enum Component: Sendable, Hashable {
        /// The value under a key of an object.
        case key(String)
        /// The value at an index of a list, from 0.
        case index(Int)
    }

    /// The steps from the top of the document; empty for the document itself.
    package var components: [Component]

    /// Creates a path.
    ///
    /// - Parameter components: The steps from the top of the document.
    package init(_ components: [Component] = []) { self.components = components }

    /// The path extended by a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The longer path.
    package func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }

    /// The path extended by a list index.
    ///
    /// - Parameter index: The index, from 0.
    /// - Returns: The longer path.
    package func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    /// The path as written in messages: `histories[2].launches[0]`; a key that is not a plain name
    /// is quoted, as in `steps[0]["odd key"]`; the document itself is the empty string.
    package var description: String {
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isPlainName(key) {
                    text += text.isEmpty ? key : ".\(key)"
                } else {
                    text += "[\(JSONWriter.quoted(key))]"
                }
            }
        }
        return text
    }

    /// Whether a key can be written after a `.` without quotes: a letter or `_`, then ASCII letters,
    /// digits and `_`.
    private static func isPlainName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return key.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        }
    }
}
