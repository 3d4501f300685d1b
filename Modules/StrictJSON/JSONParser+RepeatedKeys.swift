extension JSONParser {
    /// How many members an object has before its keys are kept in a set (``ManyKeys``); up to then, a
    /// key is compared with the keys before it only when a bit made from its length and its first
    /// and last bytes is already set (while every key is plain ASCII text, the same key has the same
    /// bytes), and with each of them once a key has an escape or a non-ASCII character.
    static let keysComparedOneByOne = 16

    /// The texts of the keys of an object of many members, in a class of their own: an object of few
    /// keys holds a single word for it, and has nothing to destroy.
    final class ManyKeys {
        /// The keys read so far.
        var texts: Set<ObjectKey>

        /// Empty, with room for `capacity` keys.
        init(capacity: Int) { texts = Set(minimumCapacity: capacity) }
    }

    /// A key's text, equal to another as ``JSONObject`` compares keys: the same length in UTF-8, and
    /// the same bytes or the same characters.
    struct ObjectKey: Hashable {
        let text: String

        static func == (lhs: ObjectKey, rhs: ObjectKey) -> Bool { lhs.text.isSameKey(as: rhs.text) }

        /// The length and the text's own hash, which is the same for the same characters in other
        /// bytes: equal keys hash alike.
        func hash(into hasher: inout Hasher) {
            hasher.combine(text.utf8.count)
            hasher.combine(text)
        }
    }

    /// Whether the key token at `key` repeats a key of the `members` members before it in the object
    /// at `object`, past ``keysComparedOneByOne`` members: the keys' texts are put in a set at the first
    /// such key (and kept in `keys`), then each key is added to it, so that an object of many keys is
    /// read in linear time, whatever its keys.
    @inline(never)
    func repeatsKeyOfMany(_ key: Int, in object: Int, members: Int, _ keys: inout ManyKeys?) -> Bool {
        let many: ManyKeys
        if let made = keys {
            many = made
        } else {
            many = ManyKeys(capacity: 2 * members)
            var earlier = object + 1
            for _ in 0..<members {
                many.texts.insert(ObjectKey(text: keyText(earlier)))
                earlier = memberAfter(earlier)
            }
            keys = many
        }
        return !many.texts.insert(ObjectKey(text: keyText(key))).inserted
    }

    /// The key before `key` among the first `members` members of the object at `object` that is the
    /// same key, as ``JSONObject`` compares keys (``Swift/String/isSameKey(as:)``); `nil` when none is.
    func earlierKey(like key: Int, in object: Int, members: Int) -> Int? {
        let base = tokens.base.unsafelyUnwrapped
        let new = base[key]
        let length = new.end - new.start
        var earlier = object + 1
        for _ in 0..<members {
            let old = base[earlier]
            if (old.flags | new.flags) & JSONToken.escaped != 0 {
                if Self.text(of: old, in: bytes).isSameKey(as: Self.text(of: new, in: bytes)) { return earlier }
            } else if old.end - old.start == length {
                let start = bytes.baseAddress.unsafelyUnwrapped
                if JSONTape.sameBytes(start + old.start, start + new.start, count: length) { return earlier }
                // Unequal bytes of ASCII text are unequal text; others may be the same characters.
                if (old.flags | new.flags) & JSONToken.nonASCII != 0,
                    Self.text(of: old, in: bytes) == Self.text(of: new, in: bytes)
                {
                    return earlier
                }
            }
            earlier = memberAfter(earlier)
        }
        return nil
    }

    /// The key of the member after the one whose key is at `key`: past its value, with all the value
    /// holds.
    private func memberAfter(_ key: Int) -> Int {
        let value = tokens.base.unsafelyUnwrapped[key + 1]
        return value.kind == .array || value.kind == .object ? value.end : key + 2
    }
}
