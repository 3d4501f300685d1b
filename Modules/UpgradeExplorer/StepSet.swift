/// A set of step indices as bits: cheap to copy at every branch of the walk.
struct StepSet: Hashable {
    private var low: UInt64 = 0
    private var high: [UInt64]

    /// An empty set for indices below `count`, or with `full` every index (and more) in it.
    init(count: Int, full: Bool = false) {
        high = count > 64 ? Array(repeating: full ? .max : 0, count: (count - 64 + 63) / 64) : []
        if full { low = .max }
    }

    func contains(_ index: Int) -> Bool {
        index < 64 ? low & (1 << UInt64(index)) != 0 : high[(index - 64) / 64] & (1 << UInt64(index % 64)) != 0
    }

    mutating func insert(_ index: Int) {
        if index < 64 { low |= 1 << UInt64(index) } else { high[(index - 64) / 64] |= 1 << UInt64(index % 64) }
    }

    /// Keeps only the indices that `other` also has.
    mutating func formIntersection(_ other: StepSet) {
        low &= other.low
        for word in high.indices { high[word] &= other.high[word] }
    }

    /// The highest index in both this set and `other`, or -1.
    func highest(in other: StepSet) -> Int {
        for word in high.indices.reversed() {
            let both = high[word] & other.high[word]
            if both != 0 { return 64 + word * 64 + 63 - both.leadingZeroBitCount }
        }
        let both = low & other.low
        return both == 0 ? -1 : 63 - both.leadingZeroBitCount
    }

    /// Appends the set's bits to a state key, 32 at a time.
    func appendWords(to words: inout [UInt32]) {
        words.append(UInt32(truncatingIfNeeded: low))
        words.append(UInt32(truncatingIfNeeded: low >> 32))
        for word in high {
            words.append(UInt32(truncatingIfNeeded: word))
            words.append(UInt32(truncatingIfNeeded: word >> 32))
        }
    }

    /// Appends the bits of this set's union with `other` to a state key, as ``appendWords(to:)`` does.
    func appendWords(union other: StepSet, to words: inout [UInt32]) {
        let low = low | other.low
        words.append(UInt32(truncatingIfNeeded: low))
        words.append(UInt32(truncatingIfNeeded: low >> 32))
        for index in high.indices {
            let word = high[index] | other.high[index]
            words.append(UInt32(truncatingIfNeeded: word))
            words.append(UInt32(truncatingIfNeeded: word >> 32))
        }
    }

    /// Removes every index at or above `start`.
    mutating func removeAll(from start: Int) {
        for index in start..<(64 + high.count * 64) where contains(index) {
            if index < 64 {
                low &= ~(1 << UInt64(index))
            } else {
                high[(index - 64) / 64] &= ~(1 << UInt64(index % 64))
            }
        }
    }
}
