import Foundation
import StrictJSON
import UpgradeCore
import UpgradeTestSupport
import VersionKit

@testable import UpgradeSimulation

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

/// The built `upgrade-sim`, found next to the test bundle in the build folder.
enum Binary {
    static let url: URL = {
        var candidates: [URL] = []
        #if os(Linux) || os(Android)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                candidates.append(URL(fileURLWithPath: path).deletingLastPathComponent())
            }
        #endif
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let main = Bundle.main.executableURL { candidates.append(main.deletingLastPathComponent()) }
        // Last resort: the package's default build folder.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(package.appendingPathComponent(".build/debug"))
        for folder in candidates {
            let binary = folder.appendingPathComponent("upgrade-sim")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        return candidates[0].appendingPathComponent("upgrade-sim")
    }()

    /// The result of one run of the binary.
    struct Result {
        var status: Int32
        var killedBySignal: Int32?
        var stdout: String
        var stderr: String
    }

    /// Runs the binary with arguments and waits for it.
    static func run(_ arguments: [String], in folder: URL? = nil) async throws -> Result {
        let scratch = try TemporaryDirectory("upgrade-sim-run")
        let output = scratch.file("stdout")
        let errors = scratch.file("stderr")
        let ended = try await ProcessReplay.runChild(
            url, arguments: arguments, standardOutput: output, standardError: errors, currentDirectory: folder)
        let stdout = try String(contentsOf: output, encoding: .utf8)
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        switch ended {
        case .exited(let status): return Result(status: status, killedBySignal: nil, stdout: stdout, stderr: stderr)
        case .killed(let signal): return Result(status: -1, killedBySignal: signal, stdout: stdout, stderr: stderr)
        }
    }
}
