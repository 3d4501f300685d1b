/// Whether an app's launch gate is open, and if not, what it waits for (``UpgradeGate``).
public enum UpgradeGateState: Sendable, Hashable, CustomStringConvertible {
    /// The app may read its data: nothing is pending at the running version (or the app opted in
    /// after a failure or a downgrade).
    case open
    /// Closed until the app's launch runs: nothing is known yet, no state is stored (a fresh install
    /// is decided by the app's launch, once the data is known to be readable), or steps are pending.
    case launchNeeded
    /// Closed: the store could not establish that protected data is readable (a device locked since
    /// its restart), so nothing was decided. Launch again once it is (after the first unlock).
    case waitingForProtectedData
    /// Closed: a step said "not now" (``UpgradeStepNotNow``); launch again later.
    case waitingForStep(id: String, reason: String)
    /// Closed: the launch was interrupted or cancelled before its steps were done; launch again.
    case interrupted
    /// Closed: a step failed, and the steps after it wait; launch again (a Try Again button, the
    /// next activation).
    case stepFailed(id: String)
    /// Closed: the running version is below the upgraded-through mark, and the data may hold what a
    /// newer version wrote.
    case downgraded

    /// Whether the app may read its data.
    public var isOpen: Bool { self == .open }

    /// The state in words, for logs, such as `closed: step settings-to-json failed`.
    public var description: String {
        switch self {
        case .open: "open"
        case .launchNeeded: "closed: the app's launch has not run"
        case .waitingForProtectedData: "closed: protected data is unavailable"
        case .waitingForStep(let id, let reason): "closed: step \(id) said not now: \(reason)"
        case .interrupted: "closed: the launch was interrupted"
        case .stepFailed(let id): "closed: step \(id) failed"
        case .downgraded: "closed: the running version is below the upgraded-through mark"
        }
    }
}
