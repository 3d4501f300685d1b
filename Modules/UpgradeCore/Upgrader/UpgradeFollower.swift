import VersionKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A follower launch that needs only the store: for an app extension (a widget, a share or
/// notification extension) whose code does not link the app's steps (<doc:LaunchAlgorithm>,
/// "Follower launches").
///
/// It reads the state once, without the lock, never writes it and never runs a step. Without the
/// step list it judges by the mark alone: ``UpgradeOutcome/upToDate`` with the mark at the running
/// version, ``UpgradeOutcome/downgraded`` below it, and otherwise ``UpgradeOutcome/deferred``. It has
/// a synchronous form, for code that cannot await, such as a widget's `placeholder(in:)`:
///
/// ```swift
/// let follower = UpgradeFollower(store: FileUpgradeStore(url: stateURL))
/// let ready = (try? follower.launch(currentVersion: version))?.outcome == .upToDate
/// ```
public struct UpgradeFollower: Sendable {
    /// Where the app keeps its state.
    public let store: any UpgradeStore
    /// The clock of the report's `startedAt`; the system clock by default.
    public var now: @Sendable () -> Date = { Date() }

    /// Creates a follower of the state that `store` keeps.
    ///
    /// - Parameter store: The app's store (an app-group container, or a shared defaults suite).
    public init(store: any UpgradeStore) {
        self.store = store
    }

    /// Performs a follower launch, synchronously: one read of the state, no lock, no write.
    ///
    /// - Parameter currentVersion: The version of the app (the extension's bundle) that is running.
    /// - Returns: The report: `upToDate`, `downgraded` or `deferred` (with its ``UpgradeReport/deferral``),
    ///   no steps, and the mark as read.
    /// - Throws: The store's error when the state exists but cannot be read (except protected data
    ///   unavailable, which is `deferred`).
    public func launch(currentVersion: Version) throws -> UpgradeReport {
        try follow(currentVersion: currentVersion)
    }

    /// Performs a follower launch as the synchronous form does, from asynchronous code.
    ///
    /// - Parameter currentVersion: The version of the app that is running.
    /// - Returns: What the synchronous form returns.
    /// - Throws: What the synchronous form throws.
    nonisolated(nonsending)
        public func launch(currentVersion: Version) async throws -> UpgradeReport
    {
        try follow(currentVersion: currentVersion)
    }

    /// The follower launch of both forms.
    private func follow(currentVersion: Version) throws -> UpgradeReport {
        let startedAt = now()
        let loaded: UpgradeState?
        do {
            loaded = try store.loadWithoutAdopting()
        } catch let error as UpgradeStoreError where error.code == .protectedDataUnavailable {
            var report = UpgradeReport(
                currentVersion: currentVersion, previousVersion: nil, upgradedThroughBefore: nil,
                upgradedThrough: nil, outcome: .deferred, startedAt: startedAt)
            report.deferral = .protectedDataUnavailable(detail: error.description)
            return report
        }
        let outcome = LaunchMachine.followerOutcome(loaded: loaded, current: currentVersion)
        var report = UpgradeReport(
            currentVersion: currentVersion, previousVersion: loaded?.lastLaunched,
            upgradedThroughBefore: loaded?.upgradedThrough, upgradedThrough: loaded?.upgradedThrough,
            outcome: outcome, startedAt: startedAt)
        if outcome == .deferred { report.deferral = .leftToApp }
        return report
    }
}
