import Foundation

/// A tiny wrapper over `NSLock` with a closure form.
final class NSLockShim: @unchecked Sendable {
    private let lock = NSLock()

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
