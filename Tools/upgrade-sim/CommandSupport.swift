import Foundation
import UpgradeFixtures
import UpgradeStorage
import VersionKit

extension ParsedArguments {
    /// The value of a version option, read strictly.
    ///
    /// - Parameter name: The option, such as `--version`.
    /// - Returns: The version, or `nil` when the option was not given.
    /// - Throws: ``UsageError`` with the VersionKit message for a malformed version.
    func version(_ name: String, command: CommandSpec) throws(UsageError) -> Version? {
        guard let text = self[name] else { return nil }
        do {
            return try Version(parsing: text)
        } catch {
            throw UsageError("invalid \(name): \(error)", command: command)
        }
    }
}

extension Tool {
    /// The path of this very executable, to start copies of it: `/proc/self/exe` on Linux, the main
    /// bundle's executable elsewhere.
    static func ownExecutable() -> URL {
        #if os(Linux) || os(Android)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                return URL(fileURLWithPath: path)
            }
        #else
            // macOS: no /proc; the main bundle's executable, below, is this executable.
        #endif
        if let url = Bundle.main.executableURL { return url }
        return URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    }

    /// Reads a fixture file for `launch` and `plan`.
    static func loadFixture(_ path: String) throws(FixtureError) -> Fixture {
        try FixtureLoader.load(file: path)
    }
}

extension Tool {
    /// `--durability LEVEL`: what the file store's writes survive, for `launch` and `run --processes`.
    static let durabilityOption = OptionSpec.value(
        "--durability", "LEVEL", allowed: FileUpgradeStore.Durability.allCases.map(\.description),
        help: "What each write of a file store survives: power-loss (flushed to disk; the default) or app-kill.")

    /// The durability level the arguments ask for; ``FileUpgradeStore/Durability/powerLoss`` by default.
    static func durability(_ arguments: ParsedArguments, command: CommandSpec) throws(UsageError)
        -> FileUpgradeStore.Durability
    {
        guard let name = arguments["--durability"] else { return .powerLoss }
        guard let level = FileUpgradeStore.Durability(name: name) else {
            throw UsageError("invalid --durability: \(name); expected power-loss or app-kill", command: command)
        }
        return level
    }

    /// `--legacy-version V`: the naive pattern's version under a legacy key, for `launch` and `plan`.
    static let legacyVersionOption = OptionSpec.value(
        "--legacy-version", "V",
        help: "The legacy key localAppVersion holds V: while the state file holds no state, it is adopted.")

    /// The file store's system calls on a device locked since its restart (`--locked`): every read,
    /// creation and probe of a protected file fails with `EPERM`, so that a launch or a plan meets the
    /// store's real probe path.
    static func lockedDeviceCalls() -> any FileStoreCalls {
        let calls = FaultInjectingCalls()
        calls.setProtectedDataAvailable(false)
        return calls
    }
}
