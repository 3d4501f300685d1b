import Foundation
import PackagePlugin

/// `swift package upgrade-sim ARGUMENTS...`: runs the `upgrade-sim` tool of AppUpgrade on the
/// package it is invoked in, so that an app that depends on AppUpgrade can replay its own fixtures:
///
/// ```sh
/// swift package upgrade-sim run Fixtures
/// swift package --allow-writing-to-directory .build upgrade-sim run Fixtures --format junit --output .build/upgrade-sim.xml
/// swift package upgrade-sim explore Fixtures/app.json
/// ```
///
/// SwiftPM builds the tool (a dependency of this plugin) first. The arguments go to the tool
/// unchanged, it runs in the package's folder (so relative paths are the package's), and its output
/// is the command's output. The plugin leaves with the tool's exit status; `swift package` turns a
/// non-zero one into its own status 1 and names the tool's in `Plugin ended with exit code N`.
/// Without arguments (`swift package upgrade-sim`) the plugin asks the tool for its usage
/// (`--help`), which is not a failure: it prints the usage and exits 0.
///
/// The plugin writes nothing itself and asks for no permission. On macOS, SwiftPM runs plugins, and
/// the tools they start, in a sandbox that lets them write only to their own work folder: when the
/// tool's `--output` names a file, let `swift package` allow its folder with
/// `--allow-writing-to-directory FOLDER` (as above), or pass `--disable-sandbox`.
@main
struct UpgradeSimPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "upgrade-sim")
        let process = Process()
        process.executableURL = tool.url
        // Bare, the tool would print its usage as an error (exit 2), under SwiftPM's own error line.
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        switch (process.terminationReason, process.terminationStatus) {
        case (.exit, 0):
            return
        case (.exit, let status):
            // The tool has said what failed; leave with its status (1: an expectation failed,
            // 2: unusable input), which `swift package` reports.
            exit(status)
        case (_, let signal):
            Diagnostics.error("upgrade-sim was killed by signal \(signal)")
            exit(128 + signal)
        }
    }
}
