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
    while true {
        if try attempt() { return true }
        let now = clock.now
        if let deadline, now >= deadline { return false }
        let sleep = deadline.map { min(pause, now.duration(to: $0)) } ?? pause
        try await Task.sleep(for: sleep)
        pause = min(pause * 2, .milliseconds(20))
    }
}
