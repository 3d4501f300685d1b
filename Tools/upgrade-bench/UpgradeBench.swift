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
        (interquartile range / median), and the ratio against the contender its row compares with
        (the median of the same-round ratios), then each further figure between two contenders, and
        whether each figure with a target meets it.

        The tool runs on one thread of its own; its main thread runs the main run loop, which services
        the main queue, so that a benchmark can await from the main actor on the main thread. A
        contender times itself where it must leave its setup out or measure in another context (the
        main actor, a detached task, a child process: launch-first-in-process starts the tool again
        for each of its rounds).

        Build with optimizations: swift run -c release upgrade-bench

        USAGE: upgrade-bench [--quick] [--json] [--filter NAME]... [--list]
               upgrade-bench --filter NAME --profile CONTENDER [--iterations N]

        OPTIONS:
          --quick          A short run (a few seconds in all, smaller inputs, 5 short rounds) that only
                           checks the tool still works; its figures are not meant to be read.
          --json           Print one JSON object with the figures instead of the table.
          --filter NAME    Run only the benchmarks whose name contains NAME (repeatable).
          --list           List the benchmarks and exit.
          --profile TEXT   Set the selected benchmarks up, then run only the contenders whose name
                           contains TEXT, N times (--iterations, 1000 by default), inside
                           Profiler.measured, and report nothing but the time. For counting
                           instructions of one contender without the setup:
                             valgrind --tool=callgrind --collect-atstart=no \\
                               --toggle-collect='*Profiler*measured*' .build/release/upgrade-bench \\
                               --filter launch-up-to-date --profile load --iterations 200
          -h, --help       Show this help.

        ENVIRONMENT:
          UPGRADE_BENCH_KEEP=1         Keep the temporary folders of the file benchmarks.
          UPGRADE_BENCH_EXECUTOR=pool  Run on Swift's thread pool, as on systems before macOS 15,
                                       instead of on one thread of its own.

        Exit status: 0 after a run (missed targets are reported, not failed), 2 for bad arguments.
        """

    nonisolated static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let pool = ProcessInfo.processInfo.environment["UPGRADE_BENCH_EXECUTOR"] == "pool"
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), !pool {
            // The tool runs on a thread of its own, and the main thread runs the main run loop, which
            // services the main queue (the main actor's executor), so that a benchmark can await from
            // the main actor on the main thread as an app does.
            let executor = SingleThreadExecutor()
            Task(executorPreference: executor) {
                finish(await run(arguments))
            }
            let thread = Thread { executor.run() }
            thread.name = "upgrade-bench"
            thread.stackSize = 8 << 20
            thread.start()
        } else {
            // No task executors before macOS 15: the tool runs on Swift's cooperative thread pool
            // instead, and its figures then include thread hops (UPGRADE_BENCH_EXECUTOR=pool takes
            // this path anywhere, to check it).
            Task {
                finish(await run(arguments))
            }
        }
        // Not dispatchMain(): on Linux it ends the main thread, and a worker thread drains the main
        // queue instead.
        RunLoop.main.run()
        dispatchMain()  // only if the run loop ever returned
    }

    /// Removes the temporary folders (unless `UPGRADE_BENCH_KEEP` is set), and exits with `status`.
    nonisolated static func finish(_ status: Int32) -> Never {
        if ProcessInfo.processInfo.environment["UPGRADE_BENCH_KEEP"] == nil { TemporaryFolders.removeAll() }
        exit(status)
    }

    /// Runs the tool and returns its exit status.
    nonisolated static func run(_ commandLine: [String]) async -> Int32 {
        // Not in the usage: the child process of launch-first-in-process.
        if commandLine.first == "--child" { return await FirstLaunchBenchmarks.child(Array(commandLine.dropFirst())) }
        var quick = false
        var json = false
        var list = false
        var filters: [String] = []
        var profiled: String?
        var iterations = 1000
        var arguments = commandLine[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--json": json = true
            case "--list": list = true
            case "-h", "--help":
                print(usage)
                return 0
            case "--profile":
                guard let name = arguments.popFirst() else { fail("--profile needs a contender name") }
                profiled = name
            case "--iterations":
                guard let text = arguments.popFirst(), let count = Int(text), count > 0 else {
                    fail("--iterations needs a positive count")
                }
                iterations = count
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
        let catalog =
            ParsingBenchmarks.all + PlanningBenchmarks.all(quick: quick) + FileStoreBenchmarks.all
            + MainActorBenchmarks.all + FirstLaunchBenchmarks.all + PendingBenchmarks.all(quick: quick)
            + ExploreBenchmarks.all(quick: quick)
            + FixpointBenchmarks.all(quick: quick)
            + ScaleBenchmarks.all(quick: quick)
        if list {
            for benchmark in catalog { print("\(benchmark.name): \(benchmark.summary)") }
            return 0
        }
        let selected = catalog.filter { benchmark in filters.isEmpty || filters.contains { benchmark.name.contains($0) }
        }
        if selected.isEmpty {
            fail("no benchmark matches \(filters.map { "\"\($0)\"" }.joined(separator: ", ")); see --list")
        }
        #if DEBUG
            note("warning: this is a debug build; measure with swift run -c release upgrade-bench")
        #endif
        if let profiled {
            return await Profiler.run(selected, contender: profiled, iterations: iterations)
        }
        var results: [BenchmarkResult] = []
        for benchmark in selected {
            note("running \(benchmark.name) ...")
            do {
                results.append(try await Harness.run(benchmark, plan: quick ? .quick : .full))
            } catch {
                note("error: \(benchmark.name): \(error)")
                return 1
            }
        }
        if json {
            do {
                print(try Report.json(results, quick: quick))
            } catch {
                note("error: cannot encode the results: \(error)")
                return 1
            }
        } else {
            print(Report.table(results, quick: quick))
        }
        return 0
    }

    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func fail(_ text: String) -> Never {
        note("error: \(text)\n\n\(usage)")
        exit(2)
    }
}
