import Foundation

/// `upgrade-bench`: AppUpgrade side by side with the naive pattern and with the physical floor.
@main
enum UpgradeBench {
    static let usage = """
        OVERVIEW: Measure AppUpgrade against the naive appUpgradeTo_X_Y_Z pattern and the physical floor.

        Each benchmark runs its contenders interleaved in one process: a warm-up that also calibrates
        the batch size, then rounds in which every contender runs one batch (the order alternates
        each round), at least 7 rounds and more until the spread is small or the time budget is
        spent. It reports per contender the median time per operation over rounds, the spread
        (interquartile range / median), and the ratio against the benchmark's reference (the median
        of the same-round ratios), and whether the subject meets its target.

        Build with optimizations: swift run -c release upgrade-bench

        USAGE: upgrade-bench [--quick] [--json] [--filter NAME]... [--list]

        OPTIONS:
          --quick          A short run (a few seconds in all, smaller inputs, 5 short rounds) that only
                           checks the tool still works; its figures are not meant to be read.
          --json           Print one JSON object with the figures instead of the table.
          --filter NAME    Run only the benchmarks whose name contains NAME (repeatable).
          --list           List the benchmarks and exit.
          -h, --help       Show this help.

        Exit status: 0 after a run (missed targets are reported, not failed), 2 for bad arguments.
        """

    static func main() async {
        var quick = false
        var json = false
        var list = false
        var filters: [String] = []
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--json": json = true
            case "--list": list = true
            case "-h", "--help":
                print(usage)
                return
            case "--filter":
                guard let name = arguments.popFirst() else { fail("--filter needs a benchmark name") }
                filters.append(name)
            default:
                if argument.hasPrefix("--filter=") {
                    filters.append(String(argument.dropFirst("--filter=".count)))
                } else {
                    fail("unknown argument \"\(argument)\"")
                }
            }
        }
        let catalog = ParsingBenchmarks.all + PlanningBenchmarks.all(quick: quick)
        if list {
            for benchmark in catalog { print("\(benchmark.name): \(benchmark.summary)") }
            return
        }
        let selected = catalog.filter { benchmark in filters.isEmpty || filters.contains { benchmark.name.contains($0) }
        }
        if selected.isEmpty {
            fail("no benchmark matches \(filters.map { "\"\($0)\"" }.joined(separator: ", ")); see --list")
        }
        #if DEBUG
            note("warning: this is a debug build; measure with swift run -c release upgrade-bench")
        #endif
        var results: [BenchmarkResult] = []
        for benchmark in selected {
            note("running \(benchmark.name) ...")
            do {
                results.append(try await Harness.run(benchmark, plan: quick ? .quick : .full))
            } catch {
                note("error: \(benchmark.name): \(error)")
                exit(1)
            }
        }
        if json {
            do {
                print(try Report.json(results, quick: quick))
            } catch {
                note("error: cannot encode the results: \(error)")
                exit(1)
            }
        } else {
            print(Report.table(results, quick: quick))
        }
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func fail(_ text: String) -> Never {
        note("error: \(text)\n\n\(usage)")
        exit(2)
    }
}
