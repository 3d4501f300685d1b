#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Upgrader {
    /// The system's wall-clock time, the default of ``now``.
    @Sendable static func systemTime() -> Date { Date() }
}
