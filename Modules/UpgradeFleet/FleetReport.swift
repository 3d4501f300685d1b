import UpgradeFixtures
import VersionKit

/// What a release does to the devices in the field: which steps run on how many devices at their
/// first launch of the release, how much work a device does, which floors could retire old steps,
/// and which steps some devices will never run (lost and late).
///
/// ```swift
/// let fixture = try FixtureLoader.load(file: "Examples/Fleet/notes-3.0.json")
/// let installed = try InstalledBase.load(file: "Examples/Fleet/installed-base.csv")
/// let report = FleetReport(fixture: fixture, installed: installed, release: "3.0")
/// for step in report.lost { print("\(step.id) is never run on \(step.devices) devices") }
/// ```
///
/// The rules are in the <doc:FleetView> article. Every count is exact; shares are fractions of all
/// the devices of the installed base (percentages in the text and Markdown forms of `upgrade-sim fleet`).
public struct FleetReport: Sendable, Hashable {
    /// A floor the release could declare, and what it would change.
    package struct FloorCandidate: Sendable, Hashable {
        /// The floor's version F: a version of one of the release build's steps.
        package var version: Version
        /// How many of the release build's steps have a version at or below F: those it retires.
        package var retires: Int
        /// The devices below F: those that would run the floor.
        package var devices: DeviceCount
        /// ``devices`` as a fraction of all devices.
        package var share: Double

        /// Creates a candidate floor's line of the report.
        ///
        /// - Parameters:
        ///   - version: The floor's version.
        ///   - retires: The steps it retires.
        ///   - devices: The devices that would run it.
        ///   - share: Their share of all devices.
        package init(version: Version, retires: Int, devices: DeviceCount, share: Double) {
            self.version = version
            self.retires = retires
            self.devices = devices
            self.share = share
        }
    }

    /// The fixture's name.
    public var fixtureName: String
    /// The fixture's file, if it came from one.
    package var fixtureFile: String?
    /// The installed-base file.
    package var installedFile: String
    /// The release R.
    public var release: Version
    /// All the devices of the installed base.
    public var devices: DeviceCount
    /// The devices below R, which update at their first launch of it.
    package var updating: DeviceCount
    /// The devices at or above R, which run nothing.
    package var current: DeviceCount
    /// R's floor (when its build has one), then the build's steps at or below R in run order, each
    /// with the devices that run it.
    public var steps: [FleetStep]
    /// The steps an updating device runs, the floor included.
    package var stepsPerDevice: FleetStatistics
    /// The milliseconds an updating device's steps take (a step without `durationMs` takes 0), or
    /// `nil` when none of ``steps`` has a `durationMs`.
    package var durationMs: FleetStatistics?
    /// One candidate floor per distinct version of the build's steps at or below R, ascending.
    package var floors: [FloorCandidate]
    /// The steps at or below R that earlier builds had and R's does not, each with the devices
    /// below its version (none when R's floor is at or above it), in run order; only those with
    /// devices.
    public var lost: [FleetStep]
    /// The steps of R's build with the devices at or above their version and below their `since`,
    /// in run order; only those with devices.
    public var late: [FleetStep]
}

extension FleetReport {
    /// Computes what release `release` does to the installed base.
    ///
    /// Sorts the build's steps once and finds each count by binary search in the installed base's
    /// prefix sums: O((steps + versions) × log) time, whatever the devices.
    ///
    /// - Parameters:
    ///   - fixture: The app's steps and floor, with their `since` and `until`.
    ///   - installed: The devices per version.
    ///   - release: The release R.
    public init(fixture: Fixture, installed: InstalledBase, release: Version) {
        let total = installed.prefix[installed.prefix.count - 1]
        let share = { (units: UInt64) in Double(units) / Double(total) }
        func line(_ step: ScriptedStep, isFloor: Bool = false, units: UInt64) -> FleetStep {
            FleetStep(
                id: step.id, version: step.version, isFloor: isFloor, devices: installed.count(units),
                share: share(units))
        }
        // R's build: its floor, and its steps at or below R in run order (version, then declaration).
        let floor = fixture.floor.flatMap { $0.isInBuild(of: release) ? $0 : nil }
        let runOrder = { (steps: [ScriptedStep]) in
            steps.indices.sorted { (steps[$0].version, $0) < (steps[$1].version, $1) }.map { steps[$0] }
        }
        let build = runOrder(fixture.steps.filter { $0.isInBuild(of: release) && $0.version <= release })
        let floorRuns = floor.map { $0.version <= release } ?? false

        let updating = installed.units(below: release)
        var steps: [FleetStep] = []
        if let floor {
            steps.append(line(floor, isFloor: true, units: floorRuns ? installed.units(below: floor.version) : 0))
        }
        steps += build.map { line($0, units: installed.units(below: $0.version)) }

        self.init(
            fixtureName: fixture.name, fixtureFile: fixture.file, installedFile: installed.file, release: release,
            devices: installed.count(total), updating: installed.count(updating),
            current: installed.count(total - updating), steps: steps, stepsPerDevice: .zero, durationMs: nil,
            floors: [], lost: [], late: [])
        let hasDurations = floor?.durationMs != nil || build.contains { $0.durationMs != nil }
        (stepsPerDevice, durationMs) = Self.perDevice(
            build: build, floor: floorRuns ? floor : nil, hasDurations: hasDurations, installed: installed,
            release: release)

        // Candidate floors: each distinct version of the build's steps; the last of a run of equal
        // versions counts them all.
        for (index, step) in build.enumerated()
        where index == build.count - 1 || build[index + 1].version > step.version {
            let units = installed.units(below: step.version)
            floors.append(
                FloorCandidate(
                    version: step.version, retires: index + 1, devices: installed.count(units), share: share(units)))
        }
        let floorVersion = floor?.version
        lost = runOrder(
            fixture.steps.filter { step in step.version <= release && step.until.map { $0 < release } ?? false }
        )
        .compactMap { step in
            if let floorVersion, floorVersion >= step.version { return nil }
            let units = installed.units(below: step.version)
            return units > 0 ? line(step, units: units) : nil
        }
        late = build.compactMap { step in
            guard let since = step.since else { return nil }
            let units = installed.units(from: step.version, below: since)
            return units > 0 ? line(step, units: units) : nil
        }
    }

    /// The steps and milliseconds per updating device.
    ///
    /// A device at d runs the build's steps above d (those at or below R are all of `build`) and the
    /// floor when d is below it. The rows of the installed base ascend, so one pass over them with a
    /// pointer into the ascending steps finds each row's count and, from suffix sums, its time.
    private static func perDevice(
        build: [ScriptedStep], floor: ScriptedStep?, hasDurations: Bool, installed: InstalledBase, release: Version
    ) -> (steps: FleetStatistics, durationMs: FleetStatistics?) {
        // suffix[j]: the milliseconds of build[j...], saturated at Int.max.
        var suffix = [Int](repeating: 0, count: build.count + 1)
        for index in build.indices.reversed() {
            let (sum, overflow) = suffix[index + 1].addingReportingOverflow(build[index].durationMs ?? 0)
            suffix[index] = overflow ? Int.max : sum
        }
        var stepSamples: [FleetStatistics.Sample] = []
        var timeSamples: [FleetStatistics.Sample] = []
        let updatingRows = installed.index(below: release)
        stepSamples.reserveCapacity(updatingRows)
        timeSamples.reserveCapacity(hasDurations ? updatingRows : 0)
        var next = 0  // the first step of `build` above the row's version
        for row in 0..<updatingRows {
            let version = installed.versions[row]
            while next < build.count, build[next].version <= version { next += 1 }
            let runsFloor = floor.map { version < $0.version } ?? false
            let weight = installed.units[row]
            stepSamples.append(.init(value: build.count - next + (runsFloor ? 1 : 0), weight: weight))
            if hasDurations {
                let floorTime = runsFloor ? floor?.durationMs ?? 0 : 0
                let (time, overflow) = suffix[next].addingReportingOverflow(floorTime)
                timeSamples.append(.init(value: overflow ? Int.max : time, weight: weight))
            }
        }
        return (FleetStatistics.weighted(stepSamples), hasDurations ? FleetStatistics.weighted(timeSamples) : nil)
    }
}
