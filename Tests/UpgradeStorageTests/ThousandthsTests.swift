import StrictJSON
import Testing
import UpgradeTestSupport

/// Numbers written from their thousandths are the text `Double.description` gives them.
@Suite("Decimal text")
struct ThousandthsTests {
    /// The text `ByteWriter.thousandths` writes for a value.
    static func written(_ value: Double) -> String {
        let bytes = ByteWriter.bytes(bound: ByteWriter.numberBound) { $0.thousandths(value) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("a whole number of thousandths is written as Double.description writes it", arguments: 0..<8)
    func thousandths(seed: UInt64) {
        var random = SeededRandomNumberGenerator(seed: seed)
        // Ranges from the smallest thousandth to the largest written from its parts, and past it.
        let limits: [Int] = [10, 1_000, 100_000, 10_000_000, 1 << 30, 1 << 40, 1 << 49, (1 << 50) + 5_000]
        for _ in 0..<2_000 {
            let thousandths = Int.random(in: 0...limits.randomElement(using: &random)!, using: &random)
            let value = Double(thousandths) / 1000
            #expect(Self.written(value) == value.description, "\(thousandths) thousandths")
        }
        for value in [0, 0.001, 0.01, 0.1, 1, 1.5, 12.25, 999.999, 1_764_581_400.125, 0x1p40, -0.0, -1.5] {
            #expect(Self.written(value) == value.description)
        }
    }

    @Test("any other value is written by Double.description, and one that is not finite as 0")
    func otherValues() {
        for value in [0.000_123_4, 1e-7, 2.000_5, 1.0 / 3, 1e300, 0x1p53 + 2, -2.5, Double.leastNonzeroMagnitude] {
            #expect(Self.written(value) == value.description)
        }
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(Self.written(value) == "0")
        }
    }
}
