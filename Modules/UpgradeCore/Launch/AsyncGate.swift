#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// A first-come, first-served asynchronous lock: one holder at a time, waiters suspended in order.
///
/// Used to serialize launches within one process; stores add their own cross-process lock.
package final class AsyncGate: @unchecked Sendable {
    private let mutex = PlatformMutex()
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var firstWaiter = 0

    package init() {}

    /// Suspends until the gate is free, then holds it.
    package func acquire() async {
        if tryAcquire() { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = mutex.withLock {
                if !held {
                    held = true
                    return true
                }
                waiters.append(continuation)
                return false
            }
            if acquired { continuation.resume() }
        }
    }

    /// Holds the gate if it is free, without waiting.
    ///
    /// - Returns: Whether the gate is now held by the caller.
    package func tryAcquire() -> Bool {
        mutex.withLock {
            if held { return false }
            held = true
            return true
        }
    }

    /// Passes the gate to the next waiter, or frees it.
    package func release() {
        let next: CheckedContinuation<Void, Never>? = mutex.withLock {
            guard firstWaiter < waiters.count else {
                held = false
                waiters.removeAll(keepingCapacity: true)
                firstWaiter = 0
                return nil
            }
            let waiter = waiters[firstWaiter]
            firstWaiter += 1
            return waiter
        }
        next?.resume()
    }

    /// Runs `body` holding the gate.
    package func withGate<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}

/// A plain mutual-exclusion lock over `pthread_mutex_t`, available on every platform the package
/// supports (unlike `Synchronization.Mutex`, which needs recent Apple OS versions).
package final class PlatformMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` holding the lock.
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Takes the lock, waiting for it if need be; pair each call with one of ``unlock()``.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Gives up the lock taken by ``lock()``.
    package func unlock() { pthread_mutex_unlock(mutex) }
}
