import Foundation

extension Tool {
    /// The fixtures `run` and `explore` read when given no PATH: `Fixtures`, in the current folder.
    static let defaultFixtures = "Fixtures"

    /// The fixture paths of `run` and `explore`: the PATHs given, or the default `Fixtures`.
    ///
    /// - Parameters:
    ///   - arguments: The command's arguments.
    ///   - command: The command, for the error's hint.
    ///   - folder: The folder a relative path is read from; the current folder by default.
    /// - Returns: The paths to load.
    /// - Throws: ``UsageError`` naming the folder it looked in when no PATH is given and the current
    ///   folder has no `Fixtures` (a tool started outside its package's root, say).
    static func fixturePaths(
        _ arguments: ParsedArguments, command: CommandSpec,
        folder: String = FileManager.default.currentDirectoryPath
    ) throws(UsageError) -> [String] {
        guard arguments.positionals.isEmpty else { return arguments.positionals }
        let looked = URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent(defaultFixtures).path
        guard FileManager.default.fileExists(atPath: looked) else {
            throw UsageError(
                "no PATH given, and the default \(defaultFixtures) is not in the current folder: looked for \(looked)."
                    + " Run it from the folder that holds \(defaultFixtures) (a package's root), or name the fixture"
                    + " files or folders",
                command: command)
        }
        return [defaultFixtures]
    }
}
