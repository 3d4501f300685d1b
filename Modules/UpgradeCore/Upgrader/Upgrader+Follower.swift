import VersionKit

extension Upgrader {
    /// Runs one launch at the given version in the given role: as ``run(currentVersion:)`` does for
    /// the app, or as a follower, which only looks (<doc:LaunchAlgorithm>, "Follower launches").
    ///
    /// An app extension launches as a follower: it reads the state once, without the lock, never
    /// writes it and never runs a step. Its outcome is ``UpgradeOutcome/upToDate`` (nothing pending
    /// at `currentVersion`), ``UpgradeOutcome/downgraded``, or ``UpgradeOutcome/deferred`` (no state
    /// yet, steps pending, or protected data unavailable).
    ///
    /// ```swift
    /// let report = try await upgrader.run(currentVersion: version, role: .follower)
    /// ```
    ///
    /// - Parameters:
    ///   - currentVersion: The version of the app that is running.
    ///   - role: ``LaunchRole/app`` for the app's own launch, ``LaunchRole/follower`` for an extension.
    /// - Returns: What the launch did; a follower's report lists no steps and has the mark as read.
    /// - Throws: ``UpgradeError`` for a configuration mistake; the store's error when the state
    ///   cannot be read (a follower reports it as the app would, and takes nothing for a fresh
    ///   install); for the app, whatever ``run(currentVersion:)`` throws.
    nonisolated(nonsending)
        public func run(currentVersion: Version, role: LaunchRole) async throws -> UpgradeReport
    {
        switch role {
        case .app: return try await run(currentVersion: currentVersion)
        case .follower: return try follow(currentVersion: currentVersion)
        }
    }

    /// A follower launch: one read, the machine's decision, no lock and no write.
    private func follow(currentVersion: Version) throws -> UpgradeReport {
        try validate()
        let startedAt = now()
        let loaded: UpgradeState?
        do {
            loaded = try store.loadWithoutAdopting()
        } catch let error as UpgradeStoreError where error.code == .protectedDataUnavailable {
            let report = deferredForProtectedData(error, currentVersion: currentVersion, startedAt: startedAt)
            observer?(.launchFinished(report))
            return report
        }
        let outcome = LaunchMachine.followerOutcome(
            loaded: loaded, current: currentVersion, policy: policy, catalog: catalog)
        var report = UpgradeReport(
            currentVersion: currentVersion, previousVersion: loaded?.lastLaunched,
            upgradedThroughBefore: loaded?.upgradedThrough, upgradedThrough: loaded?.upgradedThrough,
            outcome: outcome, startedAt: startedAt)
        if outcome == .deferred { report.deferral = .leftToApp }
        observer?(.launchFinished(report))
        return report
    }
}
