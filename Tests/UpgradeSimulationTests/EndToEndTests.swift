import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

@testable import UpgradeFixtures
@testable import UpgradeReplay

#if canImport(FoundationXML)
    import FoundationXML
#endif

// Real processes: only where a test can start one (`XMLDocument` and `ProcessReplay.runChild` do not
// exist on iOS, tvOS, watchOS or visionOS, whose test builds leave these tests out).
#if os(macOS) || os(Linux)
    /// Runs the built `upgrade-sim` binary, as CI and users do.
    @Suite("upgrade-sim end to end")
    struct EndToEndTests {
        @Test("the binary is built next to the tests")
        func binaryExists() {
            #expect(FileManager.default.isExecutableFile(atPath: Binary.url.path), "\(Binary.url.path)")
        }

        @Test("run: every expectation holds, exit 0 and the closing line")
        func runPasses() async throws {
            let folder = try SampleFixtures.folder()
            let result = try await Binary.run(["run", folder.file("a-passing.json").path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.hasSuffix("\n3 passed, 0 failed\n"))
            #expect(result.stderr.isEmpty)
        }

        @Test("run: a wrong expectation is reported precisely, exit 1")
        func runFails() async throws {
            let folder = try SampleFixtures.folder()
            let result = try await Binary.run(["run", folder.url.path])
            #expect(result.status == 1, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.last == "4 passed, 1 failed")
            #expect(lines.contains("  FAIL wrong"))
            #expect(lines.contains("       2. 2.0 upgraded b|c"))
            #expect(lines.contains(#"            ran: expected ["appUpgradeTo_1_0", "b|c"], got ["b|c"]"#))

            let quiet = try await Binary.run(["run", "--quiet", folder.url.path])
            #expect(quiet.status == 1)
            let quietLines = quiet.stdout.split(separator: "\n").map(String.init)
            #expect(quietLines.last == "4 passed, 1 failed")
            #expect(quietLines.contains("  PASS crash twice"))
            #expect(
                quietLines.contains(
                    #"       wrong <expectation> & "quotes" / wrong / launch 2 (2.0) / ran: expected ["appUpgradeTo_1_0", "b|c"], got ["b|c"]"#
                ))
        }

        @Test("run --failures-only: the failing histories, their mismatches and the closing line; exit as ever")
        func runFailuresOnly() async throws {
            let folder = try SampleFixtures.folder()
            let full = try await Binary.run(["run", folder.url.path])
            let result = try await Binary.run(["run", "--failures-only", folder.url.path])
            #expect(result.status == 1, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasSuffix("b-failing.json): 1 of 2 histories failed") == true, "\(result.stdout)")
            #expect(lines.contains("  FAIL wrong"))
            #expect(lines.contains(#"            ran: expected ["appUpgradeTo_1_0", "b|c"], got ["b|c"]"#))
            #expect(!result.stdout.contains("PASS"), "\(result.stdout)")
            #expect(lines.last == "4 passed, 1 failed")
            // The failing history reads as in the whole report.
            let failing = full.stdout.components(separatedBy: "  FAIL wrong\n")[1]
            #expect(result.stdout.hasSuffix("  FAIL wrong\n" + failing))

            let terse = try await Binary.run(["run", "--quiet", "--failures-only", folder.url.path])
            #expect(terse.status == 1)
            #expect(!terse.stdout.contains("PASS"))
            #expect(terse.stdout.contains("/ wrong / launch 2 (2.0) / ran: expected"))
            #expect(terse.stdout.hasSuffix("\n4 passed, 1 failed\n"))

            let passing = try await Binary.run(["run", "--failures-only", folder.file("a-passing.json").path])
            #expect(passing.status == 0)
            #expect(passing.stdout == "3 passed, 0 failed\n")

            // Only the text: a report written with --output is whole.
            let file = folder.file("report.json")
            let written = try await Binary.run([
                "run", "--failures-only", "--format", "json", "--output", file.path, folder.url.path,
            ])
            #expect(written.status == 1)
            #expect(written.stdout == result.stdout)
            #expect(try String(contentsOf: file, encoding: .utf8).contains("\"crash twice\""))
        }

        @Test("run: a passing history is its path on one line")
        func runStory() async throws {
            let folder = try SampleFixtures.folder()
            let result = try await Binary.run(["run", folder.file("a-passing.json").path])
            #expect(result.status == 0)
            #expect(result.stdout.contains("\n  PASS no expectations: 3.0 fresh · 3.0 up to date\n"))
        }

        @Test("run: input that cannot be read is reported alone, without a closing line, exit 2")
        func runInputErrorAlone() async throws {
            let folder = try TemporaryDirectory("broken")
            let broken = folder.file("broken.json")
            try "{\"name\": \"x\"}".write(to: broken, atomically: true, encoding: .utf8)
            for arguments in [
                ["run", broken.path], ["run", folder.file("missing").path], ["run", "--quiet", broken.path],
            ] {
                let result = try await Binary.run(arguments)
                #expect(result.status == 2)
                #expect(result.stdout.isEmpty, "\(result.stdout)")
                #expect(result.stderr.hasPrefix("error: "))
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            }
        }

        @Test("run and explore --format html --output FILE write one page; standard output keeps the text")
        func html() async throws {
            let folder = try SampleFixtures.folder()
            let out = try TemporaryDirectory("reports")
            let run = try await Binary.run([
                "run", folder.url.path, "--format", "html", "--output", out.file("r.html").path,
            ])
            #expect(run.status == 1)
            #expect(run.stdout.hasSuffix("4 passed, 1 failed\n"))
            let page = try String(contentsOf: out.file("r.html"), encoding: .utf8)
            #expect(page.hasPrefix("<!DOCTYPE html>"))
            #expect(page.components(separatedBy: "class=\"tl\"").count - 1 == 5)

            let explore = try await Binary.run([
                "explore", folder.file("a-passing.json").path, "--format", "html", "--output", out.file("e.html").path,
            ])
            #expect(explore.status == 0, "\(explore.stderr)")
            let explored = try String(contentsOf: out.file("e.html"), encoding: .utf8)
            #expect(explored.hasPrefix("<!DOCTYPE html>"))
            #expect(explored.contains("Fixtures explored"))

            let unwritable = try await Binary.run([
                "run", folder.url.path, "--format", "html", "--output", out.file("no/such/folder/r.html").path,
            ])
            #expect(unwritable.status == 2)
            #expect(unwritable.stdout.isEmpty)
            #expect(unwritable.stderr.hasPrefix("error: cannot write the report to "))
        }

        @Test("run: the default path is Fixtures in the working folder")
        func runDefaultPath() async throws {
            let folder = try TemporaryDirectory("cwd")
            try FileManager.default.createDirectory(at: folder.file("Fixtures/more"), withIntermediateDirectories: true)
            try SampleFixtures.passing.write(to: folder.file("Fixtures/more/a.json"), atomically: true, encoding: .utf8)
            let result = try await Binary.run(["run"], in: folder.url)
            #expect(result.status == 0)
            #expect(result.stdout.contains("PASS retry-and-crash (Fixtures/more/a.json)"))
            let empty = try TemporaryDirectory("cwd")
            let missing = try await Binary.run(["run"], in: empty.url)
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("the default Fixtures is not in the current folder"))
        }

        @Test("run: a malformed fixture is named with its JSON path, exit 2, and the others still run")
        func runMalformed() async throws {
            let folder = try SampleFixtures.folder()
            let broken = folder.file("c-broken.json")
            try fixtureJSON(
                histories: #"[{"name": "h", "launches": ["1.0"]}, {"name": "i", "launches": ["1.0", "2.O"]}]"#
            )
            .write(to: broken, atomically: true, encoding: .utf8)
            let result = try await Binary.run(["run", folder.url.path])
            #expect(result.status == 2)
            #expect(
                result.stderr
                    == "error: \(broken.path): histories[1].launches[1]: \"2.O\": unexpected character \"O\" at offset 2;"
                    + " only ASCII digits 0-9 and \".\" may appear\n")
            #expect(result.stdout.hasSuffix("4 passed, 1 failed\n"))

            let syntax = folder.file("d-syntax.json")
            try "{\"name\": \"x\", \"steps\": [\n  {\"version\": \"1.0\",}\n]}".write(
                to: syntax, atomically: true, encoding: .utf8)
            let second = try await Binary.run(["run", syntax.path])
            #expect(second.status == 2)
            #expect(
                second.stderr == "error: \(syntax.path):2:21: steps[0]: invalid JSON: trailing comma before \"}\"\n")
        }

        @Test("run --format json|junit|markdown --output FILE writes the report; standard output keeps the text")
        func formats() async throws {
            let folder = try SampleFixtures.folder()
            let out = try TemporaryDirectory("reports")

            let json = try await Binary.run([
                "run", folder.url.path, "--format", "json", "--output", out.file("r.json").path,
            ])
            #expect(json.status == 1)
            #expect(json.stdout.hasSuffix("4 passed, 1 failed\n"))
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: out.file("r.json"))) as? [String: Any])
            #expect(object["passed"] as? Int == 4)
            #expect(object["failed"] as? Int == 1)

            let junit = try await Binary.run([
                "run", folder.url.path, "--format=junit", "--output", out.file("r.xml").path,
            ])
            #expect(junit.status == 1)
            let document = try XMLDocument(contentsOf: out.file("r.xml"))
            #expect(document.rootElement()?.elements(forName: "testsuite").count == 2)
            #expect(document.rootElement()?.attribute(forName: "failures")?.stringValue == "1")

            let markdown = try await Binary.run(["run", folder.url.path, "--format", "markdown"])
            #expect(markdown.status == 1)
            #expect(markdown.stdout.hasPrefix("### upgrade-sim: 4 passed, 1 failed\n"))
            #expect(markdown.stdout.contains("#### Mismatches"))

            let junitOnStdout = try await Binary.run(["run", folder.file("a-passing.json").path, "--format", "junit"])
            #expect(junitOnStdout.status == 0)
            #expect(try XMLDocument(data: Data(junitOnStdout.stdout.utf8)).rootElement()?.name == "testsuites")
        }

        @Test(
            "mistakes in arguments exit 2 with a message on standard error",
            arguments: [
                (["run", "--bogus"], "error: unknown option \"--bogus\""),
                (["run", "--format"], "error: --format needs a value (--format FORMAT)"),
                (["run", "--format", "yaml"], "error: invalid value \"yaml\" for --format"),
                (["launch", "--fixture", "f.json", "--store", "s.json"], "error: missing --version V"),
                (
                    ["launch", "--fixture", "f.json", "--store", "s.json", "--version", "1.0.0.0"],
                    "error: invalid --version: \"1.0.0.0\""
                ),
                (
                    ["plan", "--fixture", "f.json", "--store", "s.json", "--version", "1.0", "extra"],
                    "error: unexpected argument \"extra\""
                ),
                (["explode"], "error: unknown command \"explode\""),
                ([], "USAGE: upgrade-sim <command> [options]"),
            ])
        func usageErrors(arguments: [String], message: String) async throws {
            let result = try await Binary.run(arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }

        @Test(
            "--help on every command, exit 0",
            arguments: [["--help"], ["run", "--help"], ["launch", "-h"], ["plan", "--help"], ["explore", "--help"]])
        func help(arguments: [String]) async throws {
            let result = try await Binary.run(arguments)
            #expect(result.status == 0)
            #expect(result.stdout.contains("USAGE: upgrade-sim"))
        }

        @Test("launch prints one JSON object, keeps a journal, and a scripted crash really kills the process")
        func launchAndCrash() async throws {
            let folder = try TemporaryDirectory("launch")
            let fixture = folder.file("f.json")
            try fixtureJSON(
                policy: #"{"freshInstall": "runAll"}"#,
                steps:
                    #"[{"version": "1.0", "id": "first"}, {"version": "1.1", "id": "boom", "behavior": {"crashTimes": 1}}]"#
            ).write(to: fixture, atomically: true, encoding: .utf8)
            let state = folder.file("state.json")
            let journal = folder.file("journal.txt")
            func launch(_ version: String) async throws -> Binary.Result {
                try await Binary.run([
                    "launch", "--fixture", fixture.path, "--store", state.path, "--version", version, "--journal",
                    journal.path,
                ])
            }

            let first = try await launch("1.0")
            #expect(first.status == 0, "\(first.stderr)")
            #expect(
                first.stdout == #"{"outcome": "upgraded", "ran": ["first"], "abandoned": [], "upgradedThrough": "1.0"}"#
                    + "\n")

            let crashed = try await launch("1.1")
            #expect(crashed.killedBySignal == SIGKILL)
            #expect(crashed.stdout.isEmpty)
            // Read as the store reads it: a launch's writes are journal records until its last.
            let stored = try #require(try FileUpgradeStore(url: state).load())
            #expect(stored.inProgress?.id == "boom")
            #expect(stored.inProgress?.attempt == 1)
            #expect(stored.upgradedThrough?.description == "1.0")

            let resumed = try await launch("1.1")
            #expect(resumed.status == 0)
            #expect(
                resumed.stdout
                    == #"{"outcome": "upgraded", "ran": ["boom"], "abandoned": [], "upgradedThrough": "1.1"}"#
                    + "\n")
            #expect(try String(contentsOf: journal, encoding: .utf8) == "first 1\nboom 2\n")
        }

        @Test("launch reports an unreadable state file, exit 2")
        func launchCorruptState() async throws {
            let folder = try TemporaryDirectory("launch")
            let fixture = folder.file("f.json")
            try fixtureJSON().write(to: fixture, atomically: true, encoding: .utf8)
            try "not json".write(to: folder.file("state.json"), atomically: true, encoding: .utf8)
            let result = try await Binary.run([
                "launch", "--fixture", fixture.path, "--store", folder.file("state.json").path, "--version", "1.0",
            ])
            #expect(result.status == 2)
            #expect(result.stderr.contains(folder.file("state.json").path))
            #expect(try String(contentsOf: folder.file("state.json"), encoding: .utf8) == "not json")
        }

        @Test("plan says what would run and why not, and never writes")
        func plan() async throws {
            let folder = try TemporaryDirectory("plan")
            let fixture = folder.file("f.json")
            try fixtureJSON(
                policy: #"{"freshInstall": {"upgradeFrom": "1.0"}}"#,
                steps:
                    #"[{"version": "1.0"}, {"version": "1.1", "id": "crashy", "behavior": "crash"}, {"version": "3.0"}]"#
            ).write(to: fixture, atomically: true, encoding: .utf8)
            let state = folder.file("state.json")
            let arguments = ["plan", "--fixture", fixture.path, "--store", state.path, "--version", "2.0"]

            let fresh = try await Binary.run(arguments)
            #expect(fresh.status == 0, "\(fresh.stderr)")
            #expect(
                fresh.stdout == """
                    launch at 2.0: upgraded (upgraded through 1.0, fresh install)
                      appUpgradeTo_1_0 (1.0): done: at or below the upgraded-through mark
                      crashy (1.1): will run, attempt 1
                      appUpgradeTo_3_0 (3.0): waits: above the running version

                    Last launches recorded (none):

                    """)
            #expect(!FileManager.default.fileExists(atPath: state.path))

            let crashed = try await Binary.run([
                "launch", "--fixture", fixture.path, "--store", state.path, "--version", "2.0",
            ])
            #expect(crashed.killedBySignal == SIGKILL)
            // The state's files (the journals, as the crashed launch left them; no document yet).
            let files = {
                try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
                    $0.hasPrefix("state.json")
                }
                .sorted().map { ($0, try Data(contentsOf: folder.file($0))) }
            }
            let before = try files()
            #expect(before.contains { $0.0 == "state.json.journal-0" })
            let after = try await Binary.run(arguments)
            #expect(after.stdout.contains("crashy (1.1): will run, attempt 2 (the previous attempt was interrupted)"))
            #expect(try files().elementsEqual(before) { $0.0 == $1.0 && $0.1 == $1.1 })

            // The launches that wrote the state, from the history beside it.
            let other = folder.file("other.json")
            let launched = try await Binary.run([
                "launch", "--fixture", fixture.path, "--store", other.path, "--version", "1.0",
            ])
            #expect(launched.status == 0, "\(launched.stderr)")
            let recorded = try await Binary.run([
                "plan", "--fixture", fixture.path, "--store", other.path, "--version", "1.0",
            ])
            #expect(recorded.stdout.contains("Last launches recorded (newest last):\n  "), "\(recorded.stdout)")
            #expect(recorded.stdout.contains(" (fresh install) -> 1.0 upToDate\n"), "\(recorded.stdout)")
        }

        @Test("a process killed inside a long step leaves it in progress, and no journal line")
        func killedInsideAStep() async throws {
            let folder = try TemporaryDirectory("kill")
            let fixture = folder.file("f.json")
            // The step lasts a day (durationMs, <doc:UpgradeSimulation>, "The fixture format"): it is still running whenever the test kills
            // it, however slowly the machine runs. The test waits for the positive signal that it started,
            // the `ran` line of the trace; ChildProcess's guard only ends a wait for a line that never comes.
            try fixtureJSON(
                policy: #"{"freshInstall": "runAll"}"#,
                steps: #"[{"version": "1.0", "id": "slow", "durationMs": 86400000}]"#
            ).write(to: fixture, atomically: true, encoding: .utf8)
            // The trace goes to the child's standard output, where the test reads it as it comes.
            let child = try ChildProcess(
                Binary.url,
                arguments: [
                    "launch", "--fixture", fixture.path, "--store", folder.file("state.json").path, "--version", "1.0",
                    "--journal", folder.file("journal").path, "--trace", "/dev/stdout",
                ])
            var started = false
            while !started, let line = try await child.nextLine() { started = line.hasPrefix("ran\t") }
            try #require(started, "the launch ended before its step's `ran` line")
            child.send(SIGKILL)
            let exit = try await child.exit()
            #expect(exit.signal == SIGKILL, "\(exit)")
            let stored = try #require(try FileUpgradeStore(url: folder.file("state.json")).load())
            #expect(stored.inProgress?.id == "slow")
            #expect((try? String(contentsOf: folder.file("journal"), encoding: .utf8)) ?? "" == "")
        }

        @Test("run --processes agrees with the in-memory replay, crashes included")
        func processesAgree() async throws {
            let folder = try SampleFixtures.folder()
            try fixtureJSON(
                name: "give up", policy: #"{"freshInstall": "runAll", "giveUpAfter": 2, "downgrade": "rewind"}"#,
                steps: """
                    [{"version": "1.0", "behavior": "fail"}, {"version": "1.1", "behavior": {"script": ["crash", "fail", "ok"]}},
                     {"version": "2.0", "behavior": "crash"}, {"version": "2.0", "id": "after"}]
                    """,
                histories: #"[{"name": "h", "launches": ["1.1", "1.1", "2.0", "2.0", "2.0", "1.0", "2.0", "2.0"]}]"#
            ).write(to: folder.file("c-give-up.json"), atomically: true, encoding: .utf8)

            let memory = try await Binary.run(["run", folder.url.path, "--format", "json"])
            let processes = try await Binary.run(["run", folder.url.path, "--format", "json", "--processes"])
            #expect(memory.status == 1)
            #expect(processes.status == 1, "\(processes.stderr)")
            #expect(processes.stdout == memory.stdout)
            #expect(memory.stdout.contains("\"crashed\""))

            // And in the library, observation by observation, including the steps that finished.
            let loaded = FixtureLoader.load(paths: [folder.url.path])
            for fixture in loaded.fixtures {
                let inMemory = try await fixture.replay()
                let inProcesses = try await fixture.replay(mode: .processes(executable: Binary.url))
                #expect(inProcesses == inMemory)
            }
        }
    }
#endif
