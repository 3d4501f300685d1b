/// The position of each step id in a list of steps: a hash table of positions, made once per upgrader
/// and so at every cold start of an app.
///
/// It is an open-addressing table over one `[Int]`, each slot holding 31 bits of an id's hash and the
/// step's position, probed linearly, rather than a `[String: Int]`, whose first insertions and lookups
/// in a process cost some 30,000 instructions for an app's few dozen steps. It hashes each id once and
/// on a probe compares the stored hash bits before the ids.
///
/// Ids are told apart with `==`, which takes canonically equivalent text as equal (é written as one
/// character or two; the Kelvin sign and `K`), so their hashes must agree wherever `==` does. While
/// every id is ASCII, where `==` is equality of bytes, an id is hashed over its bytes, eight bytes a
/// word at a time (some 60 instructions an id, against some 400 for `hashValue`); a lookup of an id that is not
/// ASCII, which may still be `==` to an ASCII one, compares it with every id. Once an id that is not
/// ASCII is added, every id is hashed again with its `hashValue`, which agrees with `==` for all text.
struct StepIDIndex: Sendable {
    /// The slots: `empty`, or the low 31 bits of the id's hash above the step's 32-bit position.
    private var slots: [Int]
    /// How many ids are in the table; their positions are `0..<count`.
    private(set) var count = 0
    /// Whether every id is ASCII and hashed as bytes; otherwise every id is hashed with `hashValue`.
    private var hashesBytes = true

    /// A slot with no id.
    private static let empty = -1
    /// The bits of a slot that hold the position.
    private static let positionMask = (1 << 32) - 1

    /// An empty index with room for `capacity` ids before it grows.
    ///
    /// - Parameter capacity: How many ids it will hold.
    init(capacity: Int = 0) {
        slots = [Int](repeating: Self.empty, count: Self.slotCount(for: capacity))
    }

    /// The number of slots for `count` ids: a power of two, at most half full.
    private static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots < 2 * count { slots <<= 1 }
        return slots
    }

    /// The 31 hash bits kept in a slot for an id (31, so that a slot is never negative): a hash of its
    /// UTF-8 when `hashesBytes` is set, or `nil` for an id that is not ASCII; its `hashValue` otherwise.
    private func hashBits(_ id: String) -> Int? {
        guard hashesBytes else { return id.hashValue & Self.hashMask }
        var id = id
        return id.withUTF8 { bytes -> Int? in
            guard let base = bytes.baseAddress else { return 0 }
            // Eight bytes at a time: an ASCII check of each word and a multiply-and-rotate mix.
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
            var highBits: UInt64 = 0
            var offset = 0
            while offset + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
                highBits |= word
                hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
                hash ^= hash >> 29
                offset += 8
            }
            var tail: UInt64 = 0
            while offset < bytes.count {
                tail = tail << 8 | UInt64(base[offset])
                offset += 1
            }
            highBits |= tail
            guard highBits & 0x8080_8080_8080_8080 == 0 else { return nil }
            hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
            return Int(truncatingIfNeeded: hash ^ hash >> 32) & Self.hashMask
        }
    }

    /// The bits of a slot that hold the hash.
    private static let hashMask = (1 << 31) - 1

    /// The position of an id.
    ///
    /// - Parameters:
    ///   - id: The id looked up.
    ///   - idAt: The id of the step at a position.
    /// - Returns: The position of the step whose id is `==` to `id`, or `nil`.
    func position(of id: String, idAt: (Int) -> String) -> Int? {
        guard let bits = hashBits(id) else {
            // Not ASCII, while every id is: it may still be `==` to one of them.
            return (0..<count).first { idAt($0) == id }
        }
        let mask = slots.count - 1
        var slot = bits & mask
        while true {
            let entry = slots[slot]
            if entry == Self.empty { return nil }
            if entry >> 32 == bits, idAt(entry & Self.positionMask) == id { return entry & Self.positionMask }
            slot = (slot + 1) & mask
        }
    }

    /// Adds an id at the next position, unless an equal id is there already.
    ///
    /// - Parameters:
    ///   - id: The id.
    ///   - position: The position of its step: `count`, the one after every position in the index.
    ///   - idAt: The id of the step at a position already in the index.
    /// - Returns: The position of the equal id already in the index, or `nil` when `id` was added.
    mutating func insert(_ id: String, at position: Int, idAt: (Int) -> String) -> Int? {
        guard let bits = hashBits(id) else {
            // Not ASCII, while every id so far is: compared with each of them, then added.
            if let existing = (0..<count).first(where: { idAt($0) == id }) { return existing }
            add(id, at: position, idAt: idAt)
            return nil
        }
        if 2 * (count + 1) > slots.count { grow() }
        let mask = slots.count - 1
        var slot = bits & mask
        while true {
            let entry = slots[slot]
            if entry == Self.empty { break }
            if entry >> 32 == bits, idAt(entry & Self.positionMask) == id { return entry & Self.positionMask }
            slot = (slot + 1) & mask
        }
        slots[slot] = bits << 32 | position
        count += 1
        return nil
    }

    /// Adds an id that no id in the index is `==` to.
    ///
    /// - Parameters:
    ///   - id: The id.
    ///   - position: The position of its step.
    ///   - idAt: The id of the step at a position in the index, `position` included.
    mutating func add(_ id: String, at position: Int, idAt: (Int) -> String) {
        if 2 * (count + 1) > slots.count { grow() }
        let bits: Int
        if let byteHash = hashBits(id) {
            bits = byteHash
        } else {
            // The first id that is not ASCII: every id is hashed again, with `hashValue`.
            hashesBytes = false
            rehash(idAt: idAt)
            bits = id.hashValue & Self.hashMask
        }
        place(bits << 32 | position)
        count += 1
    }

    /// Moves every position through `move`, keeping each id's slot (no id is hashed again).
    ///
    /// - Parameter move: The new position of the step at a position.
    mutating func remapPositions(_ move: (Int) -> Int) {
        for slot in slots.indices where slots[slot] != Self.empty {
            let entry = slots[slot]
            slots[slot] = entry & ~Self.positionMask | move(entry & Self.positionMask)
        }
    }

    /// Doubles the slots, placing each id again by the hash bits kept with it.
    private mutating func grow() {
        let old = slots
        slots = [Int](repeating: Self.empty, count: old.count * 2)
        for entry in old where entry != Self.empty { place(entry) }
    }

    /// Places every id again with the current hash.
    private mutating func rehash(idAt: (Int) -> String) {
        let old = slots
        slots = [Int](repeating: Self.empty, count: old.count)
        for entry in old where entry != Self.empty {
            let position = entry & Self.positionMask
            place(hashBits(idAt(position))! << 32 | position)
        }
    }

    /// Puts a slot's entry in the first free slot from its hash on.
    private mutating func place(_ entry: Int) {
        let mask = slots.count - 1
        var slot = (entry >> 32) & mask
        while slots[slot] != Self.empty { slot = (slot + 1) & mask }
        slots[slot] = entry
    }
}
