import VersionKit

/// The choices an app makes about fresh installs, downgrades and steps that keep failing.
///
/// The defaults are the safe ones: a fresh install runs nothing, the upgraded-through mark never goes
/// down, and a failing step is retried at every launch.
public struct UpgradePolicy: Sendable, Hashable {
    /// What a launch does when no state is stored at all.
    public enum FreshInstall: Sendable, Hashable {
        /// Records the running version as upgraded-through and runs nothing (the default): a new user
        /// has no old data to upgrade.
        case skip
        /// Runs every step up to the running version, as if upgrading from nothing.
        case runAll
        /// Starts as if the app had been upgraded through the given version; for adopting the
        /// package in an app that shipped without it.
        case upgradeFrom(Version)
    }

    /// What a launch at a version below the upgraded-through mark does.
    public enum Downgrade: Sendable, Hashable {
        /// The mark never goes down (the default): re-upgrading later runs nothing again.
        case keep
        /// The mark drops to the running version and finished steps above it are forgotten, so they
        /// run again on the next upgrade.
        case rewind
    }

    /// What a launch does when no state is stored at all.
    public var freshInstall: FreshInstall
    /// What a launch at a version below the upgraded-through mark does.
    public var downgrade: Downgrade
    /// After how many failed or crashed attempts a step is abandoned, so that the steps after it go
    /// on; `nil` (the default) never gives up. Must be at least 1.
    public var giveUpAfter: Int?

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - freshInstall: What a launch with no stored state does; `.skip` by default.
    ///   - downgrade: What a launch below the mark does; `.keep` by default.
    ///   - giveUpAfter: After how many failed or crashed attempts a step is abandoned; `nil` by
    ///     default. A value below 1 is reported as ``UpgradeError/Code/invalidPolicy`` when the
    ///     upgrader runs.
    public init(freshInstall: FreshInstall = .skip, downgrade: Downgrade = .keep, giveUpAfter: Int? = nil) {
        self.freshInstall = freshInstall
        self.downgrade = downgrade
        self.giveUpAfter = giveUpAfter
    }
}

extension UpgradePolicy: CustomStringConvertible {
    /// The policy in a compact form, such as `freshInstall=skip downgrade=keep giveUpAfter=none`.
    public var description: String {
        let fresh: String
        switch freshInstall {
        case .skip: fresh = "skip"
        case .runAll: fresh = "runAll"
        case .upgradeFrom(let version): fresh = "upgradeFrom(\(version))"
        }
        return
            "freshInstall=\(fresh) downgrade=\(downgrade == .keep ? "keep" : "rewind") giveUpAfter=\(giveUpAfter.map(String.init) ?? "none")"
    }
}
