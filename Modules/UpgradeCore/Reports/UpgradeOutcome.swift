/// How a launch of the upgrader ended.
public enum UpgradeOutcome: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// No state was stored; under the `skip` policy the running version was recorded and nothing ran.
    case freshInstall
    /// Nothing was pending: every step at or below the running version is done.
    case upToDate
    /// Every pending step finished or was abandoned, and the mark moved to the running version.
    case upgraded
    /// A step failed; the steps after it did not run and the mark did not move. It is retried at
    /// the next launch.
    case failed
    /// The running version is below the upgraded-through mark; nothing ran.
    case downgraded
    /// The surrounding task was cancelled, or the launch was interrupted (its background time ran
    /// out, ``Upgrader/interruptLaunch()``); the run stopped before the next step, and a step it was
    /// running counts as no attempt (<doc:LaunchAlgorithm>, "Interruptions").
    case cancelled
    /// The launch decided nothing more and left the work for a later launch;
    /// ``UpgradeReport/deferral`` says why: protected data was unavailable (nothing ran, nothing was
    /// written), a step said "not now" (``UpgradeStepNotNow``), or a follower launch (``LaunchRole/follower``,
    /// ``UpgradeFollower``) found work that only the app may do (no state stored yet, or steps
    /// pending at the running version).
    case deferred

    /// The raw name, such as `upgraded`.
    public var description: String { rawValue }
}
