import Foundation
import UpgradeExplorer
import UpgradeFixtures

/// Benchmark 8: `upgrade-sim explore` to a fixpoint at the scale of a long-lived app's history:
/// the fixtures of Scripts/make-scale-fixtures.py (N steps over N versions, about 5% failing once
/// and 3% crashing once, runAll, giveUpAfter 2), with the reduced state key on every core against
/// the full key on one.
enum ScaleBenchmarks {
    /// A scale fixture: `Benchmarks/ScaleFixtures` beside this package's `Tools` folder, or in the
    /// working folder.
    static func scaleFixture(steps: Int) throws -> Fixture {
        let name = "Benchmarks/ScaleFixtures/scale-\(steps)-steps.json"
        let beside = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(name).path
        let path = FileManager.default.fileExists(atPath: beside) ? beside : name
        do {
            return try FixtureLoader.load(file: path)
        } catch {
            throw BenchError("cannot read \(path) (python3 Scripts/make-scale-fixtures.py writes it): \(error)")
        }
    }

    /// Explores a fixture to a fixpoint under its own policy, or under all 18.
    static func explore(_ fixture: Fixture, allPolicies: Bool = false, full: Bool = false) async throws
        -> ExplorationResult
    {
        var options = ExplorationOptions(allPolicies: allPolicies)
        options.fullStateKey = full
        if full { options.cores = 1 }
        return try await Explorer(fixture: fixture, options: options).run()
    }

    /// The time of one run of the full search, measured once: at 150 steps it takes minutes, so
    /// every round reuses the one measurement instead of running it again.
    actor Once {
        private var measured: Duration?

        func time(_ body: @Sendable () async throws -> Void) async throws -> Duration {
            if let measured { return measured }
            let start = ContinuousClock.now
            try await body()
            let time = start.duration(to: .now)
            measured = time
            return time
        }
    }

    static func all(quick: Bool) -> [Benchmark] {
        // The quick run only checks that the benchmarks work: 20 steps.
        let steps = quick ? 20 : 150
        let widest = quick ? 20 : 60
        return [
            Benchmark(
                name: "explore-scale",
                summary:
                    "upgrade-sim explore to a fixpoint of \(steps) steps over \(steps) versions (one policy): the"
                    + " reduced state key on every core against the full key on one (measured once)",
                target: .speedupAtLeast(10),
                makeContenders: {
                    let fixture = try scaleFixture(steps: steps)
                    let wide = try scaleFixture(steps: widest)
                    let probe = try await explore(fixture)
                    guard probe.passed else { throw BenchError("\(fixture.name) broke a guarantee") }
                    let states = probe.stateSpace?.states ?? 0
                    let once = Once()
                    return [
                        .timed(name: "full key, one core (one run)", role: .reference) { iterations in
                            let time = try await once.time {
                                Sink.consume(try await explore(fixture, full: true).launches)
                            }
                            return time * iterations
                        },
                        Contender(name: "reduced key (\(Format.count(Double(states))) states)", role: .subject) {
                            iterations in
                            for _ in 0..<iterations { Sink.consume(try await explore(fixture).launches) }
                        },
                        Contender(name: "reduced key, \(widest) steps, all 18 policies", role: .info) { iterations in
                            for _ in 0..<iterations {
                                Sink.consume(try await explore(wide, allPolicies: true).launches)
                            }
                        },
                    ]
                }),
            Benchmark(
                name: "explore-scale-states",
                summary:
                    "upgrade-sim explore to a fixpoint of \(steps) steps over \(steps) versions (one policy), states"
                    + " per second with the reduced key on every core (each state launched at every version)",
                target: nil,
                makeContenders: {
                    let fixture = try scaleFixture(steps: steps)
                    let probe = try await explore(fixture)
                    let space = probe.stateSpace ?? StateSpace(states: 0, transitions: 0, longestShortestPath: 0)
                    return [
                        Contender(
                            name: "reduced key, states (\(Format.count(Double(space.transitions))) transitions)",
                            role: .subject, operationsPerIteration: space.states
                        ) { iterations in
                            for _ in 0..<iterations { Sink.consume(try await explore(fixture).launches) }
                        }
                    ]
                }),
        ]
    }
}
