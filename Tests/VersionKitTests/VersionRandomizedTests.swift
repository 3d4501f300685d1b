import Testing
import UpgradeTestSupport
import VersionKit

/// A random version as text, with the value it must read as.
private struct Sample {
    var text: String
    var major: Int
    var minor: Int
    var patch: Int?

    /// The components with a missing patch as 0, the order the spec defines.
    var triple: (Int, Int, Int) { (major, minor, patch ?? 0) }

    /// The text without leading zeros, keeping the component count.
    var canonical: String {
        patch.map { "\(major).\(minor).\($0)" } ?? "\(major).\(minor)"
    }

    static func random(using generator: inout SeededRandomNumberGenerator) -> Sample {
        let major = component(using: &generator)
        let minor = component(using: &generator)
        let patch = Bool.random(using: &generator) ? component(using: &generator) : nil
        let parts = [major, minor] + (patch.map { [$0] } ?? [])
        let text = parts.map { written($0, using: &generator) }.joined(separator: ".")
        return Sample(text: text, major: major, minor: minor, patch: patch)
    }

    /// Mostly small values, so that equal and near-equal versions are common, and sometimes the extremes.
    private static func component(using generator: inout SeededRandomNumberGenerator) -> Int {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<4: Int.random(in: 0...3, using: &generator)
        case 4..<7: Int.random(in: 0...12, using: &generator)
        case 7: Int.random(in: 0...100_000, using: &generator)
        case 8: Version.maximumComponentValue - Int.random(in: 0...2, using: &generator)
        default: Int.random(in: 0...Version.maximumComponentValue, using: &generator)
        }
    }

    /// The value in decimal, with leading zeros one time in four.
    private static func written(_ value: Int, using generator: inout SeededRandomNumberGenerator) -> String {
        let zeros = Int.random(in: 0..<4, using: &generator) == 0 ? Int.random(in: 1...3, using: &generator) : 0
        return String(repeating: "0", count: zeros) + String(value)
    }
}

@Suite("Randomized agreement with integer triples")
struct VersionRandomizedTests {
    static let seeds: [UInt64] = [0x5EED_0001, 2026, 0xDEAD_BEEF_CAFE_F00D]
    static let sampleCount = 4_000

    @Test("The generator matches the SplitMix64 reference output")
    func generatorIsSplitMix64() {
        var generator = SeededRandomNumberGenerator(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("Random texts parse to their values and round-trip through description and stepName", arguments: seeds)
    func parsingRoundTrips(seed: UInt64) throws {
        var generator = SeededRandomNumberGenerator(seed: seed)
        var failures: [String] = []
        for _ in 0..<Self.sampleCount {
            let sample = Sample.random(using: &generator)
            let version = try Version(parsing: sample.text)
            let again = try Version(parsing: version.description)
            let fromStepName = Version(stepName: version.stepName)
            let expectedStepName = "appUpgradeTo_" + sample.canonical.split(separator: ".").joined(separator: "_")
            let ok =
                version.major == sample.major && version.minor == sample.minor
                && version.patch == (sample.patch ?? 0) && version.componentCount == (sample.patch == nil ? 2 : 3)
                && version.description == sample.canonical
                && again == version && again.description == version.description
                && again.componentCount == version.componentCount
                && version.stepName == expectedStepName
                && fromStepName == version && fromStepName?.description == version.description
            if !ok { failures.append(sample.text) }
        }
        #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(5))")
    }

    @Test("< and == agree with comparing normalized integer triples", arguments: seeds)
    func orderingAgreesWithTriples(seed: UInt64) throws {
        var generator = SeededRandomNumberGenerator(seed: seed)
        let samples = (0..<Self.sampleCount).map { _ in Sample.random(using: &generator) }
        let versions = try samples.map { try Version(parsing: $0.text) }
        var failures: [String] = []
        for _ in 0..<(Self.sampleCount * 5) {
            let left = Int.random(in: 0..<samples.count, using: &generator)
            // Compare with a neighbour half the time, so that near-equal pairs are frequent.
            let right =
                Bool.random(using: &generator)
                ? Int.random(in: 0..<samples.count, using: &generator)
                : min(left + 1, samples.count - 1)
            let (a, b) = (versions[left], versions[right])
            let (x, y) = (samples[left].triple, samples[right].triple)
            let ok =
                (a < b) == (x < y) && (a == b) == (x == y) && (a > b) == (x > y)
                && (a <= b) == (x <= y) && (a >= b) == (x >= y)
                && (a != b || a.hashValue == b.hashValue)
            if !ok { failures.append("\(samples[left].text) vs \(samples[right].text)") }
        }
        #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(5))")
    }

    @Test("Sorting versions sorts their triples, and a Set keeps one per triple", arguments: seeds)
    func sortingAndDeduplicationAgreeWithTriples(seed: UInt64) throws {
        var generator = SeededRandomNumberGenerator(seed: seed)
        let samples = (0..<Self.sampleCount).map { _ in Sample.random(using: &generator) }
        let versions = try samples.map { try Version(parsing: $0.text) }
        let sortedVersions = versions.sorted().map { [$0.major, $0.minor, $0.patch] }
        let sortedTriples = samples.map(\.triple).sorted { $0 < $1 }.map { [$0.0, $0.1, $0.2] }
        #expect(sortedVersions == sortedTriples)
        let distinctTriples = Set(samples.map { [$0.triple.0, $0.triple.1, $0.triple.2] })
        #expect(Set(versions).count == distinctTriples.count)
    }
}
