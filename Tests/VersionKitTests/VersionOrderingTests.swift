import Testing
import VersionKit

@Suite("Ordering, equality and hashing")
struct VersionOrderingTests {
    /// Pairs whose first version comes strictly before the second.
    static let ascendingPairs: [(String, String)] = [
        ("1.2", "1.3"),
        ("1.2", "2.0"),
        ("1.2", "1.2.1"),
        ("1.2.0", "1.2.1"),
        ("1.2.9", "1.3"),
        ("1.2.9", "1.3.0"),
        ("0.0", "0.0.1"),
        ("0.0.1", "0.1"),
        ("0.9.9", "1.0"),
        // Numeric, not textual.
        ("8.9", "8.10"),
        ("8.9.9", "8.10"),
        ("8.8.9", "8.8.10"),
        ("9.0", "10.0"),
        ("2.0", "10.0"),
        ("1.9", "1.10.0"),
        ("1.99.99", "2.0"),
        ("1.2", "1.11"),
        // Leading zeros are read by value.
        ("1.02", "1.10"),
        ("01.9", "1.10"),
        ("1.2", "1.03"),
        ("1.009", "1.010"),
        ("0009.0", "10.0"),
        ("1.2.09", "1.2.10"),
        // The extremes.
        ("2147483646.0", "2147483647.0"),
        ("1.2.2147483647", "1.3"),
        ("0.2147483647", "1.0"),
        ("0.0", "2147483647.2147483647.2147483647"),
    ]

    /// Texts that name the same version, whatever their zeros or component count.
    static let equalGroups: [[String]] = [
        ["8.8", "8.8.0", "08.08", "8.8.000"],
        ["1.2", "1.02", "01.002.0000", "1.2.0"],
        ["0.0", "0.0.0", "00.00", "000.000.000"],
        ["2147483647.0", "02147483647.0.0"],
        ["1.10", "1.010.0"],
    ]

    @Test("Versions order component by component, numerically", arguments: ascendingPairs)
    func ascending(lowerText: String, higherText: String) throws {
        let lower = try Version(parsing: lowerText)
        let higher = try Version(parsing: higherText)
        #expect(lower < higher)
        #expect(!(higher < lower))
        #expect(higher > lower)
        #expect(lower <= higher)
        #expect(higher >= lower)
        #expect(!(lower >= higher))
        #expect(lower != higher)
        #expect(max(lower, higher) == higher)
        #expect(min(higher, lower) == lower)
        #expect([higher, lower].sorted() == [lower, higher])
    }

    @Test("A missing third component counts as zero, and zeros are read by value", arguments: equalGroups)
    func equalVersions(texts: [String]) throws {
        let versions = try texts.map { try Version(parsing: $0) }
        for left in versions {
            for right in versions {
                #expect(left == right, "\(left) == \(right)")
                #expect(!(left < right), "!(\(left) < \(right))")
                #expect(left <= right && left >= right)
                #expect(left.hashValue == right.hashValue, "\(left) and \(right) hash alike")
            }
        }
        #expect(Set(versions).count == 1)
    }

    @Test("8.8 == 8.8.0, and they hash alike")
    func eightEight() throws {
        let short = try Version(parsing: "8.8")
        let long = try Version(parsing: "8.8.0")
        #expect(short == long)
        #expect(!(short < long) && !(long < short))
        var shortHasher = Hasher()
        short.hash(into: &shortHasher)
        var longHasher = Hasher()
        long.hash(into: &longHasher)
        #expect(shortHasher.finalize() == longHasher.finalize())
        // Equal, yet each keeps the number of components that was written.
        #expect(short.description == "8.8")
        #expect(long.description == "8.8.0")
        #expect(short.componentCount == 2)
        #expect(long.componentCount == 3)
        #expect(short.patch == 0)
    }

    @Test("A Set and a Dictionary treat equal versions as one key")
    func setAndDictionaryDeduplicate() throws {
        let texts = ["8.8", "8.8.0", "08.8.00", "8.9", "8.10", "8.10.0", "1.2", "1.2.1"]
        let versions = try texts.map { try Version(parsing: $0) }
        #expect(Set(versions).count == 5)

        var notes: [Version: String] = [:]
        notes[try Version(parsing: "8.8")] = "cache cleanup"
        #expect(notes[try Version(parsing: "8.8.0")] == "cache cleanup")
        notes[try Version(parsing: "8.8.0")] = "replaced"
        #expect(notes.count == 1)
        #expect(notes[try Version(parsing: "08.08")] == "replaced")
    }

    @Test("Sorting orders by value, not text")
    func sorting() throws {
        let texts = ["10.0", "8.10", "8.9", "8.8.1", "8.8", "1.10", "1.9.9", "1.2.3", "0.1", "2.0"]
        let sorted = try texts.map { try Version(parsing: $0) }.sorted().map(\.description)
        #expect(sorted == ["0.1", "1.2.3", "1.9.9", "1.10", "2.0", "8.8", "8.8.1", "8.9", "8.10", "10.0"])
    }

    @Test("Sorting is stable for equal versions of different component counts")
    func equalVersionsKeepTheirOrderInAStableSort() throws {
        // The standard library sort is stable, so equal versions keep their input order.
        let texts = ["8.8.0", "1.0", "8.8", "1.0.0"]
        let sorted = try texts.map { try Version(parsing: $0) }.sorted().map(\.description)
        #expect(sorted == ["1.0", "1.0.0", "8.8.0", "8.8"])
    }
}
