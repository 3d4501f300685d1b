import Foundation

/// A value that any thread or task may read and change, one at a time: what the tests' recorders
/// (the lines an observer wrote, the steps that ran, a counter) are made of.
///
/// ```swift
/// let ran = Locked<[String]>([])
/// UpgradeStep("1.1") { ran.append("1.1") }
/// #expect(ran.value == ["1.1"])
/// ```
///
/// It is a lock around the value (`NSLock`, which every platform of the package has, unlike
/// `Synchronization.Mutex`); a value that is not `Sendable` keeps the box from being `Sendable`.
public final class Locked<Value> {
    private let lock = NSLock()
    /// Read and written only while holding `lock`.
    private var stored: Value

    /// Creates a box holding `value`.
    ///
    /// - Parameter value: The value at the start.
    public init(_ value: Value) { stored = value }

    /// Runs `body` with the value, holding the lock; what `body` changes, the box keeps.
    ///
    /// - Parameter body: Reads or changes the value. It must not use the box itself.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @discardableResult
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }

    /// Puts `newValue` in the box.
    ///
    /// - Parameter newValue: The value from now on.
    /// - Returns: The value the box held.
    public func exchange(_ newValue: Value) -> Value {
        withLock { value in
            defer { value = newValue }
            return value
        }
    }

    /// The value now; setting it replaces the value.
    public var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }
}

// The lock makes every use of the value one at a time.
extension Locked: @unchecked Sendable where Value: Sendable {}

extension Locked {
    /// Appends an element to the array in the box.
    ///
    /// - Parameter element: The element.
    public func append<Element>(_ element: Element) where Value == [Element] {
        withLock { $0.append(element) }
    }

    /// Adds one to the count of `key` in the box.
    ///
    /// - Parameter key: What is counted.
    /// - Returns: The new count.
    @discardableResult
    public func increment<Key>(_ key: Key) -> Int where Value == [Key: Int] {
        withLock {
            $0[key, default: 0] += 1
            return $0[key]!
        }
    }
}

extension Locked where Value == Int {
    /// Adds one to the number in the box.
    ///
    /// - Returns: The new number.
    @discardableResult
    public func increment() -> Int {
        withLock {
            $0 += 1
            return $0
        }
    }
}
