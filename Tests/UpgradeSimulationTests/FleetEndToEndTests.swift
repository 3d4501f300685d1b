import Foundation
import StrictJSON
import Testing
import UpgradeTestSupport

@testable import UpgradeSimReports

// Runs the built binary: only where a test can start a process (not on iOS, tvOS, watchOS or visionOS).
#if os(macOS) || os(Linux)
    @Suite("upgrade-sim fleet end to end")
    struct FleetEndToEndTests {
        /// A folder with the hand-worked example's fixture and installed base (FleetSamples).
        struct Sample {
            let folder: TemporaryDirectory
            var fixture: String { folder.file("fixture.json").path }
            var installed: String { folder.file("installed.csv").path }

            init() throws {
                folder = try TemporaryDirectory("fleet")
                try Data(FleetSamples.fixture.utf8).write(to: folder.file("fixture.json"))
                try Data(FleetSamples.installed.utf8).write(to: folder.file("installed.csv"))
            }

            func run(_ extra: [String] = []) async throws -> Binary.Result {
                try await Binary.run(["fleet", fixture, "--installed", installed, "--release", "2.0"] + extra)
            }
        }

        /// The hand-worked example's numbers (see FleetSamples) in the keys of <doc:FleetView>.
        static let expectedJSON = """
            {"release":"2.0","devices":100,"updating":65,"current":35,
             "steps":[{"id":"a","version":"1.1","devices":10,"share":0.1},{"id":"b","version":"1.2","devices":30,"share":0.3},
              {"id":"d","version":"2.0","devices":65,"share":0.65},{"id":"e","version":"2.0","devices":65,"share":0.65}],
             "stepsPerDevice":{"mean":2.62,"p50":2,"p90":4,"max":4},
             "durationMs":{"mean":1047.69,"p50":1000,"p90":1110,"max":1110},
             "floors":[{"version":"1.1","retires":1,"devices":10,"share":0.1},{"version":"1.2","retires":2,"devices":30,"share":0.3},
              {"version":"2.0","retires":4,"devices":65,"share":0.65}],
             "lost":[{"id":"c","version":"1.5","devices":60,"share":0.6}],
             "late":[{"id":"b","version":"1.2","devices":35,"share":0.35}]}
            """

        /// The text form of the hand-worked example.
        static func expectedText(fixture: String, installed: String) -> String {
            """
            Release 2.0 of "fleet-example" (\(fixture)) over the installed base \(installed)

              devices                 count  share
              all                       100   100%
              updating (below 2.0)       65    65%
              current (2.0 or above)     35    35%

            Steps at the first launch of 2.0, in run order (the devices below a step's version run it):
              step  version  devices  share
              a         1.1       10    10%
              b         1.2       30    30%
              d         2.0       65    65%
              e         2.0       65    65%

            Work per updating device (weighted by devices; p90: 90% of them do at most this):
                            mean  median   p90   max
              steps         2.62       2     4     4
              time (ms)  1047.69    1000  1110  1110

            Candidate floors (a floor at F retires the steps at or below F; the devices below F run it instead):
              floor at  retires  devices  share
              1.1             1       10    10%
              1.2             2       30    30%
              2.0             4       65    65%

            Lost (2.0's build no longer has them; the devices below them never run them):
              step  version  devices  share
              c         1.5       60    60%

            Late (added to a build after these devices had passed their version; never run on them):
              step  version  devices  share
              b         1.2       35    35%

            """
        }

        /// The Markdown form of the hand-worked example.
        static func expectedMarkdown(fixture: String, installed: String) -> String {
            """
            ### upgrade-sim fleet: release 2.0 of "fleet-example" (\(Markdown.cell(fixture)))

            Installed base: \(Markdown.cell(installed)).

            | devices | count | share |
            | --- | ---: | ---: |
            | all | 100 | 100% |
            | updating (below 2.0) | 65 | 65% |
            | current (2.0 or above) | 35 | 35% |

            #### Steps at the first launch of 2.0

            | step | version | devices | share |
            | --- | ---: | ---: | ---: |
            | a | 1.1 | 10 | 10% |
            | b | 1.2 | 30 | 30% |
            | d | 2.0 | 65 | 65% |
            | e | 2.0 | 65 | 65% |

            #### Work per updating device

            |  | mean | median | p90 | max |
            | --- | ---: | ---: | ---: | ---: |
            | steps | 2.62 | 2 | 4 | 4 |
            | time (ms) | 1047.69 | 1000 | 1110 | 1110 |

            #### Candidate floors

            | floor at | retires | devices | share |
            | --- | ---: | ---: | ---: |
            | 1.1 | 1 | 10 | 10% |
            | 1.2 | 2 | 30 | 30% |
            | 2.0 | 4 | 65 | 65% |

            #### Lost steps

            | step | version | devices | share |
            | --- | ---: | ---: | ---: |
            | c | 1.5 | 60 | 60% |

            #### Late steps

            | step | version | devices | share |
            | --- | ---: | ---: | ---: |
            | b | 1.2 | 35 | 35% |

            """
        }

        static func compact(_ text: String) throws -> String {
            JSONWriter.compact(try JSONParser.parse(Array(text.utf8)))
        }

        @Test("json: the hand-worked numbers, keys in the order of <doc:FleetView>, exit 0")
        func json() async throws {
            let sample = try Sample()
            let result = try await sample.run(["--format", "json"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            #expect(try Self.compact(result.stdout) == Self.compact(Self.expectedJSON), "\(result.stdout)")
        }

        @Test("text: the hand-worked numbers as tables, exit 0")
        func text() async throws {
            let sample = try Sample()
            let result = try await sample.run()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == Self.expectedText(fixture: sample.fixture, installed: sample.installed))
        }

        @Test("markdown: the same tables for a CI job summary, exit 0")
        func markdown() async throws {
            let sample = try Sample()
            let result = try await sample.run(["--format", "markdown"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == Self.expectedMarkdown(fixture: sample.fixture, installed: sample.installed))
        }

        @Test("--output writes the chosen form to the file and the text to standard output")
        func output() async throws {
            let sample = try Sample()
            let file = sample.folder.file("fleet.json")
            let result = try await sample.run(["--format", "json", "--output", file.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == Self.expectedText(fixture: sample.fixture, installed: sample.installed))
            #expect(try Self.compact(String(contentsOf: file, encoding: .utf8)) == Self.compact(Self.expectedJSON))
            let unwritable = try await sample.run(["--output", sample.folder.file("no/such/folder/x.md").path])
            #expect(unwritable.status == 2)
            #expect(unwritable.stderr.contains("error: cannot write the report to "))
        }

        @Test("--help describes the input, the rules and the choices, exit 0")
        func help() async throws {
            for arguments in [["fleet", "--help"], ["help", "fleet"]] {
                let result = try await Binary.run(arguments)
                #expect(result.status == 0)
                #expect(
                    result.stdout.contains(
                        "USAGE: upgrade-sim fleet FIXTURE --installed FILE --release V [--format FORMAT] [--output FILE]"
                            + " [--fail-on KINDS]"
                    ))
                #expect(result.stdout.contains("The q-th percentile is the smallest value v"))
            }
            let tool = try await Binary.run(["--help"])
            #expect(tool.stdout.contains("\n  fleet "))
        }

        @Test(
            "--fail-on: exit 1 when the report lists a step of a kind named, each kind on standard error; the report as ever",
            arguments: [
                ("lost", ["--fail-on lost: 1 lost step: c (1.5) on 60 devices (60%)"]),
                ("late", ["--fail-on late: 1 late step: b (1.2) on 35 devices (35%)"]),
                (
                    "lost,late",
                    [
                        "--fail-on lost: 1 lost step: c (1.5) on 60 devices (60%)",
                        "--fail-on late: 1 late step: b (1.2) on 35 devices (35%)",
                    ]
                ),
                (
                    "late,lost",
                    [
                        "--fail-on lost: 1 lost step: c (1.5) on 60 devices (60%)",
                        "--fail-on late: 1 late step: b (1.2) on 35 devices (35%)",
                    ]
                ),
            ])
        func failOn(kinds: String, lines: [String]) async throws {
            let sample = try Sample()
            let result = try await sample.run(["--fail-on", kinds])
            #expect(result.status == 1)
            #expect(result.stderr == lines.map { $0 + "\n" }.joined())
            #expect(result.stdout == Self.expectedText(fixture: sample.fixture, installed: sample.installed))
            let file = sample.folder.file("fleet.md")
            let written = try await sample.run(["--fail-on", kinds, "--format", "markdown", "--output", file.path])
            #expect(written.status == 1)
            #expect(
                try String(contentsOf: file, encoding: .utf8)
                    == Self.expectedMarkdown(fixture: sample.fixture, installed: sample.installed))
        }

        @Test("--fail-on: exit 0 when the report lists no step of the kinds named")
        func failOnNothing() async throws {
            let sample = try Sample()
            // 1.9's build still has c (until 1.9) and not yet b (since 2.0): nothing lost or late.
            let clean = try await Binary.run([
                "fleet", sample.fixture, "--installed", sample.installed, "--release", "1.9", "--fail-on", "lost,late",
            ])
            #expect(clean.status == 0, "\(clean.stderr)")
            #expect(clean.stderr.isEmpty)
            // With the floor at 1.5, 2.0 loses neither a (1.1) nor c (1.5).
            let floor = sample.folder.file("floor.json")
            try Data(FleetSamples.floorFixture.utf8).write(to: floor)
            let noLost = try await Binary.run([
                "fleet", floor.path, "--installed", sample.installed, "--release", "2.0", "--fail-on", "lost",
            ])
            #expect(noLost.status == 0, "\(noLost.stderr)")
            #expect(noLost.stderr.isEmpty)
        }

        @Test(
            "bad --fail-on values exit 2 naming the value and the accepted ones",
            arguments: ["early", "lost,", "Lost", "lost;late", ""])
        func badFailOn(value: String) async throws {
            let sample = try Sample()
            let result = try await sample.run(["--fail-on=\(value)"])
            #expect(result.status == 2)
            #expect(
                result.stderr.hasPrefix("error: invalid --fail-on \"\(value)\": expected lost, late, or lost,late\n"),
                "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }

        @Test(
            "bad arguments exit 2 with what is wrong",
            arguments: [
                ([] as [String], "error: missing --installed FILE"),
                (["--installed", "x.csv"], "error: missing --release V"),
                (["--installed", "x.csv", "--release", "2.0"], "error: missing FIXTURE"),
                (
                    ["a.json", "b.json", "--installed", "x.csv", "--release", "2.0"],
                    "error: fleet takes one FIXTURE; got 2"
                ),
                (["a.json", "--installed", "x.csv", "--release", "2.x"], "error: invalid --release: \"2.x\""),
                (
                    ["a.json", "--installed", "x.csv", "--release", "2.0", "--format", "junit"],
                    "error: invalid value \"junit\""
                ),
                (
                    ["a.json", "--installed", "x.csv", "--release", "2.0", "--bogus"],
                    "error: unknown option \"--bogus\""
                ),
                (
                    ["a.json", "--installed", "x.csv", "--installed", "y.csv"],
                    "error: --installed is given more than once"
                ),
            ])
        func badArguments(arguments: [String], message: String) async throws {
            let result = try await Binary.run(["fleet"] + arguments)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
            #expect(result.stderr.contains("Run 'upgrade-sim fleet --help' for usage."))
            #expect(result.stdout.isEmpty)
        }

        @Test("an unusable fixture or installed base exits 2 naming the file and the fault")
        func badInput() async throws {
            let sample = try Sample()
            let missing = try await Binary.run([
                "fleet", sample.folder.file("none.json").path, "--installed", sample.installed, "--release", "2.0",
            ])
            #expect(missing.status == 2)
            #expect(missing.stderr == "error: \(sample.folder.file("none.json").path): no such file\n")
            let broken = sample.folder.file("broken.json")
            try Data(#"{"name": "x", "steps": [{"version": "1.x"}], "histories": []}"#.utf8).write(to: broken)
            let badFixture = try await Binary.run([
                "fleet", broken.path, "--installed", sample.installed, "--release", "2.0",
            ])
            #expect(badFixture.status == 2)
            #expect(badFixture.stderr.hasPrefix("error: \(broken.path): steps[0].version: "), "\(badFixture.stderr)")
            let csv = sample.folder.file("bad.csv")
            try Data("version,devices\n1.0,5\n1.0.0,-1\n".utf8).write(to: csv)
            let badCSV = try await Binary.run(["fleet", sample.fixture, "--installed", csv.path, "--release", "2.0"])
            #expect(badCSV.status == 2)
            #expect(
                badCSV.stderr == "error: \(csv.path):3: version 1.0.0 is listed twice: line 2 has it already as 1.0\n")
            #expect(badCSV.stdout.isEmpty)
        }

        @Test("the shipped example (Examples/Fleet): its report, and its histories replay")
        func shippedExample() async throws {
            let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Examples/Fleet")
            let result = try await Binary.run([
                "fleet", example.appendingPathComponent("notes-3.0.json").path, "--installed",
                example.appendingPathComponent("installed-base.csv").path, "--release", "3.0", "--format", "json",
            ])
            #expect(result.status == 0, "\(result.stderr)")
            // The numbers the README shows and explains.
            let expected = """
                {"release":"3.0","devices":78000,"updating":77500,"current":500,
                 "steps":[{"id":"appUpgradeTo_1_1","version":"1.1","devices":1200,"share":0.015385},
                  {"id":"move-thumbnails","version":"1.2","devices":2000,"share":0.025641},
                  {"id":"rebuild-search-index","version":"1.5","devices":4500,"share":0.057692},
                  {"id":"move-settings","version":"2.0","devices":7500,"share":0.096154},
                  {"id":"appUpgradeTo_2_2","version":"2.2","devices":37500,"share":0.480769},
                  {"id":"appUpgradeTo_3_0","version":"3.0","devices":77500,"share":0.99359}],
                 "stepsPerDevice":{"mean":1.68,"p50":1,"p90":2,"max":6},
                 "durationMs":{"mean":266.75,"p50":60,"p90":140,"max":3130},
                 "floors":[{"version":"1.1","retires":1,"devices":1200,"share":0.015385},
                  {"version":"1.2","retires":2,"devices":2000,"share":0.025641},
                  {"version":"1.5","retires":3,"devices":4500,"share":0.057692},
                  {"version":"2.0","retires":4,"devices":7500,"share":0.096154},
                  {"version":"2.2","retires":5,"devices":37500,"share":0.480769},
                  {"version":"3.0","retires":6,"devices":77500,"share":0.99359}],
                 "lost":[{"id":"reindex","version":"2.0","devices":7500,"share":0.096154}],
                 "late":[{"id":"rebuild-search-index","version":"1.5","devices":18000,"share":0.230769}]}
                """
            #expect(try Self.compact(result.stdout) == Self.compact(expected), "\(result.stdout)")
            let run = try await Binary.run(["run", example.path])
            #expect(run.status == 0, "\(run.stdout) \(run.stderr)")
            #expect(run.stdout.hasSuffix("\n3 passed, 0 failed\n"))
        }
    }
#endif
