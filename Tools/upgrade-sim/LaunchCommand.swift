import Foundation
import UpgradeSimulation
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
        ],
        discussion: """
            Runs the fixture's steps, with its policy, through the real engine and a file store at STATEFILE,
            and prints one JSON object: {"outcome": ..., "ran": [...], "abandoned": [...], "upgradedThrough": ...}.
            Each step sleeps for its durationMs first. A scripted crash kills this process at once with
            SIGKILL: nothing is printed or written, and the next launch finds the step in progress.

            Exit status: 0 the launch ran (whatever its outcome), 2 unusable input, arguments or state file.
            """)

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let version = try arguments.version("--version", command: spec)!
        let fixture = try Tool.loadFixture(arguments["--fixture"]!)
        let store = FileUpgradeStore(
            url: URL(fileURLWithPath: arguments["--store"]!), durability: try Tool.durability(arguments, command: spec))
        let observation = try await fixture.app.launch(
            at: version, store: store,
            mode: .realProcess(
                journal: arguments["--journal"].map { URL(fileURLWithPath: $0) },
                trace: arguments["--trace"].map { URL(fileURLWithPath: $0) }))
        print(observation.jsonText)
        return Tool.ExitStatus.success
    }
}
