/// Writes whole numbers as text straight into memory, for the names and marks a file store makes at
/// every launch that writes (the temporary file's name, the lock's holder id): no string is made
/// for a number.
enum Digits {
    /// The most digits ``write(_:radix:into:at:)`` writes: a 64-bit number in decimal.
    static let maximumCount = 20

    /// Writes `value` in `radix`, lowercase, without leading zeros, at `offset` in `text`.
    ///
    /// - Parameters:
    ///   - value: The number.
    ///   - radix: 10 or 16.
    ///   - text: The memory, with room for the digits after `offset` (at most ``maximumCount``).
    ///   - offset: Where the first digit goes.
    /// - Returns: How many digits were written.
    static func write(
        _ value: UInt64, radix: UInt64 = 10, into text: UnsafeMutableBufferPointer<UInt8>, at offset: Int
    ) -> Int {
        precondition(radix == 10 || radix == 16, "Digits: radix \(radix)")
        var count = 1
        var rest = value / radix
        while rest > 0 {
            count += 1
            rest /= radix
        }
        var number = value
        for index in stride(from: offset + count - 1, through: offset, by: -1) {
            let digit = UInt8(number % radix)
            text[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            number /= radix
        }
        return count
    }
}
