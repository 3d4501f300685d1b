import Foundation
import Testing
import UpgradeTestSupport

@testable import UpgradeReplay

/// UPGRADE_SIM_TEST_SKIP_FLUSH, the switch of the power-cut tests' mutation check
/// (Scripts/power-cut-tests.sh): read by `upgrade-sim launch` alone, loudly. Whether a skipped flush
/// loses writes is what the power-cut tests themselves show; here, only the switch.
@Suite("upgrade-sim launch: the power-cut tests' flush switch")
struct PowerCutHookTests {
    /// Runs `upgrade-sim launch` at 1.0 with the variable set, through `env`, so that this process's
    /// environment stays as it is.
    func launch(skipping value: String) async throws -> Binary.Result {
        let folder = try TemporaryDirectory("power-cut-hook")
        let fixture = folder.file("f.json")
        try fixtureJSON(policy: #"{"freshInstall": "runAll"}"#, steps: #"[{"version": "1.0", "id": "first"}]"#)
            .write(to: fixture, atomically: true, encoding: .utf8)
        let output = folder.file("stdout")
        let errors = folder.file("stderr")
        let ended = try await ProcessReplay.runChild(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [
                "UPGRADE_SIM_TEST_SKIP_FLUSH=\(value)", Binary.url.path, "launch", "--fixture", fixture.path,
                "--store", folder.file("state.json").path, "--version", "1.0",
            ],
            standardOutput: output, standardError: errors)
        let stdout = try String(contentsOf: output, encoding: .utf8)
        let stderr = try String(contentsOf: errors, encoding: .utf8)
        guard case .exited(let status) = ended else {
            Issue.record("upgrade-sim launch \(ended)")
            return Binary.Result(status: -1, killedBySignal: nil, stdout: stdout, stderr: stderr)
        }
        return Binary.Result(status: status, killedBySignal: nil, stdout: stdout, stderr: stderr)
    }

    @Test("each flush can be skipped, and the launch says so on standard error", arguments: ["file", "folder"])
    func skips(flush: String) async throws {
        let result = try await launch(skipping: flush)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""outcome": "upgraded""#))
        #expect(
            result.stderr.contains(
                "UPGRADE_SIM_TEST_SKIP_FLUSH=\(flush): this launch skips the \(flush) flush of each write"),
            "\(result.stderr)")
    }

    @Test("any other value is an error that names the variable, and nothing runs")
    func rejectsOtherValues() async throws {
        for value in ["", "both", "file,", "Folder"] {
            let result = try await launch(skipping: value)
            #expect(result.status == 2, "\(value): \(result.stderr)")
            #expect(result.stderr.contains("invalid UPGRADE_SIM_TEST_SKIP_FLUSH: \(value);"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
