import UpgradeCore

/// Exclusive access for the launches of one process, one at a time: the lock of a store whose state
/// no other process uses (the in-memory store's, or a custom store's over a key-value API the app
/// already has).
///
/// ```swift
/// let launches = LaunchGate(location: "settings key upgrade-state")
/// func lockForLaunch() async throws -> any UpgradeStoreLock { try await launches.lock() }
/// ```
public final class LaunchGate: Sendable {
    private let gate = AsyncGate()
    /// Where the store keeps its state, for the error of a launch that waited too long.
    public let location: String
    /// How long a launch waits for another; `nil` waits as long as it takes.
    public let timeout: Duration?

    /// Creates a gate that no launch holds.
    ///
    /// - Parameters:
    ///   - location: Where the store keeps its state, named by the busy error.
    ///   - timeout: How long ``lock()`` waits for another launch; `nil` (the default) waits as long as
    ///     it takes.
    public init(location: String, timeout: Duration? = nil) {
        self.location = location
        self.timeout = timeout
    }

    /// Waits until no other launch holds the gate, and holds it.
    ///
    /// - Returns: The lock; the upgrader gives it up when the launch ends.
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.busy` when another launch holds
    ///   it past ``timeout``; `CancellationError` when the task is cancelled while waiting.
    public func lock() async throws -> any UpgradeStoreLock {
        try await lock(timeout: timeout)
    }

    /// Holds the gate as ``lock()`` does, waiting at most `timeout` (`nil`: as long as it takes).
    package func lock(timeout: Duration?) async throws -> any UpgradeStoreLock {
        guard let timeout else {
            if !gate.tryAcquire() {
                LockWaiting.observer?()
                await gate.acquire()
            }
            return GateLock(gate: gate)
        }
        let gate = self.gate
        guard try await pollForLock(timeout: timeout, { gate.tryAcquire() }) else {
            throw UpgradeStoreError(
                code: .busy, location: location,
                detail: "another launch in this process holds the upgrade lock; gave up after waiting \(timeout),"
                    + " and nothing was read or written")
        }
        return GateLock(gate: gate)
    }
}

/// The lock of a ``LaunchGate``.
struct GateLock: UpgradeStoreLock {
    let gate: AsyncGate
    func unlock() { gate.release() }
}
