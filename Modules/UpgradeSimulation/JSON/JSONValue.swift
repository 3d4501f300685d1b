/// A JSON value as the fixture reader sees it: objects keep their keys in the order written, and
/// integers, other numbers and booleans stay distinct (unlike `JSONSerialization` on Linux, which
/// gives `NSNumber` for all three).
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int`.
    case integer(Int)
    /// Any other number, with the text as written.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The kind of value, for messages such as `expected a string, found a number`.
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer, .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// A JSON object whose entries keep the order in which they were written; keys are unique.
struct JSONObject: Sendable, Equatable {
    var entries: [(key: String, value: JSONValue)] = []

    subscript(key: String) -> JSONValue? {
        entries.first { $0.key == key }?.value
    }

    static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A location in a JSON document, rendered as `histories[2].launches[0]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path: an object key or a list index.
    public enum Component: Sendable, Hashable {
        /// The value under a key of an object.
        case key(String)
        /// The value at an index of a list, from 0.
        case index(Int)
    }

    /// The steps from the top of the document; empty for the document itself.
    public var components: [Component]

    /// Creates a path.
    ///
    /// - Parameter components: The steps from the top of the document.
    public init(_ components: [Component] = []) { self.components = components }

    /// The path extended by a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The longer path.
    public func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }

    /// The path extended by a list index.
    ///
    /// - Parameter index: The index, from 0.
    /// - Returns: The longer path.
    public func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    /// The path as written in messages: `histories[2].launches[0]`; a key that is not a plain name
    /// is quoted, as in `steps[0]["odd key"]`; the document itself is the empty string.
    public var description: String {
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

    private static func isPlainName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic)
        else { return false }
        return key.unicodeScalars.allSatisfy {
            $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
        }
    }
}
