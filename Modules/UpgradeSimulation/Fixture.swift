import UpgradeCore
import VersionKit

/// A simulator fixture (its JSON format is in the module's overview): scripted steps, a policy, and the histories of launches one
/// device makes, each with what every launch is expected to do.
///
/// Read one with ``FixtureLoader``; write one back with ``jsonText``.
public struct Fixture: Sendable, Hashable {
    /// The fixture's name, shown in reports.
    public var name: String
    /// What the fixture shows: the `description` key; `nil` when absent.
    public var summary: String?
    /// The fresh-install, downgrade and give-up choices of every launch.
    public var policy: UpgradePolicy
    /// The steps of every build, in the order written; equal versions run in this order.
    public var steps: [ScriptedStep]
    /// The floor (the top-level `floor` key): a step of its own that stands in for every retired step at or
    /// below its version, in the builds between its ``ScriptedStep/since`` and ``ScriptedStep/until``; `nil`
    /// when absent. Its id defaults to `upgradeFloor_A_B[_C]`.
    public var floor: ScriptedStep?
    /// The histories to replay, each from a fresh install.
    public var histories: [FixtureHistory]
    /// Extra versions named by the top-level `versions` key, for `explore`; empty when absent.
    public var versions: [Version]
    /// The path the fixture was read from, as it was given; `nil` for a fixture made in code.
    public var file: String?

    /// Creates a fixture.
    ///
    /// - Parameters:
    ///   - name: The fixture's name.
    ///   - summary: What it shows.
    ///   - policy: The policy of every launch.
    ///   - steps: The scripted steps of every build, in registration order.
    ///   - floor: The floor, if any (make one with ``ScriptedStep/floor(_:id:behavior:durationMs:since:until:)``).
    ///   - histories: The histories to replay.
    ///   - versions: Extra versions for `explore`.
    ///   - file: Where it was read from.
    public init(
        name: String, summary: String? = nil, policy: UpgradePolicy = UpgradePolicy(), steps: [ScriptedStep],
        floor: ScriptedStep? = nil, histories: [FixtureHistory] = [], versions: [Version] = [], file: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.policy = policy
        self.steps = steps
        self.floor = floor
        self.histories = histories
        self.versions = versions
        self.file = file
    }

    /// Every version the fixture names, ascending, each value once (`8.8` and `8.8.0` count as one;
    /// the first written form is kept): its steps' and its floor's versions, every `since` and `until`,
    /// the version just above each `until` (the first build without the step, such as `2.0.1` above
    /// `2.0`), and its `versions` list.
    package var namedVersions: [Version] {
        var seen = Set<Version>()
        var result: [Version] = []
        var named: [Version] = []
        for step in allSteps {
            named.append(step.version)
            if let since = step.since { named.append(since) }
            if let until = step.until {
                named.append(until)
                if let next = until.successor { named.append(next) }
            }
        }
        for version in named + versions where seen.insert(version).inserted {
            result.append(version)
        }
        return result.sorted()
    }

    /// Whether any step or the floor carries `since` or `until`, so that builds differ.
    package var hasReleases: Bool { allSteps.contains { $0.since != nil || $0.until != nil } }

    /// The steps, then the floor if there is one.
    var allSteps: [ScriptedStep] { floor.map { steps + [$0] } ?? steps }

    /// The app these steps, this floor and this policy make, ready to launch.
    public var app: SimulatedApp { SimulatedApp(steps: steps, floor: floor, policy: policy) }
}

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
    public var allow: Set<Finding.Kind>

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
        since: Version? = nil, until: Version? = nil, allow: Set<Finding.Kind> = []
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

extension Version {
    /// The default id of a floor at this version: `upgradeFloor_` and the canonical text with `_` for
    /// `.`, such as `upgradeFloor_2_0`.
    var floorID: String {
        "upgradeFloor_\(major)_\(minor)" + (componentCount == 3 ? "_\(patch)" : "")
    }

    /// The version just above this one, where a build that ends at this version is followed: the next
    /// patch (`2.0` is followed by `2.0.1`); `nil` at the top of the range.
    var successor: Version? {
        if patch < Version.maximumComponentValue { return Version(major: major, minor: minor, patch: patch + 1) }
        if minor < Version.maximumComponentValue { return Version(major: major, minor: minor + 1, patch: 0) }
        if major < Version.maximumComponentValue { return Version(major: major + 1, minor: 0, patch: 0) }
        return nil
    }
}

/// What a scripted step's attempts do.
///
/// Attempt numbers are those of the engine (rule 4 of <doc:/UpgradeCore/LaunchAlgorithm>): they count the failed and crashed
/// attempts since the step last finished, across launches, from 1.
public enum StepBehavior: Sendable, Hashable {
    /// Every attempt succeeds.
    case succeed
    /// Every attempt fails.
    case fail
    /// Every attempt kills the process.
    case crash
    /// The first n attempts fail; later ones succeed.
    case failTimes(Int)
    /// The first n attempts kill the process; later ones succeed.
    case crashTimes(Int)
    /// Attempt k does entry k; past the end, the last entry repeats. Never empty.
    case script([AttemptResult])

    /// What the given attempt does.
    ///
    /// - Parameter attempt: The attempt number, from 1.
    /// - Returns: Its result.
    package func result(forAttempt attempt: Int) -> AttemptResult {
        switch self {
        case .succeed: return .ok
        case .fail: return .fail
        case .crash: return .crash
        case .failTimes(let count): return attempt <= count ? .fail : .ok
        case .crashTimes(let count): return attempt <= count ? .crash : .ok
        case .script(let entries):
            guard let last = entries.last else { return .ok }
            return attempt >= 1 && attempt <= entries.count ? entries[attempt - 1] : last
        }
    }
}

/// What one attempt of a scripted step does.
public enum AttemptResult: String, Sendable, Hashable, CaseIterable {
    /// The action returns normally.
    case ok
    /// The action throws.
    case fail
    /// The process dies inside the action.
    case crash
}

/// The launches one device makes, from a fresh install, and what each is expected to do.
public struct FixtureHistory: Sendable, Hashable {
    /// The history's name, unique in its fixture.
    public var name: String
    /// The app version of each launch, in order; at least one.
    public var launches: [Version]
    /// One expectation per launch, or `nil` when the history only has to replay without error.
    public var expect: [LaunchExpectation]?
    /// The positions in ``launches`` (from 0) of the follower launches, written
    /// `{"version": "2.0", "follower": true}`: an app extension's launch, which reads the state and
    /// never writes it or runs a step (`LaunchRole.follower`). Empty by default.
    public var followers: Set<Int>
    /// The device's condition at some launches, by position in ``launches`` (from 0): `locked`
    /// (`{"version": "2.0", "locked": true}`) or an expiry (`{"version": "2.0", "expire": "ID"}`).
    /// Empty by default.
    public var conditions: [Int: LaunchCondition]

    /// Creates a history.
    ///
    /// - Parameters:
    ///   - name: The history's name.
    ///   - launches: The app version of each launch.
    ///   - expect: One expectation per launch, or `nil`.
    ///   - followers: The positions in `launches` of the follower launches; none by default.
    ///   - conditions: The device's condition at some launches, by position; none by default.
    public init(
        name: String, launches: [Version], expect: [LaunchExpectation]? = nil, followers: Set<Int> = [],
        conditions: [Int: LaunchCondition] = [:]
    ) {
        self.name = name
        self.launches = launches
        self.expect = expect
        self.followers = followers
        self.conditions = conditions
    }

    /// The role of the launch at a position of ``launches``.
    ///
    /// - Parameter position: The launch's position, from 0.
    /// - Returns: `follower` for a follower launch, `app` otherwise.
    package func role(at position: Int) -> LaunchRole { followers.contains(position) ? .follower : .app }

    /// The launch at a position of ``launches`` as the fixture writes it, for reports: `2.0`,
    /// `2.0 (follower)`, `2.0 (locked)`, `2.0 (expire ID)`, `2.0 (follower, locked)`.
    ///
    /// - Parameter position: The launch's position, from 0.
    /// - Returns: The text.
    package func label(at position: Int) -> String {
        LaunchCondition.label(
            launches[position], follower: followers.contains(position), condition: conditions[position])
    }
}

/// How one launch ended, as the simulator sees it: the engine's outcomes plus ``crashed``.
public enum LaunchOutcome: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// No state was stored and the `skip` policy recorded the running version.
    case freshInstall
    /// Nothing was pending.
    case upToDate
    /// Every pending step finished or was abandoned.
    case upgraded
    /// A step failed and the launch stopped there.
    case failed
    /// The process died inside a step.
    case crashed
    /// The running version is below the upgraded-through mark.
    case downgraded
    /// Nothing ran and nothing was written: a follower launch found no state or steps pending (the
    /// app's next launch does the work), or protected data was unavailable (a `locked` launch).
    case deferred
    /// The background time expired while a step ran (an `expire` launch): the attempt is not counted.
    case cancelled

    /// The raw name, such as `upgraded`.
    public var description: String { rawValue }

    /// The simulator's name for an engine outcome.
    ///
    /// - Parameter outcome: The engine's outcome.
    package init?(_ outcome: UpgradeOutcome) {
        switch outcome {
        case .freshInstall: self = .freshInstall
        case .upToDate: self = .upToDate
        case .upgraded: self = .upgraded
        case .failed: self = .failed
        case .downgraded: self = .downgraded
        case .deferred: self = .deferred
        case .cancelled: self = .cancelled
        }
    }
}

/// What one launch of a history is expected to do; each part is checked only when present.
public struct LaunchExpectation: Sendable, Hashable {
    /// The outcome, or `nil` to not check it.
    public var outcome: LaunchOutcome?
    /// The ids of the steps whose action was started, in order, or `nil` to not check them.
    public var ran: [String]?
    /// The ids of the steps abandoned in the launch, in order, or `nil` to not check them.
    public var abandoned: [String]?
    /// The upgraded-through mark after the launch: `nil` to not check it, `.some(nil)` to expect
    /// none. Compared as a version, so `2.0` matches `2.0.0`.
    public var upgradedThrough: Version??

    /// Creates an expectation.
    ///
    /// - Parameters:
    ///   - outcome: The outcome, or `nil` to not check it.
    ///   - ran: The steps started, or `nil` to not check them.
    ///   - abandoned: The steps abandoned, or `nil` to not check them.
    ///   - upgradedThrough: The mark after the launch: `nil` to not check, `.some(nil)` for none.
    public init(
        outcome: LaunchOutcome? = nil, ran: [String]? = nil, abandoned: [String]? = nil,
        upgradedThrough: Version?? = nil
    ) {
        self.outcome = outcome
        self.ran = ran
        self.abandoned = abandoned
        self.upgradedThrough = upgradedThrough
    }

    /// The expectation that a launch does exactly what `observation` says, on every key.
    ///
    /// - Parameter observation: What a launch did.
    package init(exactly observation: LaunchObservation) {
        self.init(
            outcome: observation.outcome, ran: observation.ran, abandoned: observation.abandoned,
            upgradedThrough: .some(observation.upgradedThrough))
    }
}
