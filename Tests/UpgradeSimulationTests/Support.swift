import Foundation
import StrictJSON
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeFixtures
@testable import UpgradeReplay

/// Decodes a fixture from text, naming it `file`.
func decodeFixture(_ json: String, file: String = "fixture.json") throws(FixtureError) -> Fixture {
    try FixtureLoader.decode(json, file: file)
}

/// The error a fixture text gives, or `nil` when it decodes.
func fixtureError(_ json: String, file: String = "fixture.json") -> FixtureError? {
    do {
        _ = try decodeFixture(json, file: file)
        return nil
    } catch {
        return error
    }
}

/// Wraps step and history JSON in a fixture document.
func fixtureJSON(
    name: String = "sample", policy: String? = nil, steps: String = "[]", histories: String = "[]"
) -> String {
    var parts = ["\"name\": \(JSONWriter.quoted(name))"]
    if let policy { parts.append("\"policy\": \(policy)") }
    parts.append("\"steps\": \(steps)")
    parts.append("\"histories\": \(histories)")
    return "{" + parts.joined(separator: ", ") + "}"
}

extension Version {
    /// A version from a literal known to be valid, for tests.
    static func v(_ text: String) -> Version { Version(text)! }
}

// Real processes: only where a test can start one (`ProcessReplay.runChild` does not exist on iOS,
// tvOS, watchOS or visionOS, whose test builds leave the process tests out).
#if os(macOS) || os(Linux)
    /// The built `upgrade-sim`, found beside the test bundle in the build folder (see `BuildProducts`).
    enum Binary {
        static let url: URL =
            BuildProducts.executable(named: "upgrade-sim")
            ?? BuildProducts.candidateFolders()[0].appendingPathComponent("upgrade-sim")

        /// The result of one run of the binary.
        struct Result {
            var status: Int32
            var killedBySignal: Int32?
            var stdout: String
            var stderr: String
        }

        /// Runs the binary with arguments and awaits its end (reaped by a thread of its own: no thread
        /// of the concurrency pool waits).
        static func run(_ arguments: [String], in folder: URL? = nil) async throws -> Result {
            let scratch = try TemporaryDirectory("upgrade-sim-run")
            let output = scratch.file("stdout")
            let errors = scratch.file("stderr")
            let ended = try await ProcessReplay.runChild(
                url, arguments: arguments, standardOutput: output, standardError: errors, currentDirectory: folder)
            let stdout = try String(contentsOf: output, encoding: .utf8)
            let stderr = try String(contentsOf: errors, encoding: .utf8)
            switch ended {
            case .exited(let status):
                return Result(status: status, killedBySignal: nil, stdout: stdout, stderr: stderr)
            case .killed(let signal):
                return Result(status: -1, killedBySignal: signal, stdout: stdout, stderr: stderr)
            }
        }
    }
#endif
