import UpgradeCore

/// A value guarded by a ``PlatformMutex`` (over `pthread_mutex_t`), for the little mutable state the
/// stores keep. Copies of a reference share the value.
final class Protected<Value>: @unchecked Sendable {
    private let mutex = PlatformMutex()
    /// Read and written only while holding `mutex`.
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, holding the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { try body(&value) }
    }
}
