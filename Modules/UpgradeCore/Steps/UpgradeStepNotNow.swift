/// What a step throws to end its attempt with "not now": it needs what is not there yet, such as
/// protected data or a network (<doc:LaunchAlgorithm>, "Interruptions").
///
/// The attempt is counted as no attempt (it does not bring the step nearer `giveUpAfter`), the steps
/// after it do not run, and the launch ends ``UpgradeOutcome/deferred`` with
/// ``UpgradeDeferral/stepNotNow(stepID:reason:)`` naming the step. The next launch runs the step
/// again with the same attempt number.
///
/// ```swift
/// UpgradeStep("2.0") { _ in
///     guard networkIsReachable() else { throw UpgradeStepNotNow(reason: "no network") }
///     try await downloadNewCatalog()
/// }
/// ```
public struct UpgradeStepNotNow: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the step cannot run now, in words for the report and the log.
    public var reason: String

    /// Creates a "not now".
    ///
    /// - Parameter reason: Why the step cannot run now.
    public init(reason: String) {
        self.reason = reason
    }

    /// `not now: REASON`.
    public var description: String { "not now: \(reason)" }
}
