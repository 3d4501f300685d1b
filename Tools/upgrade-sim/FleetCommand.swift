import Foundation
import UpgradeFixtures
import UpgradeFleet
import UpgradeSimReports

/// `upgrade-sim fleet FIXTURE --installed FILE --release V`: what a release does to the devices in the field.
enum FleetCommand: Command {
    static let formats = FleetReport.formats.map(\.rawValue)

    static let spec = CommandSpec(
        name: "fleet",
        summary: "Tell what a release does to the devices in the field, from how many run each version",
        positionalName: "FIXTURE",
        options: [
            .value(
                "--installed", "FILE", required: true,
                help: "The installed base: CSV with the header version,devices (see below)."),
            .value("--release", "V", required: true, help: "The release R whose first launch to look at."),
            .value("--format", "FORMAT", allowed: formats, help: "How to write the report; text by default."),
            .value(
                "--output", "FILE",
                help: "Write the report to FILE (the text report still goes to standard output)."),
            .value(
                "--fail-on", "KINDS",
                help: "Exit 1 when the report lists steps of these kinds: lost, late, or lost,late. By default the"
                    + " exit status is 0 whatever the report shows."),
        ],
        discussion: """
            FIXTURE gives the app's steps and floor with their "since" and "until" (its histories are not
            replayed). FILE is CSV, LF or CRLF line ends: the header version,devices, then one row per version,
            the devices whose app last ran it and upgraded through it. devices is a decimal number, a count
            (12) or a share (0.35), with no sign, exponent or spaces and at most 18 decimal places. Lines
            starting with # and blank lines (spaces and tabs only) are skipped, before the header too, and so is
            a UTF-8 byte-order mark; each version at most once (1.2 and 1.2.0 are one version); the devices must
            add up to more than 0. A fault is reported as FILE:LINE: what is wrong.

            The build of R is the fixture's steps with since <= R <= until, and its floor if the floor's since
            and until include R. A device at d below R runs, at its first launch of R, the steps of R's build
            with d < version <= R, and the floor F when d < F <= R; a device at or above R runs nothing. The
            report gives:
              - the devices in all, updating (below R) and current (R or above), with their shares of all
                devices;
              - R's floor (listed whenever R's build has one, with 0 devices when it lies above R), then each step
                of R's build at or below R in run order, with the devices that run it;
              - the steps per updating device (the floor counts as a step) and, when a listed step has
                durationMs, the milliseconds (0 for a step without): mean, median, 90th percentile and maximum,
                weighted by devices. The q-th percentile is the smallest value v such that the devices with v
                or less weigh at least q of the updating devices; with no updating devices all are 0;
              - a candidate floor at each distinct version F of R's build's steps at or below R: the steps it
                would retire (version <= F) and the devices below F, which would run it instead;
              - lost: each step at or below R that R's build no longer has (until < R), with the devices below
                its version, which never run it (none when R's floor is at or above it);
              - late: each step of R's build with the devices at or above its version and below its since, which
                passed its version in a build without it and never run it.
            Lost and late list only steps with devices, never the floor, in run order.

            Counts are exact, written with the file's precision; shares are percentages of all devices in text
            and Markdown, rounded to 2 decimal places (12.5%; <0.01% for a share above 0 that rounds to 0),
            and fractions from 0 to 1 in JSON, rounded to 6; means are rounded to 2. JSON keys: release,
            devices, updating, current, steps (id, version, devices, share), stepsPerDevice and durationMs
            (mean, p50, p90, max; durationMs null without durations), floors (version, retires, devices,
            share), lost and late (id, version, devices, share).

            The report is written whatever it shows. With --fail-on lost, late or lost,late, a CI job fails on
            what the release plan leaves undone: when the report lists a step of a kind named, each such kind
            is said on standard error with its steps, such as
            '--fail-on lost: 1 lost step: reindex (2.0) on 7500 devices (9.62%)', and the exit status is 1.

            Exit status: 0 the report was written (and, with --fail-on, lists no step of the kinds named), 1
            it lists a step of a kind --fail-on names, 2 unusable fixture, installed base or arguments.
            """,
        positionalIsRequired: true)

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        guard arguments.positionals.count == 1 else {
            throw UsageError(
                arguments.positionals.isEmpty
                    ? "missing FIXTURE: the fixture whose steps the release has"
                    : "fleet takes one FIXTURE; got \(arguments.positionals.count): "
                        + arguments.positionals.joined(separator: " "),
                command: spec)
        }
        let release = try arguments.version("--release", command: spec)!
        let failOn = try failOnKinds(arguments["--fail-on"])
        let format = arguments["--format"].flatMap(ReportFormat.init(rawValue:)) ?? .text
        let fixture = try Tool.loadFixture(arguments.positionals[0])
        let installed = try InstalledBase.load(file: arguments["--installed"]!)
        let report = FleetReport(fixture: fixture, installed: installed, release: release)
        if let output = arguments["--output"] {
            do {
                try Data(report.render(as: format).utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                Tool.printError("error: cannot write the report to \(output): \(error.localizedDescription)")
                return Tool.ExitStatus.unusable
            }
            print(report.render(as: .text), terminator: "")
        } else {
            print(report.render(as: format), terminator: "")
        }
        let failures = failureLines(report, failOn: failOn)
        for line in failures { Tool.printError(line) }
        return failures.isEmpty ? Tool.ExitStatus.success : Tool.ExitStatus.failure
    }

    /// The kinds `--fail-on` names.
    ///
    /// - Parameter text: The option's value (`lost`, `late`, `lost,late`), or `nil` when not given.
    /// - Returns: The kinds; empty when the option is not given.
    /// - Throws: ``UsageError`` naming the value given and the accepted ones, for an unknown or empty
    ///   kind.
    static func failOnKinds(_ text: String?) throws(UsageError) -> Set<FindingKind> {
        guard let text else { return [] }
        var kinds: Set<FindingKind> = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let kind = FindingKind(rawValue: String(name)) else {
                throw UsageError(
                    "invalid --fail-on \"\(text)\": expected lost, late, or lost,late", command: spec)
            }
            kinds.insert(kind)
        }
        return kinds
    }

    /// One line per kind in `failOn` that the report lists steps of, lost first, each step with its
    /// devices and their share: `--fail-on lost: 1 lost step: reindex (2.0) on 7500 devices (9.62%)`.
    ///
    /// - Parameters:
    ///   - report: The fleet report.
    ///   - failOn: The kinds `--fail-on` names.
    /// - Returns: The lines; empty when the report lists no step of those kinds.
    static func failureLines(_ report: FleetReport, failOn: Set<FindingKind>) -> [String] {
        var lines: [String] = []
        for (kind, steps) in [(FindingKind.lost, report.lost), (.late, report.late)]
        where failOn.contains(kind) && !steps.isEmpty {
            let list = steps.map { "\($0.id) (\($0.version)) on \($0.devices) devices (\($0.shareText))" }
            lines.append(
                "--fail-on \(kind): \(steps.count) \(kind) step\(steps.count == 1 ? "" : "s"): "
                    + list.joined(separator: ", "))
        }
        return lines
    }
}
