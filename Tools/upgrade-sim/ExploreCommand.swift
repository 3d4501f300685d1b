import Foundation
import UpgradeExplorer
import UpgradeFixtures
import UpgradeSimReports

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `upgrade-sim explore [PATH...]`: checks the guarantees over every upgrade path.
enum ExploreCommand: Command {
    /// Explorations larger than this are refused, so that a typo in `--depth` does not run for days.
    static let launchLimit = 200_000_000

    static let spec = CommandSpec(
        name: "explore",
        summary: "Check the guarantees after every launch of every upgrade path, of any length",
        positionalName: "PATH...",
        options: [
            .flag(
                "--fixpoint",
                help: "Search the reachable states to a fixpoint: every history of any length (the default)."),
            .value(
                "--depth", "N", help: "Enumerate every history of 1 to N launches instead of searching to a fixpoint."),
            .flag("--all-policies", help: "Explore every policy combination instead of each fixture's own."),
            .value(
                "--engine", "ENGINE", allowed: ExplorationOptions.Engine.allCases.map(\.rawValue),
                help: "standard (UpgradeCore, the default) or naive (the appUpgradeTo_X_Y_Z pattern)."),
            .value(
                "--save", "FOLDER",
                help: "Also write each violation's and finding's shortest history to FOLDER as a fixture file."),
            .value(
                "--allow", "KINDS",
                help: "Accept these findings for every step: late, lost, or late,lost. They are still reported."),
            .value(
                "--format", "FORMAT", allowed: ReportFormat.allCases.map(\.rawValue),
                help: "How to write the report; text by default."),
            .value(
                "--output", "FILE",
                help: "Write the report to FILE (the text report still goes to standard output)."),
            .flag("--no-progress", help: "Show no progress line on standard error, even on a terminal."),
        ],
        discussion: """
            For each fixture under the PATHs (files, or folders searched recursively for *.json; default:
            Fixtures), explores the histories of launches over the versions the fixture names (its steps' and
            floor's versions, every "since" and "until" and the version just above each "until", and its
            optional "versions" list) plus one version below the lowest and one above the highest, downgrades
            and repeats included, each from a fresh install, through the engine: UpgradeCore's own launch, the
            one apps use, or with --engine naive the naive pattern this package replaces. Each launch at C runs
            the build of C.

            By default (--fixpoint) it searches breadth-first over the states that histories reach, with a
            visited set, until no new state appears: every history of any length is then checked. A state
            holds everything that can change what a later launch does or how it is judged: the stored state
            ("no state" told from an empty one, the interrupted flags included; not the last version launched
            nor the lists' order, which no rule reads to decide what runs; for the naive engine its stored
            version string), attempt numbers cut off past the longest script, failTimes and crashTimes
            and giveUpAfter (no behaviour, policy or guarantee tells larger ones apart), and what the guarantee
            checker remembers. It reports the reachable states, the transitions (launches) between them, and the
            longest shortest history to a state: the depth a bounded search would have needed. With --depth N it
            enumerates every history of 1 to N launches instead, sharing the simulation of common prefixes.

            After every launch it checks the launch algorithm's guarantees: no step above the
            running version runs; a finished step never runs again; steps finish in run order; after an
            upgraded or upToDate launch at C every step at or below C is done; the mark never goes down
            (under keep); a failed step is the first one the next launch handles; the state written is valid.
            With builds that differ, each launch is judged against its own build: steps finish in run order
            within a launch, and across launches among the steps every build of the history has.

            It also reports the steps a release plan leaves undone, as findings (for steps above the device's
            fresh-install baseline; a floor is never one). A step is late when the mark passed its version in
            a launch whose build did not yet contain it (below its "since"), and lost when the mark passed its
            version, while it was not done, in a launch whose build no longer contained it (above its "until")
            and no floor at or above it had run. A finding is allowed by --allow or by the step's "allow" list.

            It prints, per fixture, what it covered and the time taken, and each broken guarantee and each
            finding with the shortest history that shows it (breadth-first order finds it), as a fixture that
            'upgrade-sim run' reads (its expectations are what the engine did), in the --format chosen.
            A search that runs longer than a second shows its progress on one line of standard error (level,
            states, transitions, rate) when that is a terminal, unless --no-progress.

            What it costs: the states are the marks a device can hold times what can be pending above the
            mark (the steps that failed or crashed and are still to be retried, and what finished past them),
            and each state is launched at every version: about versions x states launches, each running the
            steps it finds pending. With every step succeeding that is about steps x versions launches; each
            step that can fail or crash adds states for every mark below it (waiting for its retry), and all
            18 policies cost about 18 times one. 150 steps over 150 versions, 12 of them failing or crashing
            once, take seconds under one policy. When a fixture is too large, explore its own policy only (no
            --all-policies), or check the histories of a bounded length with --depth N (every history of 1 to
            N launches: about versions^N launches, so keep N small).

            A fixture that cannot be read (a missing or unreadable file, a folder without *.json files, a
            malformed fixture) is reported on standard error with its path and what is wrong, and is not
            explored; the others are, the closing line says how many could not be read, and the exit status is 2.
            When none can be read, only the errors are reported.

            Exit status: 0 every guarantee held and every finding is allowed, 1 a guarantee was broken or a
            finding is not allowed, 2 unusable input or arguments.
            """,
        retiredOptions: [
            "--quiet": "explore's progress line is hidden with --no-progress (--quiet is run's terse report)"
        ])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let paths = try Tool.fixturePaths(arguments, command: spec)
        var options = ExplorationOptions()
        if let text = arguments["--depth"] {
            guard let depth = Int(text), depth >= 1 else {
                throw UsageError("invalid --depth \"\(text)\": expected a whole number of at least 1", command: spec)
            }
            if arguments.has("--fixpoint") {
                throw UsageError("--fixpoint and --depth exclude each other: choose one", command: spec)
            }
            options.depth = depth
        }
        options.allPolicies = arguments.has("--all-policies")
        if let engine = arguments["--engine"].flatMap(ExplorationOptions.Engine.init(rawValue:)) {
            options.engine = engine
        }
        if let text = arguments["--allow"] {
            for name in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let kind = FindingKind(rawValue: String(name)) else {
                    throw UsageError(
                        "invalid --allow \"\(text)\": expected late, lost, or late,lost", command: spec)
                }
                options.allow.insert(kind)
            }
        }
        let format = arguments["--format"].flatMap(ReportFormat.init(rawValue:)) ?? .text
        let saveFolder = arguments["--save"].map { URL(fileURLWithPath: $0, isDirectory: true) }

        let loaded = FixtureLoader.load(paths: paths)
        for error in loaded.errors { Tool.printError("error: \(error)") }
        // As `run`: with nothing readable, the errors alone (no report, no summary of nothing explored).
        if loaded.fixtures.isEmpty, !loaded.errors.isEmpty { return Tool.ExitStatus.unusable }
        let explorers = loaded.fixtures.map { Explorer(fixture: $0, options: options) }
        for explorer in explorers where explorer.plannedLaunches > launchLimit {
            Tool.printError(
                "error: \(explorer.fixture.file ?? explorer.fixture.name): depth \(options.depth ?? 0) over"
                    + " \(explorer.fixture.explorationVersions.count) versions means more than \(launchLimit) launches;"
                    + " choose a smaller --depth")
            return Tool.ExitStatus.unusable
        }
        if let saveFolder {
            do {
                try FileManager.default.createDirectory(at: saveFolder, withIntermediateDirectories: true)
            } catch {
                Tool.printError("error: cannot create \(saveFolder.path): \(error.localizedDescription)")
                return Tool.ExitStatus.unusable
            }
        }

        let showProgress = ProgressLine.isShown(
            isTerminal: isatty(STDERR_FILENO) == 1, hidden: arguments.has("--no-progress"))
        var results: [ExplorationResult] = []
        let clock = ContinuousClock()
        let start = clock.now
        for explorer in explorers {
            let label = explorer.fixture.file ?? explorer.fixture.name
            let searchStart = clock.now
            let line = ProgressLine(label: label, elapsed: { searchStart.duration(to: .now) }) { text in
                FileHandle.standardError.write(Data(text.utf8))
            }
            let result = try await explorer.run(reporting: showProgress ? line.update : nil)
            line.finish()
            // The text report goes out fixture by fixture; the other forms are written at the end.
            if format == .text || arguments["--output"] != nil {
                print(ExplorationReport(results: [result]).render(as: .text), terminator: "")
            }
            results.append(result)
            if let saveFolder {
                let found =
                    result.violations.map { $0.fixture(from: result.fixture, engine: options.engine) }
                    + result.findings.map { $0.fixture(from: result.fixture, engine: options.engine) }
                for fixture in found {
                    let file = saveFolder.appendingPathComponent("\(fixture.name).json")
                    do {
                        try Data(fixture.jsonText.utf8).write(to: file, options: .atomic)
                    } catch {
                        Tool.printError("error: cannot write \(file.path): \(error.localizedDescription)")
                        return Tool.ExitStatus.unusable
                    }
                }
            }
        }
        let seconds = start.duration(to: clock.now)
        let report = ExplorationReport(results: results)
        if format != .text {
            let rendered = report.render(as: format)
            if let output = arguments["--output"] {
                do {
                    try Data(rendered.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    Tool.printError("error: cannot write the report to \(output): \(error.localizedDescription)")
                    return Tool.ExitStatus.unusable
                }
            } else {
                print(rendered, terminator: "")
                if !loaded.errors.isEmpty { return Tool.ExitStatus.unusable }
                return report.passed ? Tool.ExitStatus.success : Tool.ExitStatus.failure
            }
        } else if let output = arguments["--output"] {
            do {
                try Data(report.render(as: .text).utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                Tool.printError("error: cannot write the report to \(output): \(error.localizedDescription)")
                return Tool.ExitStatus.unusable
            }
        }
        let explored =
            "explored \(explorers.count) fixture\(explorers.count == 1 ? "" : "s") with the \(options.engine) engine"
        let unread =
            loaded.errors.isEmpty
            ? ""
            : "; \(loaded.errors.count) input\(loaded.errors.count == 1 ? "" : "s") could not be read (see the errors above)"
        if options.isFixpoint {
            print(
                explored + " to a fixpoint: \(report.states) states, \(report.transitions) transitions in"
                    + " \(ExplorationText.format(seconds)), longest shortest path \(report.longestShortestPath);"
                    + " \(report.summaryLine)\(unread)")
        } else {
            print(
                explored + ": \(report.histories) histories, \(report.launches) launches in"
                    + " \(ExplorationText.format(seconds)); \(report.summaryLine)\(unread)")
        }
        if !loaded.errors.isEmpty { return Tool.ExitStatus.unusable }
        return report.passed ? Tool.ExitStatus.success : Tool.ExitStatus.failure
    }
}

extension Tool {
    /// Rewrites the current line of standard error with a progress message.
    static func printProgress(_ text: String) {
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + text).utf8))
    }
}
