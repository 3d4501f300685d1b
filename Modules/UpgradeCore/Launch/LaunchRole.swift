/// Which kind of process runs a launch: the app, which does the work, or a follower, which only
/// looks (<doc:LaunchAlgorithm>, "Follower launches").
///
/// An app extension (a widget, a share or notification extension) shares the app's state through
/// an app group, but it must not decide for the app: it may be the first process to launch after an
/// update or an install, it has little memory and time, and its own `UserDefaults` are not the
/// app's. It launches as a follower:
///
/// ```swift
/// let report = try await upgrader.run(currentVersion: version, role: .follower)
/// if report.outcome == .deferred { /* show the data as it is; the app upgrades it */ }
/// ```
public enum LaunchRole: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The app itself: the launch takes the store's lock, runs the pending steps and writes the
    /// state. The default.
    case app
    /// A process that must not decide for the app, such as an app extension: the launch reads the
    /// state without the lock and never writes it, never adopts a legacy version and never runs a
    /// step. It ends ``UpgradeOutcome/upToDate`` when the state holds nothing pending at the running
    /// version, ``UpgradeOutcome/downgraded`` below the mark, and ``UpgradeOutcome/deferred``
    /// otherwise (no state, or steps pending).
    case follower

    /// The raw name, `app` or `follower`.
    public var description: String { rawValue }
}
