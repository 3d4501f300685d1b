/// A document as ``JSONParser`` reads it: one token a value (and one a key), in the order written,
/// over the document's bytes, which it does not copy.
///
/// A reader that knows what it looks for (the state document, read at every launch) reads the tape
/// itself: it compares keys with the bytes of its literals and reads a string or a version from the
/// bytes where they lie, so that a document is read without making a string, a list or an object for
/// anything it holds. ``value(at:)`` makes the ``JSONValue`` of any token, which the other readers
/// use (``JSONParser/parse(_:)-(UnsafeBufferPointer<UInt8>)`` is the parse to a tape, then the value
/// of its first token), and which a reader of the tape uses to word a fault with ``JSONShape``.
///
/// Tokens are numbered from 0, the document's value. A container's members follow it: an object's
/// keys each followed by its value, a list's values in order; ``after(_:)`` skips a value with all
/// it holds in one step.
///
/// The tape reads the bytes it was parsed from: they must stay valid and unchanged while it is used.
/// Its readers take the index of a token of this tape (below ``count``), as the tape itself gives
/// them (``firstMember(of:)``, ``after(_:)``, ``value(forKey:in:expectedAt:)``); any other index
/// stops the program.
package struct JSONTape {
    /// The kind of a token.
    package enum Kind: Sendable {
        /// `null`.
        case null
        /// `false`.
        case `false`
        /// `true`.
        case `true`
        /// A number written without fraction or exponent that fits in `Int`.
        case integer
        /// Any other number.
        case number
        /// A string, or an object's key.
        case string
        /// A list.
        case array
        /// An object.
        case object
    }

    /// The document.
    package let bytes: UnsafeBufferPointer<UInt8>
    /// Its tokens.
    private let tokens: JSONTokens

    /// A tape of `tokens` over `bytes`, as the parser made them.
    init(bytes: UnsafeBufferPointer<UInt8>, tokens: JSONTokens) {
        self.bytes = bytes
        self.tokens = tokens
    }

    /// The number of tokens.
    package var count: Int { tokens.count }

    /// The kind of the token at `index`.
    package func kind(_ index: Int) -> Kind { tokens[index].kind }

    /// Whether the token at `index` is `null` (a match, not `==`, which a reader in another module
    /// would call through the kind's witness table).
    package func isNull(_ index: Int) -> Bool {
        if case .null = tokens[index].kind { return true }
        return false
    }

    /// The members of an object or the values of a list at `index`; 0 for any other token.
    package func memberCount(_ index: Int) -> Int {
        let token = tokens[index]
        return token.kind == .array || token.kind == .object ? token.value : 0
    }

    /// The token after the value at `index` and all it holds: the next member of the container that
    /// holds it, or the end of that container's tokens.
    package func after(_ index: Int) -> Int {
        let token = tokens[index]
        return token.kind == .array || token.kind == .object ? token.end : index + 1
    }

    /// The value of an integer token; `nil` for any other token.
    package func integer(_ index: Int) -> Int? {
        let token = tokens[index]
        return token.kind == .integer ? token.value : nil
    }

    /// The value of `true` or `false`; `nil` for any other token.
    package func bool(_ index: Int) -> Bool? {
        switch tokens[index].kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// The bytes of a string token that has no escape, as they lie in the document (its text in UTF-8,
    /// without the quotes); `nil` for any other token and for a string with an escape.
    package func plainBytes(_ index: Int) -> UnsafeBufferPointer<UInt8>? {
        let token = tokens[index]
        guard token.kind == .string, token.flags & JSONToken.escaped == 0 else { return nil }
        return UnsafeBufferPointer(rebasing: bytes[token.start..<token.end])
    }

    /// The text of a string token, escapes resolved; `nil` for any other token.
    package func string(_ index: Int) -> String? {
        let token = tokens[index]
        guard token.kind == .string else { return nil }
        return JSONParser.text(of: token, in: bytes)
    }

    /// The value under a key of the object at `index`, the member whose key is the token `next`
    /// compared first, then the others; `next` is then moved to the member after the one found. A
    /// reader that looks its keys up in the order its documents write them (a state document's are
    /// sorted) starts `next` at ``firstMember(of:)`` and finds each key at the first comparison. Keys
    /// compare as ``JSONObject``'s do (``Swift/String/isSameKey(as:)``).
    ///
    /// - Parameters:
    ///   - key: The key.
    ///   - index: The object's token.
    ///   - next: Where the key is likely to be: a token that is a key of this object, or any other
    ///     index, which is not compared.
    /// - Returns: The token of the key's value; `nil` when the object has no such key, or the token
    ///   is not an object.
    package func value(forKey key: StaticString, in index: Int, expectedAt next: inout Int) -> Int? {
        let object = tokens[index]
        guard object.kind == .object else { return nil }
        if next > index && next < object.end, isKey(next, of: index), matches(next, key) {
            let value = next + 1
            next = after(value)
            return value
        }
        var member = index + 1
        for _ in 0..<object.value {
            if matches(member, key) {
                next = after(member + 1)
                return member + 1
            }
            member = after(member + 1)
        }
        return nil
    }

    /// The token of an object's first key, where a reader of its keys in order starts
    /// (``value(forKey:in:expectedAt:)``).
    package func firstMember(of index: Int) -> Int { index + 1 }

    /// Whether the token at `index` is a key of the object at `object`.
    private func isKey(_ index: Int, of object: Int) -> Bool {
        let token = tokens[index]
        return token.flags & JSONToken.key != 0 && token.value == object
    }

    /// Whether the key token at `index` is `key`.
    private func matches(_ index: Int, _ key: StaticString) -> Bool {
        let token = tokens[index]
        if token.flags & JSONToken.escaped == 0 && key.hasPointerRepresentation {
            let length = key.utf8CodeUnitCount
            guard token.end - token.start == length else { return false }
            if Self.sameBytes(bytes.baseAddress.unsafelyUnwrapped + token.start, key.utf8Start, count: length) {
                return true
            }
            // Unequal bytes of ASCII text are unequal text.
            if token.flags & JSONToken.nonASCII == 0 && key.isASCII { return false }
        }
        return (string(index) ?? "").isSameKey(as: key.description)
    }

    /// Whether `count` bytes at two places are the same, compared eight at a time (a key of 8 to 16
    /// bytes in two words that may overlap).
    static func sameBytes(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, count: Int) -> Bool {
        if count < 8 {
            for offset in 0..<count where left[offset] != right[offset] { return false }
            return true
        }
        let (x, y) = (UnsafeRawPointer(left), UnsafeRawPointer(right))
        var offset = 0
        while offset + 8 < count {
            guard ByteWords.load(x, at: offset) == ByteWords.load(y, at: offset) else { return false }
            offset += 8
        }
        return ByteWords.load(x, at: count - 8) == ByteWords.load(y, at: count - 8)
    }

    /// The ``JSONValue`` of the token at `index`, with all it holds.
    ///
    /// - Parameter index: The token.
    /// - Returns: The value, as ``JSONParser/parse(_:)-(UnsafeBufferPointer<UInt8>)`` gives a document's.
    package func value(at index: Int) -> JSONValue {
        let token = tokens[index]
        switch token.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .integer: return .integer(token.value)
        case .number:
            return .number(
                String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self))
        case .string: return .string(string(index) ?? "")
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(token.value)
            var element = index + 1
            for _ in 0..<token.value {
                elements.append(value(at: element))
                element = after(element)
            }
            return .array(elements)
        case .object:
            var object = JSONObject(capacity: token.value)
            var member = index + 1
            for _ in 0..<token.value {
                object.append(string(member) ?? "", value(at: member + 1))
                member = after(member + 1)
            }
            return .object(object)
        }
    }
}

/// One token of a ``JSONTape``.
struct JSONToken {
    /// A string's flag: it has an escape.
    static let escaped: UInt8 = 1
    /// A string's flag: it has a byte that is not ASCII.
    static let nonASCII: UInt8 = 2
    /// A string's flag: it is a key of an object, whose token is its ``value``.
    static let key: UInt8 = 4

    /// What it is.
    var kind: JSONTape.Kind
    /// For a string, ``escaped``, ``nonASCII`` and ``key``.
    var flags: UInt8 = 0
    /// Where it starts in the document: a string's first byte after its quote, a container's opening
    /// bracket, the first byte of anything else.
    var start: Int
    /// A string's closing quote, the byte after a number or literal, and for a container the token
    /// after its last member.
    var end: Int = 0
    /// An integer's value; the number of a container's members; the object of a key.
    var value: Int = 0
}

/// The tokens of a ``JSONTape``, in memory of their own (not an array: the runtime makes the type of
/// an array's storage at its first use in a process, which every cold start's first read would pay),
/// taken over from the parser that wrote them.
final class JSONTokens {
    /// The tokens' memory, of which the first `count` are written.
    private let base: UnsafeMutablePointer<JSONToken>?
    /// The number of tokens.
    let count: Int

    /// The tokens the parser wrote into `base`, which this object now owns.
    init(taking base: UnsafeMutablePointer<JSONToken>?, count: Int) {
        self.base = base
        self.count = count
    }

    deinit { base?.deallocate() }

    /// The token at `index`, which must be below `count`.
    subscript(index: Int) -> JSONToken {
        precondition(index >= 0 && index < count, "token index out of range")
        return base.unsafelyUnwrapped[index]
    }
}

/// The tokens a parser is writing, in memory that grows as they are added: kept in the parser itself,
/// so that adding one is a few instructions, and handed to a ``JSONTokens`` when the document has
/// parsed (or freed when it has not).
struct JSONTokenBuffer {
    /// The memory, of room for `capacity` tokens, of which the first `count` are written.
    private(set) var base: UnsafeMutablePointer<JSONToken>?
    private var capacity = 0
    /// The number of tokens.
    private(set) var count = 0

    /// Adds a token after the others, the room doubled when it is full.
    ///
    /// - Returns: Its index.
    @discardableResult
    mutating func append(_ token: JSONToken, expecting expected: Int) -> Int {
        if count == capacity { grow(expecting: expected) }
        (base.unsafelyUnwrapped + count).initialize(to: token)
        count += 1
        return count - 1
    }

    private mutating func grow(expecting expected: Int) {
        let larger = max(2 * capacity, expected, 16)
        let moved = UnsafeMutablePointer<JSONToken>.allocate(capacity: larger)
        if let base {
            moved.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        (base, capacity) = (moved, larger)
    }

    /// Sets the end and member count of the container at `index`, once its members are read.
    mutating func close(_ index: Int, members: Int) {
        precondition(index >= 0 && index < count, "token index out of range")
        base.unsafelyUnwrapped[index].end = count
        base.unsafelyUnwrapped[index].value = members
    }

    /// Marks the string token at `index` as a key of the object at `object`.
    mutating func markKey(_ index: Int, of object: Int) {
        precondition(index >= 0 && index < count, "token index out of range")
        base.unsafelyUnwrapped[index].flags |= JSONToken.key
        base.unsafelyUnwrapped[index].value = object
    }

    /// The tokens, now owned by the result; this buffer is left empty.
    mutating func take() -> JSONTokens {
        defer { (base, capacity, count) = (nil, 0, 0) }
        return JSONTokens(taking: base, count: count)
    }

    /// Frees the memory, for a parse that failed.
    mutating func free() {
        base?.deallocate()
        (base, capacity, count) = (nil, 0, 0)
    }
}
