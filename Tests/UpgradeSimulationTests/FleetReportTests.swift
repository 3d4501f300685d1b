import Foundation
import Testing
import UpgradeTestSupport
import VersionKit

@testable import UpgradeFixtures
@testable import UpgradeFleet
@testable import UpgradeSimReports

@Suite("fleet report: the numbers of <doc:FleetView>")
struct FleetReportTests {
    typealias Row = (id: String, version: String, devices: String, share: Double)

    static func rows(_ steps: [FleetStep]) -> [String] {
        steps.map { "\($0.id)\($0.isFloor ? " (floor)" : "") \($0.version) \($0.devices) \($0.share)" }
    }

    @Test("the hand-worked example (FleetSamples): devices, steps, statistics, floors, lost and late")
    func handWorked() throws {
        let report = try FleetSamples.report()
        #expect(report.release == .v("2.0"))
        #expect(report.devices.description == "100")
        #expect(report.updating.description == "65")
        #expect(report.current.description == "35")
        #expect(Self.rows(report.steps) == ["a 1.1 10 0.1", "b 1.2 30 0.3", "d 2.0 65 0.65", "e 2.0 65 0.65"])
        #expect(report.stepsPerDevice.p50 == 2)
        #expect(report.stepsPerDevice.p90 == 4)
        #expect(report.stepsPerDevice.max == 4)
        #expect(abs(report.stepsPerDevice.mean - 170.0 / 65) < 1e-12)
        let time = try #require(report.durationMs)
        #expect(time.p50 == 1000)
        #expect(time.p90 == 1110)
        #expect(time.max == 1110)
        #expect(abs(time.mean - 68100.0 / 65) < 1e-9)
        #expect(
            report.floors.map { "\($0.version) \($0.retires) \($0.devices) \($0.share)" } == [
                "1.1 1 10 0.1", "1.2 2 30 0.3", "2.0 4 65 0.65",
            ])
        #expect(Self.rows(report.lost) == ["c 1.5 60 0.6"])
        #expect(Self.rows(report.late) == ["b 1.2 35 0.35"])
    }

    @Test(
        "a floor: listed first, runs below its version, counts as a step, and saves the steps at or below it from being lost"
    )
    func floor() throws {
        let report = try FleetSamples.report(fixture: FleetSamples.floorFixture)
        #expect(Self.rows(report.steps) == ["upgradeFloor_1_5 (floor) 1.5 60 0.6", "d 2.0 65 0.65"])
        #expect(report.stepsPerDevice == FleetStatistics(mean: report.stepsPerDevice.mean, p50: 2, p90: 2, max: 2))
        #expect(abs(report.stepsPerDevice.mean - 125.0 / 65) < 1e-12)
        #expect(report.durationMs == FleetStatistics(mean: report.durationMs?.mean ?? -1, p50: 500, p90: 500, max: 500))
        #expect(abs((report.durationMs?.mean ?? 0) - 30000.0 / 65) < 1e-9)
        #expect(report.floors.map { "\($0.version) \($0.retires) \($0.devices)" } == ["2.0 1 65"])
        #expect(report.lost.isEmpty)
        #expect(report.late.isEmpty)
        // Before 2.0 the build has no floor: at 1.9, a and c run and nothing is lost.
        let before = try FleetSamples.report(fixture: FleetSamples.floorFixture, release: "1.9")
        #expect(Self.rows(before.steps) == ["a 1.1 10 0.1", "c 1.5 60 0.6"])
        #expect(before.lost.isEmpty)
    }

    @Test("a floor below only some lost steps: those above it are still lost")
    func floorBelowLostStep() throws {
        let fixture = """
            {"name": "f", "steps": [{"id": "old", "version": "1.1", "until": "1.9"},
              {"id": "newer", "version": "1.5", "until": "1.9"}, {"id": "d", "version": "2.0"}],
             "floor": {"version": "1.2", "since": "2.0"}, "histories": []}
            """
        let report = try FleetSamples.report(fixture: fixture)
        #expect(Self.rows(report.lost) == ["newer 1.5 60 0.6"])
    }

    @Test("a floor above the release is listed with 0 devices and runs on no device")
    func floorAboveRelease() throws {
        let fixture = """
            {"name": "f", "steps": [{"id": "d", "version": "2.5"}], "floor": {"version": "2.2"}, "histories": []}
            """
        let report = try FleetSamples.report(fixture: fixture)
        #expect(Self.rows(report.steps) == ["upgradeFloor_2_2 (floor) 2.2 0 0.0"])
        #expect(report.stepsPerDevice == .zero)
        #expect(report.durationMs == nil)
        #expect(report.floors.isEmpty)
    }

    @Test("lost: a step removed exactly at the release's predecessor; not lost when until >= R, or above R")
    func lostBoundaries() throws {
        let fixture = """
            {"name": "f", "steps": [
              {"id": "gone", "version": "1.2", "until": "1.9"},
              {"id": "kept", "version": "1.2.1", "until": "2.0"},
              {"id": "future", "version": "2.1", "until": "2.1"},
              {"id": "at-release", "version": "2.0", "until": "1.9"}
            ], "histories": []}
            """
        let report = try FleetSamples.report(fixture: fixture)
        // gone: below 1.2: 10 + 20; at-release: below 2.0: 65. kept is in 2.0's build; future lies above.
        #expect(Self.rows(report.lost) == ["gone 1.2 30 0.3", "at-release 2.0 65 0.65"])
        #expect(Self.rows(report.steps) == ["kept 1.2.1 60 0.6"])
    }

    @Test(
        "late: only devices at or above the version and below since; a step with since at or below its version is never late"
    )
    func lateBoundaries() throws {
        let fixture = """
            {"name": "f", "steps": [
              {"id": "late", "version": "1.1", "since": "1.5"},
              {"id": "on-time", "version": "1.9", "since": "1.9"},
              {"id": "none-between", "version": "1.6", "since": "1.8"}
            ], "histories": []}
            """
        let report = try FleetSamples.report(fixture: fixture)
        // late: 1.5 > d >= 1.1: 20 + 30. none-between: 1.8 > d >= 1.6 holds no device.
        #expect(Self.rows(report.late) == ["late 1.1 50 0.5"])
    }

    @Test("a release below every device: nothing updates, every statistic is 0")
    func nobodyUpdates() throws {
        let report = try FleetSamples.report(release: "1.0")
        #expect(report.updating.description == "0")
        #expect(report.current.description == "100")
        #expect(report.stepsPerDevice == .zero)
        #expect(report.durationMs == nil)
        // At 1.1, a (with durationMs) is listed but no device is below 1.1: the times are 0, not absent.
        let withTimes = try FleetSamples.report(
            installed: "version,devices\n1.1,5\n", release: "1.1")
        #expect(withTimes.updating.description == "0")
        #expect(withTimes.stepsPerDevice == .zero)
        #expect(withTimes.durationMs == .zero)
        #expect(report.steps.isEmpty)
        #expect(report.floors.isEmpty)
    }

    @Test("shares: devices given as decimal fractions are summed exactly")
    func decimalShares() throws {
        let installed = """
            version,devices
            1.0,0.1
            1.1,0.2
            1.2,0.2
            2.0,0.5
            """
        let report = try FleetSamples.report(installed: installed)
        #expect(report.devices.description == "1")
        #expect(report.updating.description == "0.5")
        // 1.0 (0.1) runs 4 steps, 1.1 (0.2) 3, 1.2 (0.2) 2, of 0.5: weight(<= 2) = 0.2 < 0.25, weight(<= 3) = 0.4
        // >= 0.25 but < 0.45.
        #expect(report.stepsPerDevice.p50 == 3)
        #expect(report.stepsPerDevice.p90 == 4)
        #expect(Self.rows(report.steps).first == "a 1.1 0.1 0.1")
    }

    @Test("the forms show the floor, empty sections, no times and tiny shares as such")
    func renderedEdges() throws {
        let floor = try FleetSamples.report(fixture: FleetSamples.floorFixture)
        let text = floor.render(as: .text)
        #expect(text.contains("\n  upgradeFloor_1_5 (floor)      1.5       60    60%\n"), "\(text)")
        #expect(text.contains("never run them):\n  none\n"))
        #expect(text.hasSuffix("never run on them):\n  none\n"))
        #expect(floor.render(as: .markdown).hasSuffix("#### Late steps\n\nNone.\n"))
        let plain = """
            {"name": "p", "steps": [{"id": "x", "version": "1.1"}], "histories": []}
            """
        let installed = "version,devices\n1.0,1\n2.0,99999\n"
        let report = try FleetSamples.report(fixture: plain, installed: installed)
        #expect(report.render(as: .json).contains("\"durationMs\": null,"))
        #expect(
            report.render(as: .json).contains(
                "{\"id\": \"x\", \"version\": \"1.1\", \"devices\": 1, \"share\": 0.00001}"))
        #expect(report.render(as: .text).contains("  (no step has durationMs: no times)\n"))
        #expect(report.render(as: .text).contains("  x         1.1        1  <0.01%\n"), "\(report.render(as: .text))")
        #expect(report.render(as: .markdown).contains("| x | 1.1 | 1 | &lt;0.01% |"))
        #expect(report.render(as: .markdown).contains("No step has `durationMs`: no times."))
    }

    @Test(
        "text and Markdown write shares as percentages to 2 decimal places",
        arguments: [
            (1.0, "100%"), (0.125, "12.5%"), (0.65, "65%"), (0.99359, "99.36%"), (0.096154, "9.62%"), (0, "0%"),
            (0.0001, "0.01%"), (0.00004, "<0.01%"),
        ])
    func percentages(share: Double, text: String) {
        #expect(FleetNumbers.tableShare(share) == text)
    }

    @Test("updating and current add up to all devices, for random installed bases and releases", arguments: 0..<20)
    func updatingPlusCurrent(seed: UInt64) throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        var lines = ["version,devices"]
        for major in 0..<Int.random(in: 1...30, using: &random) {
            let places = Int.random(in: 0...3, using: &random)
            let units = Int.random(in: 0...100_000, using: &random)
            var text = String(units)
            if places > 0 {
                text = String(repeating: "0", count: max(0, places + 1 - text.count)) + text
                text.insert(".", at: text.index(text.endIndex, offsetBy: -places))
            }
            lines.append("\(major).\(Int.random(in: 0...3, using: &random)),\(text)")
        }
        lines.append("99.0,1")
        let installed = try InstalledBase.parse(text: lines.joined(separator: "\n"), file: "random.csv")
        let fixture = try FixtureLoader.decode(FleetSamples.fixture, file: "fixture.json")
        let release = Version(
            major: Int.random(in: 0...40, using: &random), minor: Int.random(in: 0...3, using: &random))
        let report = FleetReport(fixture: fixture, installed: installed, release: release)
        #expect(report.updating.units + report.current.units == report.devices.units)
        #expect(report.devices == installed.total)
        for step in report.steps { #expect(step.devices.units <= report.updating.units) }
    }
}

@Suite("fleet statistics: weighted percentiles at their edges")
struct FleetStatisticsTests {
    typealias Sample = FleetStatistics.Sample

    @Test("the median of two equal weights is the lower value: half the weight has it or less")
    func medianOfTwo() {
        let statistics = FleetStatistics.weighted([Sample(value: 5, weight: 1), Sample(value: 1, weight: 1)])
        #expect(statistics == FleetStatistics(mean: 3, p50: 1, p90: 5, max: 5))
    }

    @Test("a cumulative weight exactly at the percentile stops there; one unit short goes on")
    func exactBoundary() {
        #expect(FleetStatistics.weighted([Sample(value: 1, weight: 50), Sample(value: 2, weight: 50)]).p50 == 1)
        #expect(FleetStatistics.weighted([Sample(value: 1, weight: 49), Sample(value: 2, weight: 51)]).p50 == 2)
        #expect(FleetStatistics.weighted([Sample(value: 1, weight: 90), Sample(value: 2, weight: 10)]).p90 == 1)
        #expect(FleetStatistics.weighted([Sample(value: 1, weight: 89), Sample(value: 2, weight: 11)]).p90 == 2)
        // 90% of 11 is 9.9: the threshold rounds up to 10.
        #expect(FleetStatistics.weighted([Sample(value: 1, weight: 9), Sample(value: 2, weight: 2)]).p90 == 2)
        #expect(FleetStatistics.weighted([Sample(value: 1, weight: 10), Sample(value: 2, weight: 1)]).p90 == 1)
    }

    @Test("samples of weight 0 count for nothing, not even for the maximum")
    func zeroWeight() {
        let statistics = FleetStatistics.weighted([Sample(value: 100, weight: 0), Sample(value: 3, weight: 2)])
        #expect(statistics == FleetStatistics(mean: 3, p50: 3, p90: 3, max: 3))
    }

    @Test("no samples, or only weightless ones: every statistic is 0")
    func empty() {
        #expect(FleetStatistics.weighted([]) == .zero)
        #expect(FleetStatistics.weighted([Sample(value: 7, weight: 0)]) == .zero)
    }

    @Test("one sample: every statistic is its value")
    func single() {
        #expect(
            FleetStatistics.weighted([Sample(value: 4, weight: 3)]) == FleetStatistics(mean: 4, p50: 4, p90: 4, max: 4))
    }

    @Test("equal values in several samples act as one; weights near the 64-bit limit do not overflow")
    func tiesAndLargeWeights() {
        let half = UInt64.max / 2
        let statistics = FleetStatistics.weighted([
            Sample(value: 2, weight: half / 2), Sample(value: 1, weight: half / 2), Sample(value: 2, weight: half),
        ])
        #expect(statistics.p50 == 2)
        #expect(statistics.p90 == 2)
        #expect(FleetStatistics.weighted([Sample(value: 1, weight: half), Sample(value: 2, weight: half)]).p50 == 1)
    }
}
