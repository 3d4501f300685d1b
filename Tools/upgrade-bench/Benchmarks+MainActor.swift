import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

/// The up-to-date launch as an app awaits it: from the main actor (a SwiftUI `.task`,
/// `application(_:didFinishLaunching:)`), against the same launch from a detached task and the read.
///
/// The main actor is the real one: the tool's main thread runs the main run loop, which services the
/// main queue as an app's does, and the tool itself runs on a thread of its own (see
/// `UpgradeBench.main()`), so a batch awaited from `@MainActor` runs on the main thread (checked
/// before anything is timed).
enum MainActorBenchmarks {
    static var all: [Benchmark] {
        [
            Benchmark(
                name: "launch-up-to-date-main-actor",
                summary:
                    "the up-to-date launch awaited from @MainActor (the main thread, running the main run loop as"
                    + " an app does) against the same launch awaited from a detached"
                    + " task (Swift's thread pool) and against reading the file; each batch timed in its context",
                checks: [
                    Check(subject: 2, reference: 1, target: .ratioAtMost(2)),
                    Check(subject: 2, reference: 0, target: .ratioAtMost(8)),
                ],
                makeContenders: {
                    let app = try await FileStoreBenchmarks.App(name: "main-actor", spareLaunches: 0)
                    let current = app.current
                    try await checkStaysOnMainActor(app)
                    let reader = FileStoreBenchmarks.PlainReader(path: app.documentPath)
                    let size = try reader.readOnce()
                    return [
                        Contender(name: "floor: open + read + close (\(size) bytes)", role: .reference) { iterations in
                            for _ in 0..<iterations { Sink.consume(try reader.readOnce()) }
                        },
                        Contender.timed(name: "Upgrader.run from a detached task", role: .info, versus: 0) {
                            iterations in
                            try await Task.detached {
                                let start = Harness.clock.now
                                for _ in 0..<iterations {
                                    Sink.consume(try await app.upgrader.run(currentVersion: current).steps.count)
                                }
                                return start.duration(to: Harness.clock.now)
                            }.value
                        },
                        Contender.timed(name: "Upgrader.run from @MainActor", role: .subject, versus: 1) {
                            iterations in
                            try await launchesOnMainActor(app, current, iterations: iterations)
                        },
                    ]
                })
        ]
    }

    /// Awaits the up-to-date launch `iterations` times from the main actor, and returns the time they
    /// took there.
    @MainActor
    static func launchesOnMainActor(
        _ app: FileStoreBenchmarks.App, _ current: Version, iterations: Int
    ) async throws -> Duration {
        let start = Harness.clock.now
        for _ in 0..<iterations {
            Sink.consume(try await app.upgrader.run(currentVersion: current).steps.count)
        }
        return start.duration(to: Harness.clock.now)
    }

    /// Checks, before anything is timed, that the benchmark measures what it says: the batch runs on
    /// the main thread, and the up-to-date launch finishes there, with no hop off the main actor.
    static func checkStaysOnMainActor(_ app: FileStoreBenchmarks.App) async throws {
        let finishedOnMainThread = Recorded<Bool?>(nil)
        var probe = app.upgrader
        probe.observer = { event in
            if case .launchFinished = event { finishedOnMainThread.set(Thread.isMainThread) }
        }
        let (onMainThread, outcome) = try await launchOnMainActor(probe, app.current)
        guard onMainThread, outcome == .upToDate, finishedOnMainThread.value == true else {
            throw BenchError(
                "the main-actor launch did not stay on the main thread (batch on it: \(onMainThread), outcome"
                    + " \(outcome), launch finished on it: \(String(describing: finishedOnMainThread.value)))")
        }
    }

    @MainActor
    private static func launchOnMainActor(
        _ upgrader: Upgrader, _ current: Version
    ) async throws -> (onMainThread: Bool, outcome: UpgradeOutcome) {
        let report = try await upgrader.run(currentVersion: current)
        return (Thread.isMainThread, report.outcome)
    }
}

/// A value set from one context and read from another, under a lock.
final class Recorded<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func set(_ value: Value) { lock.withLock { stored = value } }
}
