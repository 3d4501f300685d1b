/// Why a launch ended ``UpgradeOutcome/deferred``: what it waited for, so that a report and a log
/// say why nothing (more) happened (<doc:LaunchAlgorithm>, "Protected data", "Interruptions" and
/// "Follower launches").
public enum UpgradeDeferral: Sendable, Hashable, CustomStringConvertible {
    /// The store could not establish that the app's protected data is readable (a device locked
    /// since its restart): the launch read nothing it could trust, ran no step, wrote nothing and
    /// adopted nothing. The next launch with the data readable decides. `detail` is the store's
    /// explanation (``UpgradeStoreError/description``).
    case protectedDataUnavailable(detail: String)
    /// The step `stepID` ended its attempt by throwing ``UpgradeStepNotNow``: the attempt is not
    /// counted, the steps after it did not run, and the next launch runs it again. `reason` is the
    /// step's.
    case stepNotNow(stepID: String, reason: String)
    /// A follower launch (``LaunchRole/follower``, ``UpgradeFollower``) found work that only the app
    /// may do: no state stored yet, or steps pending at the running version.
    case leftToApp

    /// The reason in words, such as `protected data is unavailable (the device is locked): ...`.
    public var description: String {
        switch self {
        case .protectedDataUnavailable(let detail):
            "protected data is unavailable, so nothing was decided: \(detail)"
        case .stepNotNow(let stepID, let reason):
            "step \(stepID) said not now: \(reason)"
        case .leftToApp:
            "the app's next launch does the work"
        }
    }
}
