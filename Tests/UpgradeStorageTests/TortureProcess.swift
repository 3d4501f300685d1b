// Real processes: only where a test can start one (`Process` does not exist on iOS, tvOS, watchOS or
// visionOS, whose test builds leave the process tests out).
#if os(macOS) || os(Linux)
    import Foundation
    import Testing
    import UpgradeTestSupport

    /// The `store-torture` helper (Tests/StoreTorture) run as a real process (see `ChildProcess`).
    enum TortureProcess {
        /// The helper's executable, found beside the test bundle (see `BuildProducts`).
        static let executable = BuildProducts.executable(named: "store-torture")

        /// Starts the helper with `arguments`.
        static func start(_ arguments: [String]) throws -> ChildProcess {
            let executable = try #require(
                Self.executable,
                "store-torture was not found; looked at:\n\(BuildProducts.searched(for: "store-torture"))")
            return try ChildProcess(executable, arguments: arguments)
        }

        /// Runs the helper to its end.
        static func run(_ arguments: [String]) async throws -> ChildProcess.Exit {
            try await start(arguments).exit()
        }
    }
#endif
