/// The decision of an app's launch gate: whether the app may read its data after a launch, from the
/// launch's report alone (<doc:AppIntegration>, "What the gate does with the outcome").
///
/// An app keeps a launch screen that reads nothing in front of its content until its upgrade steps
/// have run. The gate opens when the state says that nothing is pending at the running version, and
/// stays closed otherwise: before the app's launch has run, while protected data is unavailable
/// (nothing was decided, so a missing state proves nothing), while a step waits, after a cancelled
/// launch, and, unless the app says otherwise, after a failed step or below the mark (a downgrade).
/// The same decision reads a follower's report, such as ``UpgradeFollower``'s synchronous one, before
/// the app's launch runs: with the mark at the running version it is open from the first frame.
///
/// ```swift
/// let gate = UpgradeGate()
/// let before = try? UpgradeFollower(store: store).launch(currentVersion: version)
/// var state = before.map(gate.state(after:)) ?? .launchNeeded  // open only when nothing is pending
/// // ... then, in the foreground:
/// state = gate.state(after: try await upgrader.run(currentVersion: version))
/// ```
public struct UpgradeGate: Sendable, Hashable {
    /// Whether the gate opens after a launch that ended ``UpgradeOutcome/failed``: the steps that
    /// finished are recorded, and the failed step and those after it run at the next launch. `false`
    /// by default: open it only if the app can read its data between any two steps.
    public var opensAfterFailure: Bool
    /// Whether the gate opens when the running version is below the upgraded-through mark
    /// (``UpgradeOutcome/downgraded``): the data may hold what a newer version of the app wrote.
    /// `false` by default: open it only if this version can read that data.
    public var opensAfterDowngrade: Bool

    /// Creates the decision.
    ///
    /// - Parameters:
    ///   - opensAfterFailure: Whether a launch that ended with a failed step opens the gate.
    ///   - opensAfterDowngrade: Whether a launch below the mark opens the gate.
    public init(opensAfterFailure: Bool = false, opensAfterDowngrade: Bool = false) {
        self.opensAfterFailure = opensAfterFailure
        self.opensAfterDowngrade = opensAfterDowngrade
    }

    /// The gate's state after a launch: the app's own, or a follower's that read the stored state.
    ///
    /// - Parameter report: What the launch did.
    /// - Returns: ``UpgradeGateState/open`` after ``UpgradeOutcome/upToDate``,
    ///   ``UpgradeOutcome/upgraded`` and ``UpgradeOutcome/freshInstall``; after
    ///   ``UpgradeOutcome/failed`` and ``UpgradeOutcome/downgraded`` only when the app opted in; a
    ///   closed state saying what the gate waits for otherwise.
    public func state(after report: UpgradeReport) -> UpgradeGateState {
        switch report.outcome {
        case .upToDate, .upgraded, .freshInstall:
            return .open
        case .failed:
            return opensAfterFailure ? .open : .stepFailed(id: report.failedStep?.id ?? "")
        case .downgraded:
            return opensAfterDowngrade ? .open : .downgraded
        case .cancelled:
            return .interrupted
        case .deferred:
            switch report.deferral {
            case .protectedDataUnavailable: return .waitingForProtectedData
            case .stepNotNow(let stepID, let reason): return .waitingForStep(id: stepID, reason: reason)
            case .leftToApp, nil: return .launchNeeded
            }
        }
    }

    /// Whether what the app's extensions read may have changed in a launch, so that they should
    /// reload (a widget's timelines, say): the launch ran or abandoned a step, recorded a fresh
    /// install, or moved the upgraded-through mark (which turns a follower's
    /// ``UpgradeOutcome/deferred`` into ``UpgradeOutcome/upToDate``, even with no step to run).
    ///
    /// - Parameter report: What the app's launch did.
    /// - Returns: `true` when a follower launch may now answer differently, or the data changed.
    public static func shouldReloadExtensions(after report: UpgradeReport) -> Bool {
        !report.steps.isEmpty || report.outcome == .freshInstall
            || report.upgradedThrough != report.upgradedThroughBefore
    }
}
