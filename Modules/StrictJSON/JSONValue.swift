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

/// A JSON object whose entries keep the order in which they were written; keys are unique.
package struct JSONObject: Sendable, Equatable {
    /// The members, in the order written.
    ///
    /// A list of a struct, not of `(key:value:)` tuples: a tuple type, and the list's storage of it,
    /// are made by the runtime the first time a process uses them, which the first read of the state
    /// document at every cold start paid (about 16,000 instructions).
    package var entries: [JSONMember]

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
        // By index, so that no entry is copied (with its key and value retained) to be looked at.
        for index in entries.indices where entries[index].key.isSameKey(as: key) { return entries[index].value }
        return nil
    }

    /// Whether the object has a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: `true` when an entry has it.
    package func contains(key: String) -> Bool {
        for index in entries.indices where entries[index].key.isSameKey(as: key) { return true }
        return false
    }

    /// Whether two objects have the same keys with equal values, in the same order.
    ///
    /// - Parameters:
    ///   - lhs: An object.
    ///   - rhs: Another object.
    /// - Returns: `true` when they are equal.
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
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

extension String {
    /// `==` for object keys, which first compares the UTF-8 lengths: unequal keys, the common case of
    /// a lookup, then skip the full comparison, which costs far more than a length check.
    @inline(__always)
    package func isSameKey(as other: String) -> Bool {
        utf8.count == other.utf8.count && self == other
    }
}
