import Testing
import UpgradeTestSupport
import VersionKit

@testable import UpgradeFixtures
@testable import UpgradeFleet

/// <doc:FleetView> computed the slow way, every device row against every step, over random
/// fixtures (with `since`, `until` and floors) and installed bases: the report's sorted, prefix-summed
/// computation must give the same numbers.
@Suite("fleet report against a per-device reference")
struct FleetReferenceTests {
    static func randomVersion(_ random: inout SeededRandomNumberGenerator) -> Version {
        Version(major: Int.random(in: 1...6, using: &random), minor: Int.random(in: 0...3, using: &random))
    }

    static func randomFixture(_ random: inout SeededRandomNumberGenerator) -> Fixture {
        var steps: [ScriptedStep] = []
        for index in 0..<Int.random(in: 0...12, using: &random) {
            var bounds = [randomVersion(&random), randomVersion(&random)].sorted()
            if Bool.random(using: &random) { bounds[0] = Version(major: 0, minor: 0) }
            let since = Bool.random(using: &random) ? bounds[0] : nil
            let until = Int.random(in: 0...2, using: &random) == 0 ? bounds[1] : nil
            let duration = Bool.random(using: &random) ? Int.random(in: 0...500, using: &random) : nil
            steps.append(
                ScriptedStep(
                    version: randomVersion(&random), id: "s\(index)", durationMs: duration, since: since, until: until))
        }
        var floor: ScriptedStep?
        if Bool.random(using: &random) {
            floor = .floor(
                randomVersion(&random), durationMs: Bool.random(using: &random) ? 300 : nil,
                since: Bool.random(using: &random) ? randomVersion(&random) : nil)
        }
        return Fixture(name: "random", steps: steps, floor: floor)
    }

    @Test("the report's numbers equal the per-device reference", arguments: 0..<200)
    func matchesReference(seed: UInt64) throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let fixture = Self.randomFixture(&random)
        var rows: [Version: Int] = [:]
        for _ in 0..<Int.random(in: 1...20, using: &random) {
            rows[Self.randomVersion(&random)] = Int.random(in: 0...1000, using: &random)
        }
        rows[Version(major: 7, minor: 0)] = 1  // devices add up to more than 0
        let csv = "version,devices\n" + rows.map { "\($0.key),\($0.value)" }.joined(separator: "\n")
        let installed = try InstalledBase.parse(text: csv, file: "random.csv")
        let release = Self.randomVersion(&random)
        let report = FleetReport(fixture: fixture, installed: installed, release: release)

        let below = { (version: Version) in rows.filter { $0.key < version }.map(\.value).reduce(0, +) }
        let floor = fixture.floor.flatMap { $0.isInBuild(of: release) ? $0 : nil }
        let floorRuns = floor.map { $0.version <= release } ?? false
        let listed = fixture.steps.indices.filter {
            fixture.steps[$0].isInBuild(of: release) && fixture.steps[$0].version <= release
        }.sorted { (fixture.steps[$0].version, $0) < (fixture.steps[$1].version, $1) }.map { fixture.steps[$0] }

        #expect(report.updating.units == UInt64(below(release)))
        #expect(report.current.units == UInt64(rows.values.reduce(0, +) - below(release)))
        var expectedSteps: [String] = []
        if let floor { expectedSteps.append("\(floor.id) \(floorRuns ? below(floor.version) : 0)") }
        expectedSteps += listed.map { "\($0.id) \(below($0.version))" }
        #expect(report.steps.map { "\($0.id) \($0.devices)" } == expectedSteps)

        // Per device: every step of the listed ones above it, and the floor when below it.
        var samples: [(steps: Int, time: Int, weight: Int)] = []
        for (version, weight) in rows where version < release && weight > 0 {
            let runs = listed.filter { version < $0.version }
            let runsFloor = floorRuns && version < floor!.version
            samples.append(
                (
                    runs.count + (runsFloor ? 1 : 0),
                    runs.map { $0.durationMs ?? 0 }.reduce(0, +) + (runsFloor ? floor!.durationMs ?? 0 : 0), weight
                ))
        }
        func percentile(_ percent: Int, _ value: ((steps: Int, time: Int, weight: Int)) -> Int) -> Int {
            let total = samples.map(\.weight).reduce(0, +)
            let values = Set(samples.map(value)).sorted()
            return values.first { v in
                samples.filter { value($0) <= v }.map(\.weight).reduce(0, +) * 100 >= percent * total
            }
                ?? 0
        }
        #expect(report.stepsPerDevice.p50 == percentile(50, \.steps))
        #expect(report.stepsPerDevice.p90 == percentile(90, \.steps))
        #expect(report.stepsPerDevice.max == percentile(100, \.steps))
        let hasTimes = (listed + (floor.map { [$0] } ?? [])).contains { $0.durationMs != nil }
        #expect((report.durationMs != nil) == hasTimes)
        if let time = report.durationMs {
            #expect(time.p50 == percentile(50, \.time))
            #expect(time.p90 == percentile(90, \.time))
            #expect(time.max == percentile(100, \.time))
            let total = samples.map(\.weight).reduce(0, +)
            let mean = total == 0 ? 0 : Double(samples.map { $0.time * $0.weight }.reduce(0, +)) / Double(total)
            #expect(abs(time.mean - mean) < 1e-9 * Swift.max(1, mean))
        }

        let versions = Set(listed.map(\.version)).sorted()
        #expect(
            report.floors.map { "\($0.version) \($0.retires) \($0.devices)" }
                == versions.map { f in "\(f) \(listed.filter { $0.version <= f }.count) \(below(f))" })

        let lost = fixture.steps.indices.filter { index in
            let step = fixture.steps[index]
            guard step.version <= release, let until = step.until, until < release else { return false }
            return !(floor.map { $0.version >= step.version } ?? false) && below(step.version) > 0
        }.sorted { (fixture.steps[$0].version, $0) < (fixture.steps[$1].version, $1) }.map { fixture.steps[$0] }
        #expect(report.lost.map { "\($0.id) \($0.devices)" } == lost.map { "\($0.id) \(below($0.version))" })

        let late = listed.compactMap { step -> String? in
            guard let since = step.since else { return nil }
            let devices = rows.filter { $0.key >= step.version && $0.key < since }.map(\.value).reduce(0, +)
            return devices > 0 ? "\(step.id) \(devices)" : nil
        }
        #expect(report.late.map { "\($0.id) \($0.devices)" } == late)
    }
}
