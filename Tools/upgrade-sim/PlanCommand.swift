import Foundation
import UpgradeCore
import UpgradeReplay
import UpgradeStorage

/// `upgrade-sim plan`: what a launch would do, without running or writing anything.
enum PlanCommand: Command {
    static let spec = CommandSpec(
        name: "plan",
        summary: "Show what a launch would run and why, without running or writing anything",
        positionalName: nil,
        options: [
            .value("--fixture", "FILE", required: true, help: "The fixture whose steps and policy to use."),
            .value(
                "--store", "STATEFILE", required: true,
                help: "The state file to read (a missing file is a fresh install)."),
            .value("--version", "V", required: true, help: "The app version to plan a launch at."),
            .flag(
                "--locked",
                help: "Protected data is unavailable (before the first unlock): the plan decides nothing."),
            Tool.legacyVersionOption,
        ],
        discussion: """
            Prints the outcome a launch at V would have if every step it runs succeeds, then one line per
            step: whether it would run (and which attempt), or why not: done earlier, at or below the
            upgraded-through mark, above the running version, skipped by a fresh install or a downgrade.
            The steps are those of the build of V (the steps whose "since" and "until" enclose V). For a
            fixture with builds or a floor, it then says whether that build has the floor, and lists the
            fixture's steps that the build lacks, with what the state still records of each. Then the last launches recorded in the history beside the state file (STATEFILE.history.jsonl),
            newest last. The state file and the history are only read.
            With --locked the store cannot establish that protected data is readable, as before the first
            unlock after a restart: the plan says the launch would be deferred, and why, and decides nothing.
            With --legacy-version V the naive pattern's key localAppVersion holds V (in a defaults file of a
            temporary folder, removed afterwards) and the store is read through a LegacyVersionAdopter of it:
            while STATEFILE holds no state, the plan starts from V and says, on a "notice:" line, that the
            launch will adopt it.

            Exit status: 0 the plan was printed, 2 unusable input, arguments or state file.
            """)

    /// How many of the history's launches the plan shows.
    static let recentLaunches = 5

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let version = try arguments.version("--version", command: spec)!
        let fixture = try Tool.loadFixture(arguments["--fixture"]!)
        let url = URL(fileURLWithPath: arguments["--store"]!)
        let store =
            arguments.has("--locked")
            ? FileUpgradeStore(url: url, durability: .powerLoss, calls: Tool.lockedDeviceCalls())
            : FileUpgradeStore(url: url)
        let app = fixture.app
        var planned: any UpgradeStore = store
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("upgrade-sim-plan-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        if let legacyVersion = try arguments.version("--legacy-version", command: spec) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            planned = try LegacyKey(
                version: legacyVersion, suitePath: folder.appendingPathComponent("legacy-defaults").path
            ).adopter(over: store)
        }
        let upgrader = app.makeUpgrader(store: planned, at: version)
        let plan = try upgrader.plan(currentVersion: version)
        print(plan)
        // Nothing of the state can be read: the plan has said why.
        guard plan.deferral == nil else { return Tool.ExitStatus.success }
        let build = app.buildSummary(at: version, state: try upgrader.storedState())
        if !build.isEmpty { print("\n" + build.joined(separator: "\n")) }
        // The history is for diagnostics: one that cannot be read is said so, and the plan stands.
        do {
            let recent = try store.history().suffix(recentLaunches)
            print("\nLast launches recorded (\(recent.isEmpty ? "none" : "newest last")):")
            for record in recent { print("  \(record)") }
        } catch {
            print("\nLast launches recorded: the history cannot be read: \(error)")
        }
        return Tool.ExitStatus.success
    }
}
