import Foundation

/// A subcommand of upgrade-sim: its options as data and the work it does.
///
/// To add a command, write a type conforming to this and list it in ``Tool/commands``.
protocol Command: Sendable {
    /// The command's name, options and help.
    static var spec: CommandSpec { get }
    /// Does the work; returns the exit status. A thrown ``UsageError`` or other error exits 2.
    static func run(_ arguments: ParsedArguments) async throws -> Int32
}

/// The tool's entry point, command table and shared helpers.
@main
enum Tool {
    static let name = "upgrade-sim"

    /// The commands, in the order the help lists them.
    static let commands: [any Command.Type] = [
        RunCommand.self, LaunchCommand.self, PlanCommand.self, ExploreCommand.self, FleetCommand.self,
    ]

    /// Exit statuses (the README's and `--help`'s).
    enum ExitStatus {
        /// Every expectation held.
        static let success: Int32 = 0
        /// Some expectation failed or a guarantee was violated.
        static let failure: Int32 = 1
        /// Unusable input or arguments.
        static let unusable: Int32 = 2
    }

    static var help: String {
        let width = (commands.map { $0.spec.name.count }.max() ?? 0) + 2
        let list = commands.map {
            "  " + $0.spec.name.padding(toLength: width, withPad: " ", startingAt: 0) + $0.spec.summary
        }
        return """
            \(name): replays upgrade-path fixtures through the real UpgradeCore engine

            USAGE: \(name) <command> [options]

            COMMANDS:
            \(list.joined(separator: "\n"))

            Run '\(name) <command> --help' for a command's options.
            Exit status: 0 every expectation held, 1 some expectation failed, 2 unusable input or arguments.
            """
    }

    static func main() async {
        let status = await run(Array(CommandLine.arguments.dropFirst()))
        fflush(nil)
        exit(status)
    }

    /// Runs the tool with the given arguments (without the program name) and returns the exit status.
    static func run(_ arguments: [String]) async -> Int32 {
        guard let first = arguments.first else {
            printError(help)
            return ExitStatus.unusable
        }
        if first == "--help" || first == "-h" || first == "help" {
            if first == "help", arguments.count > 1 {
                guard let command = commands.first(where: { $0.spec.name == arguments[1] }) else {
                    return reportUsage(UsageError("unknown command \"\(arguments[1])\""))
                }
                print(command.spec.help)
                return ExitStatus.success
            }
            print(help)
            return ExitStatus.success
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            var message = "unknown command \"\(first)\""
            if let close = CommandSpec.closest(to: first, among: commands.map { $0.spec.name }) {
                message += "; did you mean \"\(close)\"?"
            }
            return reportUsage(UsageError(message))
        }
        do {
            let parsed = try command.spec.parse(arguments.dropFirst())
            if parsed.helpRequested {
                print(command.spec.help)
                return ExitStatus.success
            }
            return try await command.run(parsed)
        } catch let error as UsageError {
            return reportUsage(error)
        } catch {
            printError("error: \(error)")
            return ExitStatus.unusable
        }
    }

    static func reportUsage(_ error: UsageError) -> Int32 {
        printError("error: \(error.message)\n\(error.hint)")
        return ExitStatus.unusable
    }

    /// Writes a line to standard error.
    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
