/// A set of word sequences, each numbered in the order it was first inserted: the visited set of the
/// search to a fixpoint, and the tables of the parts of its keys. A value: concurrent reads of one
/// copy are safe while no one inserts (the search reads it from every core while it expands a level,
/// and inserts between levels).
struct WordInterner: Sendable {
    private var numbers: [[UInt32]: Int] = [:]

    /// How many sequences the set holds.
    var count: Int { numbers.count }

    /// The number of a sequence, or `nil` when the set does not hold it.
    func find(_ sequence: [UInt32]) -> Int? { numbers[sequence] }

    /// Inserts a sequence unless the set holds it.
    ///
    /// - Returns: The sequence's number, and whether it is new.
    mutating func insert(_ sequence: [UInt32]) -> (number: Int, inserted: Bool) {
        if let number = numbers[sequence] { return (number, false) }
        let number = numbers.count
        numbers[sequence] = number
        return (number, true)
    }
}
