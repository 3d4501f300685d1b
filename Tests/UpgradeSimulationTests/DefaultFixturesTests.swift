import Foundation
import Testing
import UpgradeTestSupport

@testable import upgrade_sim

/// `run` and `explore` without a PATH read `Fixtures` in the current folder; started elsewhere, they
/// say where they looked and how to go on, and exit 2.
@Suite("The default Fixtures path")
struct DefaultFixturesTests {
    @Test("given PATHs are used as they are; none, the default Fixtures when it is there")
    func paths() throws {
        let spec = RunCommand.spec
        #expect(
            try Tool.fixturePaths(spec.parse(["a.json", "b"]), command: spec, folder: "/nonexistent") == [
                "a.json", "b",
            ])
        let folder = try TemporaryDirectory("cwd")
        try FileManager.default.createDirectory(at: folder.file("Fixtures"), withIntermediateDirectories: true)
        #expect(try Tool.fixturePaths(spec.parse([]), command: spec, folder: folder.url.path) == ["Fixtures"])
    }

    @Test("without Fixtures in the current folder, the error names the path it looked for and the command")
    func missing() throws {
        let folder = try TemporaryDirectory("cwd")
        let spec = ExploreCommand.spec
        let error = #expect(throws: UsageError.self) {
            try Tool.fixturePaths(spec.parse([]), command: spec, folder: folder.url.path)
        }
        #expect(error?.message.contains("looked for \(folder.url.appendingPathComponent("Fixtures").path).") == true)
        #expect(error?.message.contains("name the fixture files or folders") == true)
        #expect(error?.hint == "Run 'upgrade-sim explore --help' for usage.")
    }

    #if os(macOS) || os(Linux)
        @Test(
            "run and explore started outside a package's root say where they looked, exit 2, and run nothing",
            arguments: ["run", "explore"])
        func outsideThePackageRoot(command: String) async throws {
            let folder = try TemporaryDirectory("cwd")
            let result = try await Binary.run([command], in: folder.url)
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty, "\(result.stdout)")
            let lines = result.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 2, "\(result.stderr)")
            #expect(
                lines.first?.hasPrefix(
                    "error: no PATH given, and the default Fixtures is not in the current folder: looked for /") == true
            )
            #expect(lines.first?.contains("\(folder.url.lastPathComponent)/Fixtures.") == true, "\(result.stderr)")
            #expect(lines.last == "Run 'upgrade-sim \(command) --help' for usage.")
        }
    #endif
}
