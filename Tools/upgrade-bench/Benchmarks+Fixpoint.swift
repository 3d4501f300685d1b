import Foundation
import UpgradeExplorer
import UpgradeFixtures

/// Benchmark 7: `upgrade-sim explore` to a fixpoint (every history of any length) against the
/// bounded search, over the shipped fixtures under every policy combination, in one run.
enum FixpointBenchmarks {
    /// The shipped fixtures: `Fixtures` beside this package's `Tools` folder, or in the working folder.
    static func shippedFixtures() throws -> [Fixture] {
        let beside = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures").path
        let folder = FileManager.default.fileExists(atPath: beside) ? beside : "Fixtures"
        let loaded = FixtureLoader.load(paths: [folder])
        if let error = loaded.errors.first { throw BenchError("cannot read the shipped fixtures: \(error)") }
        return loaded.fixtures
    }

    /// Explores every fixture with the options and returns the results.
    static func explore(_ fixtures: [Fixture], _ options: ExplorationOptions) async throws -> [ExplorationResult] {
        var results: [ExplorationResult] = []
        for fixture in fixtures { results.append(try await Explorer(fixture: fixture, options: options).run()) }
        return results
    }

    static func all(quick: Bool) -> [Benchmark] {
        // The quick run only checks that the benchmark works: a few fixtures, and depth 3.
        let depth = quick ? 3 : 5
        // Plain launches only: the two drivers compared on the same moves (the device's conditions
        // multiply the histories of the bounded walk, not the states of the fixpoint).
        func plain(depth: Int?) -> ExplorationOptions {
            var options = ExplorationOptions(depth: depth, allPolicies: true, allow: [.late, .lost])
            options.deviceConditions = false
            return options
        }
        let fixpoint = plain(depth: nil)
        let bounded = plain(depth: depth)
        let shortest = plain(depth: depth - 1)
        let select: @Sendable ([Fixture]) -> [Fixture] = { quick ? Array($0.prefix(5)) : $0 }
        return [
            Benchmark(
                name: "explore-fixpoint",
                summary:
                    "upgrade-sim explore of the shipped fixtures under all 18 policy combinations: to a fixpoint (every"
                    + " history of any length) against every history of 1 to \(depth) launches; one run each",
                target: .ratioAtMost(1),
                makeContenders: {
                    let fixtures = select(try shippedFixtures())
                    let probe = try await explore(fixtures, fixpoint)
                    guard probe.allSatisfy(\.passed) else {
                        throw BenchError("a shipped fixture broke a guarantee when explored to a fixpoint")
                    }
                    let states = probe.reduce(0) { $0 + ($1.stateSpace?.states ?? 0) }
                    let launches = fixtures.reduce(0) {
                        $0 + Explorer(fixture: $1, options: bounded).plannedLaunches
                    }
                    return [
                        Contender(
                            name: "explore --depth \(depth) (\(Format.count(Double(launches))) launches)",
                            role: .reference
                        ) {
                            iterations in
                            for _ in 0..<iterations { Sink.consume(try await explore(fixtures, bounded).count) }
                        },
                        Contender(
                            name: "explore --fixpoint (\(Format.count(Double(states))) states)", role: .subject
                        ) { iterations in
                            for _ in 0..<iterations { Sink.consume(try await explore(fixtures, fixpoint).count) }
                        },
                        Contender(name: "explore --depth \(depth - 1) (for comparison)", role: .info) { iterations in
                            for _ in 0..<iterations { Sink.consume(try await explore(fixtures, shortest).count) }
                        },
                    ]
                }),
            Benchmark(
                name: "explore-fixpoint-states",
                summary:
                    "upgrade-sim explore to a fixpoint of the shipped fixtures under all 18 policy combinations,"
                    + " reachable states per second on one thread (each state launched at every version)",
                target: nil,
                makeContenders: {
                    let fixtures = select(try shippedFixtures())
                    let probe = try await explore(fixtures, fixpoint)
                    let states = probe.reduce(0) { $0 + ($1.stateSpace?.states ?? 0) }
                    let transitions = probe.reduce(0) { $0 + ($1.stateSpace?.transitions ?? 0) }
                    return [
                        Contender(
                            name: "explore --fixpoint, states (\(Format.count(Double(transitions))) transitions)",
                            role: .subject, operationsPerIteration: states
                        ) { iterations in
                            for _ in 0..<iterations { Sink.consume(try await explore(fixtures, fixpoint).count) }
                        }
                    ]
                }),
        ]
    }
}
