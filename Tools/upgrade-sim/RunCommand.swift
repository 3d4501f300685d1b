import Foundation
import UpgradeFixtures
import UpgradeReplay
import UpgradeSimReports
import UpgradeStorage

/// `upgrade-sim run [PATH...]`: replays fixtures and compares every launch with its expectations.
enum RunCommand: Command {
    static let spec = CommandSpec(
        name: "run",
        summary: "Replay fixtures and compare every launch with what they expect",
        positionalName: "PATH...",
        options: [
            .value(
                "--format", "FORMAT", allowed: ReportFormat.allCases.map(\.rawValue),
                help: "How to write the report; text by default."),
            .value(
                "--output", "FILE",
                help: "Write the report to FILE (the text report still goes to standard output)."),
            .flag(
                "--processes",
                help: "Run each launch as a child process ('launch') against a real file store, crashes included."),
            Tool.durabilityOption,
            .flag("--quiet", help: "Terse text: one PASS or FAIL line per history, its mismatches, the closing line."),
            .flag(
                "--failures-only",
                help: "Text of the failing histories only (with their mismatches) and the closing line; for CI logs."),
        ],
        discussion: """
            Replays every fixture file under the PATHs (files, or folders searched recursively for *.json;
            default: Fixtures). Each history starts from a fresh install; by default launches run in this
            process with an in-memory store and simulated crashes. The text report shows each history as its
            path, PASS or FAIL and each launch's version, outcome and the steps it ran (a failed or crashed
            step with its attempt in parentheses), such as '1.0 fresh · 2.0 failed move-settings (1) · 2.0
            upgraded move-settings'; a failing history one launch a line, each mismatch under its launch as
            KEY: expected E, got G. It ends with the line 'N passed, M failed' (counting histories).
            --quiet keeps one line per history and each mismatch as FIXTURE / HISTORY / launch N (VERSION) /
            KEY: expected E, got G. --failures-only leaves the histories that passed out of the text (and the
            fixtures whose histories all passed; a fixture's line says 'M of N histories failed'), so that a
            passing run prints the closing line alone; with --quiet, in the terse form. Both change the text
            only: the other --format forms are always whole. --format html writes one self-contained page
            with a timeline per history.

            A fixture that cannot be read is reported on standard error with its file and JSON path and is
            not replayed; the others are, and the exit status is 2. When none can be read, only the errors
            are reported.

            Exit status: 0 every expectation held, 1 some expectation failed, 2 unusable input or arguments.
            """)

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let paths = try Tool.fixturePaths(arguments, command: spec)
        let format = arguments["--format"].flatMap(ReportFormat.init(rawValue:)) ?? .text
        let loaded = FixtureLoader.load(paths: paths)
        for error in loaded.errors { Tool.printError("error: \(error)") }
        if loaded.fixtures.isEmpty, !loaded.errors.isEmpty { return Tool.ExitStatus.unusable }
        let mode: ReplayMode =
            arguments.has("--processes")
            ? .processes(executable: Tool.ownExecutable(), durability: try Tool.durability(arguments, command: spec))
            : .inMemory
        let report = try await ReplayReport.replay(loaded.fixtures, mode: mode)
        let failuresOnly = arguments.has("--failures-only")
        let text =
            arguments.has("--quiet")
            ? report.quietText(failuresOnly: failuresOnly) : report.storyText(failuresOnly: failuresOnly)
        let rendered = format == .text ? text : report.render(as: format)
        if let output = arguments["--output"] {
            do {
                try Data(rendered.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                Tool.printError("error: cannot write the report to \(output): \(error.localizedDescription)")
                return Tool.ExitStatus.unusable
            }
            print(text, terminator: "")
        } else {
            print(rendered, terminator: "")
        }
        if !loaded.errors.isEmpty { return Tool.ExitStatus.unusable }
        return report.passed ? Tool.ExitStatus.success : Tool.ExitStatus.failure
    }
}
