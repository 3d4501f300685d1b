/// A clock whose time moves by a fixed step each time it is read, so that durations in reports are
/// deterministic: every measured step takes exactly one step of time.
public final class SteppingClock: Clock, Sendable {
    /// An instant of the stepping clock.
    public struct Instant: InstantProtocol, Sendable {
        /// The time since the clock started.
        public var offset: Duration
        /// Moves the instant.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The duration from this instant to another.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Orders instants.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private let step: Duration
    private let current = Locked(Instant(offset: .zero))

    /// Creates a clock that moves by `step` at each reading.
    public init(step: Duration = .milliseconds(1)) { self.step = step }

    /// The current instant; reading it moves the clock by one step.
    public var now: Instant {
        current.withLock {
            $0 = $0.advanced(by: step)
            return $0
        }
    }

    /// The smallest meaningful duration.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Moves the clock to the deadline at once.
    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        current.withLock { if $0 < deadline { $0 = deadline } }
    }
}
