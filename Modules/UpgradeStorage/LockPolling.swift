/// Tries to take a lock until it succeeds or a timeout passes, pausing between tries.
///
/// The pauses start at 1 ms and grow to 20 ms, so that a short wait is answered quickly and a long
/// one costs little. Cancelling the task ends the wait with `CancellationError`.
///
/// - Parameters:
///   - timeout: How long to keep trying; `nil` keeps trying as long as it takes.
///   - attempt: Takes the lock without waiting; returns whether it did.
/// - Returns: Whether the lock was taken in time.
func pollForLock(timeout: Duration?, _ attempt: () throws -> Bool) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = timeout.map { clock.now.advanced(by: $0) }
    var pause = Duration.milliseconds(1)
    if try attempt() { return true }
    LockWaiting.observer?()
    while true {
        let now = clock.now
        if let deadline, now >= deadline { return false }
        let sleep = deadline.map { min(pause, now.duration(to: $0)) } ?? pause
        try await Task.sleep(for: sleep)
        pause = min(pause * 2, .milliseconds(20))
        if try attempt() { return true }
    }
}

/// What a test learns of a launch that waits for a lock: the observer is called once, from the
/// waiting task, when the launch has found the lock held and waits for it, so that the test lets
/// the holder go only then, or cancels the wait then, whatever the speed of the machine.
package enum LockWaiting {
    /// Called when a launch of the current task (or of a task it starts) finds the lock held.
    @TaskLocal package static var observer: (@Sendable () -> Void)?
}
