import UpgradeCore
import UpgradeExplorer
import UpgradeStorage
import VersionKit

/// Benchmark 3: deciding which steps a launch runs, with many registered steps.
enum PlanningBenchmarks {
    /// An app with `stepCount` registered steps, `pendingCount` of them above the stored mark.
    struct Fixture {
        let stepCount: Int
        let pendingCount: Int
        /// The versions of the steps, ascending: `1.0.1 ... 1.0.9, 1.1, 1.1.1, ...` (every tenth one
        /// has two components).
        let versions: [Version]
        /// What the naive pattern's `class_copyMethodList` lists: the step names and `updateToVersion`,
        /// in a fixed pseudo-random order. The Objective-C runtime lists a class's methods sorted by
        /// selector address, which has nothing to do with the version in the name; a list already in
        /// version order would flatter the naive sort (a merge sort does about n comparisons on it).
        let methodNames: [String]
        let storedVersion: String
        let state: UpgradeState
        let current: Version
        let upgrader: Upgrader

        init(stepCount: Int, pendingCount: Int) {
            precondition(pendingCount <= stepCount)
            self.stepCount = stepCount
            self.pendingCount = pendingCount
            let versions = (1...stepCount).map { i in
                i % 10 == 0
                    ? Version(major: 1 + i / 100, minor: (i / 10) % 10)
                    : Version(major: 1 + i / 100, minor: (i / 10) % 10, patch: i % 10)
            }
            self.versions = versions
            var generator = SplitMix64(seed: UInt64(stepCount))
            let listed = (versions.map(\.stepName) + ["updateToVersion"]).shuffled(using: &generator)
            methodNames = listed
            // The mark just below the first pending step (1.0 when every step is pending).
            let mark = pendingCount == stepCount ? Version(major: 1, minor: 0) : versions[stepCount - pendingCount - 1]
            current = versions[stepCount - 1]
            storedVersion = mark.description
            state = UpgradeState(upgradedThrough: mark, lastLaunched: current)
            // Registered in the same order as the naive list; the upgrader sorts its catalog once.
            let steps = listed.compactMap(Version.init(stepName:)).map { version in UpgradeStep(version) {} }
            upgrader = Upgrader(store: InMemoryUpgradeStore(state: state)) { steps }
        }

        /// Checks that the contenders agree before any is timed.
        func verify() throws {
            let naive = NaivePattern.upgradeMethods(methodNames, storedVersion: storedVersion)
            let engine = try upgrader.pendingSteps(currentVersion: current).map(\.id)
            let planned = upgrader.plan(loaded: state, currentVersion: current).stepsToRun
            guard naive == engine, engine == planned, engine.count == pendingCount else {
                throw BenchError(
                    "plan fixture \(stepCount)/\(pendingCount): the contenders disagree"
                        + " (naive \(naive.count), pendingSteps \(engine.count), plan \(planned.count) steps)")
            }
        }
    }

    static func fixture(steps: Int, pending: Int) throws -> Fixture {
        let fixture = Fixture(stepCount: steps, pendingCount: pending)
        try fixture.verify()
        return fixture
    }

    static func naive(_ fixture: Fixture) -> Contender {
        Contender(name: "naive: filter + sort over method names", role: .reference) { iterations in
            let names = Sink.opaque(fixture.methodNames)
            for _ in 0..<iterations {
                Sink.consume(NaivePattern.upgradeMethods(names, storedVersion: fixture.storedVersion).count)
            }
        }
    }

    static func pendingSteps(_ fixture: Fixture, role: Contender.Role, label: String = "") -> Contender {
        Contender(name: "Upgrader.pendingSteps(currentVersion:)\(label)", role: role) { iterations in
            let upgrader = Sink.opaque(fixture.upgrader)
            for _ in 0..<iterations {
                Sink.consume(try upgrader.pendingSteps(currentVersion: fixture.current).count)
            }
        }
    }

    static func plan(_ fixture: Fixture) -> Contender {
        Contender(name: "Upgrader.plan(loaded:currentVersion:)", role: .info) { iterations in
            let upgrader = Sink.opaque(fixture.upgrader)
            for _ in 0..<iterations {
                let plan = upgrader.plan(loaded: fixture.state, currentVersion: fixture.current)
                Sink.consume(plan.entries.count)
            }
        }
    }

    /// The step counts: 1,000 and 10,000, or a tenth of them for `--quick`.
    static func all(quick: Bool) -> [Benchmark] {
        let small = quick ? 100 : 1_000
        let large = quick ? 1_000 : 10_000
        let pending = quick ? 100 : 1_000
        var benchmarks: [Benchmark] = []
        for steps in [small, large] {
            for pendingCount in [0, pending] {
                benchmarks.append(
                    Benchmark(
                        name: "plan-\(steps)-steps-\(pendingCount)-pending",
                        summary:
                            "which steps a launch runs: \(Format.count(Double(steps))) registered steps,"
                            + " \(Format.count(Double(pendingCount))) pending",
                        target: steps == small ? .speedupAtLeast(1_000) : nil,
                        makeContenders: {
                            let fixture = try fixture(steps: steps, pending: pendingCount)
                            return [naive(fixture), pendingSteps(fixture, role: .subject), plan(fixture)]
                        }))
            }
        }
        benchmarks.append(
            Benchmark(
                name: "plan-scaling-0-pending",
                summary:
                    "an up-to-date launch's pending query at \(Format.count(Double(large))) steps against"
                    + " \(Format.count(Double(small))) steps: must not grow with the step count",
                target: .ratioAtMost(2),
                makeContenders: {
                    let smaller = try fixture(steps: small, pending: 0)
                    let larger = try fixture(steps: large, pending: 0)
                    return [
                        pendingSteps(smaller, role: .reference, label: " @ \(Format.count(Double(small)))"),
                        pendingSteps(larger, role: .subject, label: " @ \(Format.count(Double(large)))"),
                    ]
                }))
        return benchmarks
    }
}

/// A small seeded generator (SplitMix64), so that every run shuffles alike.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A setup fault of the tool itself (not a missed target).
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
