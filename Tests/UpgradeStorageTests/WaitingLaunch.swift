import UpgradeStorage

/// A launch started in a task of its own that waits for a store's lock: ``start(_:)`` returns once
/// the launch has found the lock held and waits for it (the store says so through `LockWaiting`),
/// so that a test lets the holder go, or cancels the wait, only then, however fast the machine runs.
struct WaitingLaunch<Value: Sendable> {
    /// The launch's task.
    let task: Task<Value, any Error>
    /// Whether the launch found the lock held and waited; `false` when it ended without waiting.
    let waited: Bool

    /// Starts `launch` in a task of its own and returns when it waits for the lock, or has ended.
    ///
    /// - Parameter launch: Takes the store's lock, as `lockForLaunch()` does.
    /// - Returns: The launch, with whether it waited.
    static func start(_ launch: @escaping @Sendable () async throws -> Value) async -> WaitingLaunch {
        let (signals, signal) = AsyncStream<Void>.makeStream()
        let task = LockWaiting.$observer.withValue({ signal.yield() }) {
            Task {
                defer { signal.finish() }
                return try await launch()
            }
        }
        var iterator = signals.makeAsyncIterator()
        let waited = await iterator.next() != nil
        return WaitingLaunch(task: task, waited: waited)
    }
}
