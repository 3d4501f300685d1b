import Foundation

/// A global actor that runs on a thread of its own, so that a test can tell for certain whether code
/// runs on it: a stand-in for the main actor, whose thread Swift Testing does not promise on Linux.
///
/// A test isolated to it awaits the code under test and asks ``isCurrent`` (or records it from a
/// callback) to learn whether that code ran on the caller's actor or went elsewhere.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@globalActor
public actor CallerActor {
    /// The actor.
    public static let shared = CallerActor()

    /// The executor: the actor's own thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        DedicatedThreadExecutor.caller.asUnownedSerialExecutor()
    }

    /// Whether the calling code runs on the actor's thread.
    public nonisolated static var isCurrent: Bool { DedicatedThreadExecutor.caller.isCurrent }
}

/// A serial executor that runs its jobs, in order, on one dedicated thread (never a thread of the
/// cooperative pool, which the jobs' waiting must not block).
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
final class DedicatedThreadExecutor: SerialExecutor, @unchecked Sendable {
    /// The executor of ``CallerActor``.
    static let caller = DedicatedThreadExecutor(name: "CallerActor")

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var thread: Thread?

    init(name: String) {
        let thread = Thread { [unowned self] in self.run() }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Whether the caller runs on the executor's thread.
    var isCurrent: Bool { condition.withLock { thread } === Thread.current }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedSerialExecutor()) }
        }
    }
}
