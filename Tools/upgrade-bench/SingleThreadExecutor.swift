import Foundation

/// Runs every job of the benchmarks on the thread that calls ``run()`` (the main thread): the whole
/// tool, the engine's async code included, runs on one thread, as an app's launch would on one core.
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
    private var stopped = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come until ``stop()`` is called and none is left.
    func run() {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Makes ``run()`` return once the jobs already queued have run.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }
}
