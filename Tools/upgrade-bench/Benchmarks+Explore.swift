import UpgradeCore
import UpgradeExplorer
import UpgradeFixtures
import VersionKit

/// Benchmark 6: `upgrade-sim explore` through the real engine, in launches per second on one thread.
enum ExploreBenchmarks {
    /// Twenty steps over eight versions, the way an app accumulates them: mostly steps that succeed,
    /// some that fail or crash a few times before they succeed, one that keeps failing, several
    /// steps to a version. Explored over its 8 versions and one below and above them (10 in all).
    static let fixture = Fixture(
        name: "bench-20-steps",
        summary: "20 steps over 8 versions, for upgrade-bench",
        policy: UpgradePolicy(freshInstall: .runAll, downgrade: .keep, giveUpAfter: 3),
        steps: [
            ScriptedStep(version: "1.1"),
            ScriptedStep(version: "1.1", id: "clear-image-cache"),
            ScriptedStep(version: "1.2"),
            ScriptedStep(version: "1.2", id: "reindex", behavior: .crashTimes(1)),
            ScriptedStep(version: "1.2", id: "move-settings"),
            ScriptedStep(version: "1.3"),
            ScriptedStep(version: "1.3", id: "migrate-prefs", behavior: .failTimes(2)),
            ScriptedStep(version: "2.0"),
            ScriptedStep(version: "2.0", id: "rebuild-thumbnails"),
            ScriptedStep(version: "2.0", id: "drop-legacy-tables"),
            ScriptedStep(version: "2.0.1", id: "broken-cleanup", behavior: .fail),
            ScriptedStep(version: "2.0.1"),
            ScriptedStep(version: "2.1"),
            ScriptedStep(version: "2.1", id: "compact-store", behavior: .script([.ok])),
            ScriptedStep(version: "2.1", id: "rekey-keychain", behavior: .script([.fail, .ok])),
            ScriptedStep(version: "3.0"),
            ScriptedStep(version: "3.0", id: "split-database"),
            ScriptedStep(version: "3.0", id: "resync-contacts", behavior: .failTimes(1)),
            ScriptedStep(version: "3.1"),
            ScriptedStep(version: "3.1", id: "purge-analytics"),
        ])

    /// The launches of one exploration: 10 versions, every history of 1 to `depth` launches.
    static func launchesAtDepth(_ depth: Int) -> Int {
        Explorer(fixture: fixture, options: options(depth: depth)).plannedLaunches
    }

    /// Plain launches only, so that every history is one launch a version and the count is known
    /// in advance (the device's conditions add moves of their own).
    static func options(depth: Int, engine: ExplorationOptions.Engine = .standard) -> ExplorationOptions {
        var options = ExplorationOptions(depth: depth, engine: engine)
        options.deviceConditions = false
        return options
    }

    static func all(quick: Bool) -> [Benchmark] {
        let depth = quick ? 3 : 5
        return [
            Benchmark(
                name: "explore-20-steps",
                summary:
                    "upgrade-sim explore of a 20-step fixture to depth \(depth) through the real engine"
                    + " (\(Format.count(Double(launchesAtDepth(depth)))) plain launches a run, and the locked and expiring ones), launches per second on one thread"
                    + " (reported: the rate measures the machine)",
                target: nil,
                makeContenders: {
                    let standard = Explorer(fixture: fixture, options: options(depth: depth))
                    let naive = Explorer(fixture: fixture, options: options(depth: depth, engine: .naive))
                    let probe = try await standard.run()
                    guard probe.passed, probe.launches >= standard.plannedLaunches else {
                        throw BenchError(
                            "the explore fixture broke a guarantee or launched \(probe.launches) times, fewer"
                                + " than its \(standard.plannedLaunches) plain launches")
                    }
                    let launches = probe.launches
                    return [
                        Contender(
                            name: "Explorer.run, standard engine", role: .subject,
                            operationsPerIteration: launches
                        ) { iterations in
                            for _ in 0..<iterations { Sink.consume(try await standard.run().launches) }
                        },
                        Contender(
                            name: "Explorer.run, naive engine (for comparison)", role: .info,
                            operationsPerIteration: launches
                        ) { iterations in
                            for _ in 0..<iterations { Sink.consume(try await naive.run().launches) }
                        },
                    ]
                })
        ]
    }
}
