/// A set of word sequences, each numbered in the order it was first inserted: the visited set of the
/// search to a fixpoint, and the tables of the parts of its keys.
///
/// The sequences live end to end in one array, with one end offset and one hash word each, and an
/// open-addressing table of numbers (linear probing, at most half full) finds them: per sequence its
/// words and about four more, and no allocation of its own. A value: concurrent reads of one copy
/// are safe while no one inserts (the search reads it from every core while it expands a level, and
/// inserts between levels).
struct WordInterner: Sendable {
    /// The sequences, end to end.
    private var words: [UInt32] = []
    /// The end of each sequence in `words`, by number.
    private var ends: [UInt32] = []
    /// The low word of each sequence's hash, by number: compared before the words, and used again
    /// when the table grows.
    private var hashes: [UInt32] = []
    /// The table: 0 for an empty slot, else a sequence's number plus one.
    private var slots: [UInt32] = Array(repeating: 0, count: 64)

    /// How many sequences the set holds.
    var count: Int { ends.count }

    /// The hash of a sequence: a multiply-and-fold of each word, with the length, so that sequences of
    /// different lengths differ.
    static func hash(_ sequence: UnsafeBufferPointer<UInt32>) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: sequence.count) &* 0x9E37_79B9_7F4A_7C15
        for word in sequence {
            hash = (hash ^ UInt64(word)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
        }
        return hash ^ (hash >> 32)
    }

    /// The number of a sequence, or `nil` when the set does not hold it.
    func find(_ sequence: UnsafeBufferPointer<UInt32>, hash: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            let number = Int(entry) - 1
            if hashes[number] == UInt32(truncatingIfNeeded: hash) && holds(number, sequence) { return number }
            slot = (slot + 1) & mask
        }
    }

    /// Inserts a sequence unless the set holds it.
    ///
    /// - Returns: The sequence's number, and whether it is new.
    mutating func insert(_ sequence: UnsafeBufferPointer<UInt32>, hash: UInt64) -> (number: Int, inserted: Bool) {
        if let number = find(sequence, hash: hash) { return (number, false) }
        let number = ends.count
        precondition(words.count + sequence.count <= Int(UInt32.max), "explore: the state table is full")
        words.append(contentsOf: sequence)
        ends.append(UInt32(words.count))
        hashes.append(UInt32(truncatingIfNeeded: hash))
        if ends.count * 2 > slots.count {
            grow()
        } else {
            place(number, hash: UInt32(truncatingIfNeeded: hash))
        }
        return (number, true)
    }

    /// Inserts a sequence given as an array.
    mutating func insert(_ sequence: [UInt32]) -> (number: Int, inserted: Bool) {
        sequence.withUnsafeBufferPointer { insert($0, hash: Self.hash($0)) }
    }

    /// Whether sequence `number` is `sequence`, word for word.
    private func holds(_ number: Int, _ sequence: UnsafeBufferPointer<UInt32>) -> Bool {
        let start = number == 0 ? 0 : Int(ends[number - 1])
        let end = Int(ends[number])
        guard end - start == sequence.count else { return false }
        return words.withUnsafeBufferPointer { stored in
            var index = 0
            while index < sequence.count {
                if stored[start + index] != sequence[index] { return false }
                index += 1
            }
            return true
        }
    }

    /// Puts a number in the first free slot from its hash on.
    private mutating func place(_ number: Int, hash: UInt32) {
        let mask = slots.count - 1
        // The table's size is a power of two at most 2^32, so the low word of the hash picks the slot.
        var slot = Int(hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt32(number + 1)
    }

    /// Doubles the table and places every number again.
    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        for number in 0..<ends.count { place(number, hash: hashes[number]) }
    }
}
