import Foundation
import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import UpgradeStorage

/// `upgrade-sim launch`: one real launch in this process against a file store.
enum LaunchCommand: Command {
    static let spec = CommandSpec(
        name: "launch",
        summary: "Perform one launch in this process against a state file",
        positionalName: nil,
        options: [
            .value("--fixture", "FILE", required: true, help: "The fixture whose steps and policy to use."),
            .value("--store", "STATEFILE", required: true, help: "The state file (created if missing)."),
            .value("--version", "V", required: true, help: "The app version that is launching."),
            .value(
                "--journal", "FILE",
                help: "Append 'ID ATTEMPT' to FILE for each step that finishes, flushed to disk before it returns."),
            .value(
                "--trace", "FILE",
                help: "Append what each step does (ran, finished, abandoned) to FILE; used by 'run --processes'."),
            Tool.durabilityOption,
            .flag(
                "--follower",
                help: "Launch as a follower (an app extension): read the state, never write it or run a step."),
            .flag(
                "--locked",
                help: "Protected data is unavailable (before the first unlock): decide nothing, end deferred."),
            .value(
                "--expire", "ID",
                help: "While step ID runs, the background time expires; then this process is killed (SIGKILL)."),
            Tool.legacyVersionOption,
        ],
        discussion: """
            Runs the fixture's steps, with its policy, through the real engine and a file store at STATEFILE,
            and prints one JSON object: {"outcome": ..., "ran": [...], "abandoned": [...], "upgradedThrough": ...}.
            Each step sleeps for its durationMs first. A scripted crash kills this process at once with
            SIGKILL: nothing is printed or written, and the next launch finds the step in progress.
            With --follower the launch reads the state without the lock and ends upToDate, downgraded
            or deferred, running no step and writing nothing.
            With --locked the store cannot establish that protected data is readable (the file store's
            probe beside STATEFILE reads as unavailable, as before the first unlock after a restart): the
            launch runs no step, writes nothing, takes no lock it keeps, and ends deferred with the reason
            (a follower too). With --expire ID the launch's background time expires while step ID runs:
            the launch records the attempt as interrupted and not counted and gives up its lock, then the
            process is killed at once, as iOS kills a suspended app; nothing is printed, and the next
            launch tells the step its previous attempt was interrupted, with the same attempt number. A
            launch that does not reach step ID prints its observation as usual. --expire cannot be given
            with --locked or --follower.
            A deferred launch's JSON object ends with "deferral", the reason in words.
            With --legacy-version V the naive pattern's key localAppVersion holds V, in the defaults file
            STATEFILE.legacy-defaults.plist (written if it does not hold V), and the store is read through a
            LegacyVersionAdopter of it: while STATEFILE holds no state, the launch starts from V, and the JSON
            object ends with "adoptedFrom": "V" when the launch adopted it.

            Exit status: 0 the launch ran (whatever its outcome), 2 unusable input, arguments or state file.
            """)

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let version = try arguments.version("--version", command: spec)!
        let condition = try condition(arguments)
        let calls = condition == .locked ? Tool.lockedDeviceCalls() : try skipFlushesIfAskedForPowerCutTest()
        let fixture = try Tool.loadFixture(arguments["--fixture"]!)
        let ids = fixture.steps.map(\.id) + (fixture.floor.map { [$0.id] } ?? [])
        if case .expire(let id)? = condition, !ids.contains(id) {
            throw UsageError(
                "invalid --expire: no step of the fixture has the id \"\(id)\"; the step ids are"
                    + " \(ids.sorted().joined(separator: ", "))", command: spec)
        }
        let path = arguments["--store"]!
        let store = FileUpgradeStore(
            url: URL(fileURLWithPath: path), durability: try Tool.durability(arguments, command: spec), calls: calls)
        let legacy = try arguments.version("--legacy-version", command: spec).map {
            LegacyKey(version: $0, suitePath: path + ".legacy-defaults")
        }
        let observation = try await fixture.app.launch(
            at: version, store: store,
            mode: .realProcess(
                journal: arguments["--journal"].map { URL(fileURLWithPath: $0) },
                trace: arguments["--trace"].map { URL(fileURLWithPath: $0) }),
            role: arguments.has("--follower") ? .follower : .app, condition: condition, legacy: legacy)
        print(observation.jsonText)
        return Tool.ExitStatus.success
    }

    /// The device's condition the arguments ask for: `--locked`, `--expire ID`, or none.
    static func condition(_ arguments: ParsedArguments) throws(UsageError) -> LaunchCondition? {
        guard let id = arguments["--expire"] else { return arguments.has("--locked") ? .locked : nil }
        if arguments.has("--locked") {
            throw UsageError("--expire cannot be given with --locked: a locked launch runs no step", command: spec)
        }
        if arguments.has("--follower") {
            throw UsageError("--expire cannot be given with --follower: a follower runs no step", command: spec)
        }
        return .expire(stepID: id)
    }

    /// The environment variable of the power-cut tests' mutation check, and of nothing else.
    static let skipFlushVariable = "UPGRADE_SIM_TEST_SKIP_FLUSH"

    /// For the power-cut tests' mutation check only (Scripts/power-cut-tests.sh): with
    /// UPGRADE_SIM_TEST_SKIP_FLUSH set to `file`, `folder` or both (comma-separated), the store skips that
    /// flush of each write, so that the tests can show that they catch a store that does not flush. It
    /// says so on standard error. Not in `--help`: it exists for that test alone.
    ///
    /// - Returns: The system calls the launch's store makes: the system's, or those that skip the
    ///   flushes asked for.
    static func skipFlushesIfAskedForPowerCutTest() throws(UsageError) -> any FileStoreCalls {
        guard let value = ProcessInfo.processInfo.environment[skipFlushVariable] else { return SystemCalls() }
        var flushes: Set<SkippingFlushes.Flush> = []
        for name in value.split(separator: ",", omittingEmptySubsequences: false) {
            guard let flush = SkippingFlushes.Flush(rawValue: String(name)) else {
                throw UsageError(
                    "invalid \(skipFlushVariable): \(value); expected file, folder or file,folder (the power-cut"
                        + " tests' mutation check only)", command: spec)
            }
            flushes.insert(flush)
        }
        Tool.printError(
            "upgrade-sim: \(skipFlushVariable)=\(value): this launch skips the \(value) flush of each write, for the"
                + " power-cut tests' mutation check only; its writes do not survive a power cut")
        return SkippingFlushes(flushes)
    }
}
