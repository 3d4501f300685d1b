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
///
/// Its members are kept in storage of its own (a class that is not generic, over memory it manages),
/// copied on write, not in an array: the runtime makes the type of an array's storage the first time
/// a process uses it, from its mangled name, which the first read of the state document paid at every
/// cold start of an app (about 11,000 instructions for `[JSONMember]`, 27,000 for the list of tuples
/// before it).
package struct JSONObject: Sendable, Equatable {
    /// The members, shared by copies until one of them changes.
    private var storage: JSONMembers

    /// The members, in the order written.
    ///
    /// Reading it makes an array of them; reading an object by key (``subscript(_:)``) does not.
    package var entries: [JSONMember] {
        get { (0..<storage.count).map { storage[$0] } }
        set { storage = JSONMembers(newValue) }
    }

    /// The number of members.
    package var count: Int { storage.count }

    /// Creates an object.
    ///
    /// - Parameter entries: The members, in order; the keys must be unique.
    package init(entries: [JSONMember] = []) {
        storage = JSONMembers(entries)
    }

    /// Creates an object from key-value pairs.
    ///
    /// - Parameter entries: The members, in order; the keys must be unique.
    package init(entries: [(key: String, value: JSONValue)]) {
        storage = JSONMembers(entries.map { JSONMember($0.key, $0.value) })
    }

    /// Creates an empty object with room for some members.
    ///
    /// - Parameter capacity: How many members it will hold.
    package init(capacity: Int) {
        storage = JSONMembers(capacity: capacity)
    }

    /// Adds a member after the others.
    ///
    /// - Parameters:
    ///   - key: Its key, which no member has yet.
    ///   - value: Its value.
    package mutating func append(_ key: String, _ value: JSONValue) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        storage.append(JSONMember(key, value))
    }

    /// The value under a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: Its value, or `nil` when the object has no such key.
    package subscript(key: String) -> JSONValue? {
        storage.index(of: key).map { storage[$0].value }
    }

    /// Whether the object has a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: `true` when an entry has it.
    package func contains(key: String) -> Bool {
        storage.index(of: key) != nil
    }

    /// Whether the object has a key that is likely at a position: the member there is compared first,
    /// and the others only when it has another key. For a reader that knows the order in which its
    /// documents are written (``JSONShape``'s check of required keys).
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - position: Where the key is likely to be among the members.
    /// - Returns: `true` when an entry has it.
    package func contains(key: String, expectedAt position: Int) -> Bool {
        storage.index(of: key, expectedAt: position) != nil
    }

    /// Whether two objects have the same keys with equal values, in the same order.
    ///
    /// - Parameters:
    ///   - lhs: An object.
    ///   - rhs: Another object.
    /// - Returns: `true` when they are equal.
    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for index in 0..<lhs.storage.count {
            let (left, right) = (lhs.storage[index], rhs.storage[index])
            guard left.key == right.key, left.value == right.value else { return false }
        }
        return true
    }
}

/// The members of a ``JSONObject``, in memory of their own.
private final class JSONMembers: @unchecked Sendable {
    /// The members' memory, of room for `capacity`, of which the first `count` are initialized.
    private var base: UnsafeMutablePointer<JSONMember>
    private var capacity: Int
    /// The number of members.
    private(set) var count = 0

    /// Empty, with room for `capacity` members.
    init(capacity: Int) {
        self.capacity = max(capacity, 0)
        base = UnsafeMutablePointer<JSONMember>.allocate(capacity: self.capacity)
    }

    /// The members of a list.
    convenience init(_ members: [JSONMember]) {
        self.init(capacity: members.count)
        for member in members { append(member) }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// The member at a position, which must be below `count`.
    subscript(index: Int) -> JSONMember {
        precondition(index >= 0 && index < count, "member index out of range")
        return base[index]
    }

    /// The position of the member with a key.
    ///
    /// The key's length in UTF-8 is taken once, not at every member: a member whose key has another
    /// length is passed over without reading its bytes.
    func index(of key: String) -> Int? {
        let length = key.utf8.count
        for index in 0..<count where base[index].key.isSameKey(as: key, utf8Count: length) { return index }
        return nil
    }

    /// The position of the member with a key, the member at `position` compared first.
    func index(of key: String, expectedAt position: Int) -> Int? {
        if position >= 0 && position < count && base[position].key.isSameKey(as: key) { return position }
        return index(of: key)
    }

    /// Adds a member after the others, doubling the room when it is full.
    func append(_ member: JSONMember) {
        if count == capacity {
            let larger = max(2 * capacity, 8)
            let moved = UnsafeMutablePointer<JSONMember>.allocate(capacity: larger)
            moved.moveInitialize(from: base, count: count)
            base.deallocate()
            base = moved
            capacity = larger
        }
        (base + count).initialize(to: member)
        count += 1
    }

    /// A copy of its own, for a change to one of two objects that shared these members.
    func copy() -> JSONMembers {
        let copy = JSONMembers(capacity: count)
        for index in 0..<count { copy.append(base[index]) }
        return copy
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
    /// `==` for object keys, which first compares the UTF-8 lengths, then the bytes: unequal keys, the
    /// common case of a lookup, then skip the full comparison, which costs far more. Keys of equal
    /// length whose bytes differ are compared with `==` only when one of them is not ASCII (where
    /// different bytes may be canonically equivalent text).
    ///
    /// Two strings of the very same representation (one storage, or the same small string: a key of
    /// up to 15 bytes read from a document is kept as the bytes of a literal with its text are) are
    /// the same key without reading their bytes: a state document's reads find each of its keys so,
    /// where the comparison of the bytes took some eighty instructions a key.
    @inline(__always)
    package func isSameKey(as other: String) -> Bool {
        isSameKey(as: other, utf8Count: other.utf8.count)
    }

    /// ``isSameKey(as:)`` with the other key's length in UTF-8 given, for a key looked up among many.
    @inline(__always)
    func isSameKey(as other: String, utf8Count otherCount: Int) -> Bool {
        if MemoryLayout<String>.size == 16 {
            let same = withUnsafeBytes(of: self) { left in
                withUnsafeBytes(of: other) { right in
                    left.load(as: UInt64.self) == right.load(as: UInt64.self)
                        && left.load(fromByteOffset: 8, as: UInt64.self)
                            == right.load(fromByteOffset: 8, as: UInt64.self)
                }
            }
            if same { return true }
        }
        guard utf8.count == otherCount else { return false }
        var (key, other) = (self, other)
        // Whether the bytes say: equal bytes are equal text, and so are unequal ASCII bytes unequal.
        let bytesSay = key.withUTF8 { left in
            other.withUTF8 { right -> Bool? in
                var bits: UInt8 = 0
                var same = true
                for index in 0..<left.count {
                    bits |= left[index] | right[index]
                    if left[index] != right[index] { same = false }
                }
                return same ? true : bits < 0x80 ? false : nil
            }
        }
        return bytesSay ?? (key == other)
    }
}
