/// Runs one contender on its own, for a profiler (`--profile`).
enum Profiler {
    /// Sets each benchmark up and runs its contenders whose name contains `contender`.
    static func run(_ benchmarks: [Benchmark], contender name: String, iterations: Int) async -> Int32 {
        var matched = 0
        for benchmark in benchmarks {
            do {
                for contender in try await benchmark.makeContenders() where contender.name.contains(name) {
                    matched += 1
                    let start = Harness.clock.now
                    try await measured(contender, iterations: iterations)
                    let perIteration = start.duration(to: Harness.clock.now).nanoseconds / Double(iterations)
                    UpgradeBench.note(
                        "\(benchmark.name) / \(contender.name): \(iterations) iterations,"
                            + " \(Format.time(perIteration)) each")
                }
            } catch {
                UpgradeBench.note("error: \(benchmark.name): \(error)")
                return 1
            }
        }
        if matched == 0 {
            UpgradeBench.note("error: no contender of the selected benchmarks has \"\(name)\" in its name")
            return 2
        }
        return 0
    }

    /// The measured part, and nothing else: the function callgrind's `--toggle-collect` names.
    @inline(never)
    static func measured(_ contender: Contender, iterations: Int) async throws {
        _ = try await contender.run(iterations)
    }

    /// Marks where a child's timed operation starts, for callgrind's `--dump-after` (CONTRIBUTING).
    @inline(never)
    static func timedStart() { Sink.consume(0) }

    /// Marks where a child's timed operation ends, for callgrind's `--dump-before`.
    @inline(never)
    static func timedEnd() { Sink.consume(1) }
}
