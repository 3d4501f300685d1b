import VersionKit

/// The position of each step id in a list of steps: a hash table of positions, made once per upgrader
/// and so at every cold start of an app.
///
/// It is an open-addressing table over one `[Int]`, each slot two of its elements (the step's position
/// and 32 bits of its id's hash, which fit in an `Int` on every platform, arm64_32 included), probed
/// linearly, rather than a `[String: Int]`, whose first insertions and lookups
/// in a process cost some 30,000 instructions for an app's few dozen steps. It hashes each id once and
/// on a probe compares the stored hash bits before the ids.
///
/// Ids are told apart with `==`, which takes canonically equivalent text as equal (é written as one
/// character or two; the Kelvin sign and `K`), so their hashes must agree wherever `==` does. While
/// every id is ASCII, where `==` is equality of bytes, an id is hashed over its bytes, eight at a time
/// (some 60 instructions an id, against some 400 for `hashValue`), and a default id
/// (`appUpgradeTo_1_2`, `upgradeFloor_3_0`) from its version's components, which a step that kept its
/// default id gives without its text being read; a lookup of an id that is not ASCII, which may still
/// be `==` to an ASCII one, compares it with every id. Once an id that is not ASCII is added, every id
/// is hashed again with its `hashValue`, which agrees with `==` for all text.
struct StepIDIndex: Sendable {
    /// The slots, two elements each: the step's position (or `empty`), then its id's 32 hash bits as
    /// an `Int` (`Int(truncatingIfNeeded:)`, which keeps them apart on 32-bit platforms too). An
    /// `[Int]`, whose storage type the process has made before any launch, not an `[UInt64]`.
    private var slots: [Int]
    /// How many ids are in the table; their positions are `0..<count`.
    private(set) var count = 0
    /// Whether every id is ASCII and hashed as bytes; otherwise every id is hashed with `hashValue`.
    private var hashesBytes = true

    /// The position of a slot with no id.
    ///
    /// Any negative number would do; this one's bytes are not all the same, so that filling a table
    /// with it is a loop of stores compiled in place, not a call to the C library's `memset`, whose
    /// first call in a process costs the dynamic linker a symbol lookup at every cold start.
    private static let empty = Int.min
    /// The bits of a hash.
    private static let lowBits: UInt64 = 0xFFFF_FFFF

    /// An empty index with room for `capacity` ids before it grows.
    ///
    /// - Parameter capacity: How many ids it will hold.
    init(capacity: Int = 0) {
        slots = [Int](repeating: Self.empty, count: 2 * Self.slotCount(for: capacity))
    }

    /// The number of slots for `count` ids: a power of two, at most half full.
    private static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots < 2 * count { slots <<= 1 }
        return slots
    }

    /// The 32 hash bits kept in a slot for an id: a hash of its UTF-8 when `hashesBytes` is set, or
    /// `nil` for an id that is not ASCII; its `hashValue` otherwise.
    private func hashBits(_ id: String) -> UInt64? {
        guard hashesBytes else { return Self.valueHash(id) }
        return Self.withUTF8(of: id, Self.asciiHash)
    }

    /// Lends a string's UTF-8 to `body`: where it is for a native string, a copy for another
    /// (bridged) one.
    private static func withUTF8<Result>(
        of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// A hash of ASCII bytes, eight at a time (each word checked for a byte of 0x80 or more and mixed
    /// by a multiply and a shift), or `nil` when a byte is not ASCII.
    private static func asciiHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        if let hash = defaultIDHash(bytes) { return hash }
        guard let base = bytes.baseAddress else { return 0 }
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
        return (hash ^ hash >> 32) & lowBits
    }

    /// The 32 hash bits of an id's `hashValue`, which agrees with `==` for all text.
    private static func valueHash(_ id: String) -> UInt64 {
        UInt64(truncatingIfNeeded: UInt(bitPattern: id.hashValue)) & lowBits
    }

    /// The hash of a default id, `appUpgradeTo_` or (for a floor) `upgradeFloor_` and the canonical
    /// text of a version with `_` for `.`: a mix of the version's components, not of the text.
    ///
    /// - Parameters:
    ///   - version: The version.
    ///   - isFloor: Whether the id is a floor's.
    /// - Returns: The 32 hash bits.
    static func defaultIDHash(version: Version, isFloor: Bool) -> UInt64 {
        defaultIDHash(
            major: UInt64(version.major), minor: UInt64(version.minor), patch: UInt64(version.patch),
            componentCount: version.componentCount, isFloor: isFloor)
    }

    private static func defaultIDHash(
        major: UInt64, minor: UInt64, patch: UInt64, componentCount: Int, isFloor: Bool
    ) -> UInt64 {
        var hash = (major << 32 | minor) &* 0x9E37_79B9_7F4A_7C15
        hash ^= (patch << 2 | UInt64(componentCount & 1) << 1 | (isFloor ? 1 : 0)) &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= hash >> 31
        return hash & lowBits
    }

    /// The hash of a text that is a default id (``defaultIDHash(version:isFloor:)``), read from its
    /// bytes (``defaultID(_:)``); `nil` for any other text.
    static func defaultIDHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard let parts = defaultID(bytes) else { return nil }
        return defaultIDHash(
            major: parts.major, minor: parts.minor, patch: parts.patch, componentCount: parts.componentCount,
            isFloor: parts.isFloor)
    }

    /// What a default id says, read from its text.
    struct DefaultID {
        var isFloor: Bool
        var major: UInt64
        var minor: UInt64
        var patch: UInt64
        var componentCount: Int
    }

    /// Reads a text as a default id: the exact prefix, then two or three components of digits
    /// without leading zeros, each at most `Version.maximumComponentValue`, joined by `_`.
    ///
    /// - Parameter bytes: The text's UTF-8.
    /// - Returns: Its parts, or `nil` when it is not a default id.
    static func defaultID(_ bytes: UnsafeBufferPointer<UInt8>) -> DefaultID? {
        // Both prefixes are 13 bytes; compared as a word and five bytes.
        guard bytes.count > 13, let base = bytes.baseAddress else { return nil }
        let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
        var parts = DefaultID(isFloor: false, major: 0, minor: 0, patch: 0, componentCount: 0)
        if word == Self.stepPrefix.word, Self.matches(base, Self.stepPrefix.rest) {
            parts.isFloor = false
        } else if word == Self.floorPrefix.word, Self.matches(base, Self.floorPrefix.rest) {
            parts.isFloor = true
        } else {
            return nil
        }
        var index = 13
        while parts.componentCount < 3 {
            let start = index
            var value: UInt64 = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                value = value * 10 + UInt64(bytes[index] - UInt8(ascii: "0"))
                if value > UInt64(Version.maximumComponentValue) { return nil }
                index += 1
            }
            // One digit at least, and no leading zero (the canonical text has none).
            guard index > start, bytes[start] != UInt8(ascii: "0") || index == start + 1 else { return nil }
            switch parts.componentCount {
            case 0: parts.major = value
            case 1: parts.minor = value
            default: parts.patch = value
            }
            parts.componentCount += 1
            if index == bytes.count { break }
            guard bytes[index] == UInt8(ascii: "_") else { return nil }
            index += 1
        }
        guard parts.componentCount >= 2, index == bytes.count else { return nil }
        return parts
    }

    /// Whether a text is `==` to the default id of a version, without making that id.
    ///
    /// A default id is ASCII without `K`, `;` or `` ` ``, the only ASCII characters that another code
    /// point is canonically equivalent to (the Kelvin sign, the Greek question mark, the Greek
    /// varia), so a text is `==` to it exactly when it has the same bytes.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - version: The version whose default id it is compared with.
    ///   - isFloor: Whether that id is a floor's (`upgradeFloor_`) rather than a step's.
    /// - Returns: `true` when `text` is that id.
    static func isDefaultID(_ text: String, of version: Version, isFloor: Bool) -> Bool {
        guard let found = withUTF8(of: text, defaultID) else { return false }
        return found.isFloor == isFloor && found.componentCount == version.componentCount
            && found.major == UInt64(version.major) && found.minor == UInt64(version.minor)
            && found.patch == UInt64(version.patch)
    }

    /// A 13-byte prefix of default ids: its first eight bytes as a word, and the five after.
    private typealias Prefix = (word: UInt64, rest: (UInt8, UInt8, UInt8, UInt8, UInt8))

    /// `appUpgradeTo_`: `appUpgra` as a little-endian word, then `deTo_`. Written as constants, which
    /// the compiler puts in the binary: a prefix computed from its text would be a lazy global,
    /// initialized at its first use in a process, at every cold start.
    private static let stepPrefix: Prefix = (0x6172_6770_5570_7061, (0x64, 0x65, 0x54, 0x6F, 0x5F))
    /// `upgradeFloor_`: `upgradeF` as a little-endian word, then `loor_`.
    private static let floorPrefix: Prefix = (0x4665_6461_7267_7075, (0x6C, 0x6F, 0x6F, 0x72, 0x5F))

    /// Whether bytes 8 to 12 at `base` are `rest`.
    private static func matches(_ base: UnsafePointer<UInt8>, _ rest: (UInt8, UInt8, UInt8, UInt8, UInt8)) -> Bool {
        base[8] == rest.0 && base[9] == rest.1 && base[10] == rest.2 && base[11] == rest.3 && base[12] == rest.4
    }

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
        let hash = Int(truncatingIfNeeded: bits)
        let mask = slotCount - 1
        var slot = hash & mask
        while true {
            let position = slots[2 * slot]
            if position == Self.empty { return nil }
            if slots[2 * slot + 1] == hash, idAt(position) == id { return position }
            slot = (slot + 1) & mask
        }
    }

    /// Adds an id at the next position, unless an equal id is there already.
    ///
    /// - Parameters:
    ///   - id: The id, made only when it must be read (not for a default id whose hash is not shared).
    ///   - position: The position of its step: `count`, the one after every position in the index.
    ///   - step: The version of the step and whether it is a floor, when the id is the step's default
    ///     id (its hash is then made from the version, without reading the id).
    ///   - idAt: The id of the step at a position already in the index.
    /// - Returns: The position of the equal id already in the index, or `nil` when `id` was added.
    mutating func insert(
        _ id: @autoclosure () -> String, at position: Int, defaultFor step: (version: Version, isFloor: Bool)? = nil,
        idAt: (Int) -> String
    ) -> Int? {
        // A default id's hash is its version's: the same as hashing its text, without making it.
        let known = hashesBytes ? step.map { Self.defaultIDHash(version: $0.version, isFloor: $0.isFloor) } : nil
        guard let bits = known ?? hashBits(id()) else {
            let id = id()
            // Not ASCII, while every id so far is: compared with each of them, then added.
            if let existing = (0..<count).first(where: { idAt($0) == id }) { return existing }
            add(id, at: position, idAt: idAt)
            return nil
        }
        if 2 * (count + 1) > slotCount { grow() }
        let hash = Int(truncatingIfNeeded: bits)
        let mask = slotCount - 1
        var slot = hash & mask
        while true {
            let existing = slots[2 * slot]
            if existing == Self.empty { break }
            if slots[2 * slot + 1] == hash, idAt(existing) == id() { return existing }
            slot = (slot + 1) & mask
        }
        slots[2 * slot] = position
        slots[2 * slot + 1] = hash
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
        if 2 * (count + 1) > slotCount { grow() }
        let bits: UInt64
        if let byteHash = hashBits(id) {
            bits = byteHash
        } else {
            // The first id that is not ASCII: every id is hashed again, with `hashValue`.
            hashesBytes = false
            rehash(idAt: idAt)
            bits = Self.valueHash(id)
        }
        place(position, hash: Int(truncatingIfNeeded: bits))
        count += 1
    }

    /// Moves every position through `move`, keeping each id's slot (no id is hashed again).
    ///
    /// - Parameter move: The new position of the step at a position.
    mutating func remapPositions(_ move: (Int) -> Int) {
        for slot in 0..<slotCount where slots[2 * slot] != Self.empty {
            slots[2 * slot] = move(slots[2 * slot])
        }
    }

    /// The number of slots: a power of two.
    private var slotCount: Int { slots.count / 2 }

    /// Doubles the slots, placing each id again by the hash bits kept with it.
    private mutating func grow() {
        let old = slots
        slots = [Int](repeating: Self.empty, count: 2 * old.count)
        for slot in 0..<old.count / 2 where old[2 * slot] != Self.empty {
            place(old[2 * slot], hash: old[2 * slot + 1])
        }
    }

    /// Places every id again with the current hash.
    private mutating func rehash(idAt: (Int) -> String) {
        let old = slots
        slots = [Int](repeating: Self.empty, count: old.count)
        for slot in 0..<old.count / 2 where old[2 * slot] != Self.empty {
            let position = old[2 * slot]
            place(position, hash: Int(truncatingIfNeeded: hashBits(idAt(position))!))
        }
    }

    /// Puts a position in the first free slot from its hash on.
    private mutating func place(_ position: Int, hash: Int) {
        let mask = slotCount - 1
        var slot = hash & mask
        while slots[2 * slot] != Self.empty { slot = (slot + 1) & mask }
        slots[2 * slot] = position
        slots[2 * slot + 1] = hash
    }
}
