import Foundation

/// Runs every job of the benchmarks on the thread that calls ``run()`` (a thread of the tool's own,
/// while the main thread services the main queue): the whole tool, the engine's async code included,
/// runs on one thread, as an app's launch would on one core.
///
/// One thread also keeps thread hops out of the figures and lets valgrind profile the tool (valgrind
/// 3.19 crashes on Swift's cooperative thread pool).
///
/// Task executors are new in macOS 15 and iOS 18; before, the tool runs on Swift's cooperative thread
/// pool (see `UpgradeBench.main()`).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class SingleThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come, for ever (the tool exits when it is done).
    func run() -> Never {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }
}
