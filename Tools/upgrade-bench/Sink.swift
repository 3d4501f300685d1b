/// Where benchmark results go so that the optimizer cannot delete the work that made them.
///
/// Each contender folds something of every result into ``Sink/value`` through a non-inlined call;
/// a store to a global is observable, so the work behind it must happen. The tool prints the final
/// value in `--json` output (`checksum`), which also keeps it alive.
enum Sink {
    nonisolated(unsafe) static var value: UInt64 = 0

    /// Folds an integer into the sink.
    @inline(never)
    static func consume(_ integer: Int) {
        value = value &* 31 &+ UInt64(truncatingIfNeeded: integer)
    }

    /// Folds an optional integer into the sink (nil counts as a distinct value).
    @inline(never)
    static func consume(_ integer: Int?) {
        value = value &* 31 &+ (integer.map { UInt64(truncatingIfNeeded: $0) } ?? 0x9E37_79B9)
    }

    /// Returns its argument through a call the optimizer cannot see into, so that a loop cannot
    /// hoist work on a value it would otherwise know is constant.
    @inline(never)
    static func opaque<T>(_ value: T) -> T {
        withExtendedLifetime(value) { value }
    }
}
