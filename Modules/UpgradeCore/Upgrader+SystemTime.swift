#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

extension Upgrader {
    /// The system's wall-clock time, the default of ``now``: the real-time clock read with one call
    /// of the C library.
    @Sendable static func systemTime() -> Date {
        var time = timespec()
        guard clock_gettime(CLOCK_REALTIME, &time) == 0 else { return Date() }
        return Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000)
    }
}
