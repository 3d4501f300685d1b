import UpgradeCore
import VersionKit

/// A step whose action does what its ``behavior`` scripts, attempt by attempt; also the form of a
/// fixture's floor.
///
/// A step belongs to the builds of the app versions from ``since`` to ``until`` (both included; `nil`
/// is open-ended): a launch at version C runs the build of C, the steps with `since <= C <= until`.
public struct ScriptedStep: Sendable, Hashable {
    /// The step's id; by default the step-name form of its version as written (for a floor,
    /// `upgradeFloor_A_B[_C]`).
    public var id: String
    /// The version that introduced the step; for a floor, the version F it stands in for.
    public var version: Version
    /// What each attempt does.
    public var behavior: StepBehavior
    /// How long the action takes in a real-process launch, in milliseconds; in-memory replay ignores it.
    public var durationMs: Int?
    /// The first app version whose build contains the step; `nil` for every build from the first.
    public var since: Version?
    /// The last app version whose build contains the step; `nil` for every build from ``since`` on.
    public var until: Version?
    /// The findings of `explore` accepted for this step (the `allow` key); empty by default.
    public var allow: Set<FindingKind>

    /// Creates a scripted step.
    ///
    /// - Parameters:
    ///   - version: The version that introduced the step.
    ///   - id: The step's id; `nil` uses `version.stepName`.
    ///   - behavior: What each attempt does; succeeds by default.
    ///   - durationMs: How long the action takes in a real-process launch.
    ///   - since: The first app version whose build contains the step; `nil` for every build.
    ///   - until: The last app version whose build contains the step; `nil` for every later build.
    ///   - allow: The findings of `explore` accepted for this step.
    public init(
        version: Version, id: String? = nil, behavior: StepBehavior = .succeed, durationMs: Int? = nil,
        since: Version? = nil, until: Version? = nil, allow: Set<FindingKind> = []
    ) {
        self.id = id ?? version.stepName
        self.version = version
        self.behavior = behavior
        self.durationMs = durationMs
        self.since = since
        self.until = until
        self.allow = allow
    }

    /// A floor at version F: a step whose id defaults to `upgradeFloor_A_B[_C]` (the canonical text of F).
    ///
    /// - Parameters:
    ///   - version: The floor's version F: it stands in for every retired step at or below F.
    ///   - id: The floor's id; `nil` uses `upgradeFloor_A_B[_C]`.
    ///   - behavior: What each attempt does; succeeds by default.
    ///   - durationMs: How long the action takes in a real-process launch.
    ///   - since: The first app version whose build has the floor; `nil` for every build.
    ///   - until: The last app version whose build has the floor; `nil` for every later build.
    /// - Returns: The floor.
    public static func floor(
        _ version: Version, id: String? = nil, behavior: StepBehavior = .succeed, durationMs: Int? = nil,
        since: Version? = nil, until: Version? = nil
    ) -> ScriptedStep {
        ScriptedStep(
            version: version, id: id ?? version.floorID, behavior: behavior, durationMs: durationMs, since: since,
            until: until)
    }

    /// The builds that contain the step, in words: `every build`, `since 3.0`, `until 2.0` or
    /// `since 2.0, until 3.0`.
    package var buildRange: String {
        switch (since, until) {
        case (nil, nil): "every build"
        case (let since?, nil): "since \(since)"
        case (nil, let until?): "until \(until)"
        case (let since?, let until?): "since \(since), until \(until)"
        }
    }

    /// Whether the build of app version `version` contains the step: `since <= version <= until`.
    ///
    /// - Parameter version: The running version.
    /// - Returns: `true` when the step is in that build.
    package func isInBuild(of version: Version) -> Bool {
        if let since, version < since { return false }
        if let until, version > until { return false }
        return true
    }
}
