/// A JSON value as ``JSONParser`` reads it and ``JSONWriter`` writes it: objects keep their keys in
/// the order written, and integers, other numbers and booleans stay distinct (unlike
/// `JSONSerialization` on Linux, which gives `NSNumber` for all three).
package enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int`.
    case integer(Int)
    /// Any other number, with the text as written.
    case number(String)
    /// A string, escapes resolved.
    case string(String)
    /// A list.
    case array([JSONValue])
    /// An object.
    case object(JSONObject)

    /// Whether the value is `null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The kind of value, for messages such as `expected a string, found a number`.
    package var kindDescription: String {
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

/// A JSON object whose entries keep the order in which they were written; keys are unique, compared
/// as Swift strings (`==`).
package struct JSONObject: Sendable, Equatable {
    /// The members, in the order written.
    package var entries: [JSONMember]

    /// The number of members.
    package var count: Int { entries.count }

    /// Creates an object.
    ///
    /// - Parameter entries: The members, in order; the keys must be unique.
    package init(entries: [JSONMember] = []) {
        self.entries = entries
    }

    /// Creates an object from key-value pairs.
    ///
    /// - Parameter entries: The members, in order; the keys must be unique.
    package init(entries: [(key: String, value: JSONValue)]) {
        self.entries = entries.map { JSONMember($0.key, $0.value) }
    }

    /// Adds a member after the others.
    ///
    /// - Parameters:
    ///   - key: Its key, which no member has yet.
    ///   - value: Its value.
    package mutating func append(_ key: String, _ value: JSONValue) {
        entries.append(JSONMember(key, value))
    }

    /// The value under a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: Its value, or `nil` when the object has no such key.
    package subscript(key: String) -> JSONValue? {
        entries.first { $0.key == key }?.value
    }

    /// Whether the object has a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: `true` when an entry has it.
    package func contains(key: String) -> Bool {
        entries.contains { $0.key == key }
    }
}

/// One member of a ``JSONObject``: a key and its value.
package struct JSONMember: Sendable, Equatable {
    /// The key.
    package var key: String
    /// The value.
    package var value: JSONValue

    /// Creates a member.
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - value: The value.
    package init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
