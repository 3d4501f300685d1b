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
    /// The steps, in the order written; equal versions run in this order.
    public var steps: [ScriptedStep]
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
    ///   - steps: The scripted steps, in registration order.
    ///   - histories: The histories to replay.
    ///   - versions: Extra versions for `explore`.
    ///   - file: Where it was read from.
    public init(
        name: String, summary: String? = nil, policy: UpgradePolicy = UpgradePolicy(), steps: [ScriptedStep],
        histories: [FixtureHistory] = [], versions: [Version] = [], file: String? = nil
    ) {
        self.name = name
        self.summary = summary
        self.policy = policy
        self.steps = steps
        self.histories = histories
        self.versions = versions
        self.file = file
    }

    /// Every version the fixture names through its steps and its `versions` list, ascending, each
    /// value once (`8.8` and `8.8.0` count as one; the first written form is kept).
    public var namedVersions: [Version] {
        var seen = Set<Version>()
        var result: [Version] = []
        for version in steps.map(\.version) + versions where seen.insert(version).inserted {
            result.append(version)
        }
        return result.sorted()
    }

    /// The app these steps and this policy make, ready to launch.
    public var app: SimulatedApp { SimulatedApp(steps: steps, policy: policy) }
}

/// A step whose action does what its ``behavior`` scripts, attempt by attempt.
public struct ScriptedStep: Sendable, Hashable {
    /// The step's id; by default the step-name form of its version as written.
    public var id: String
    /// The version that introduced the step.
    public var version: Version
    /// What each attempt does.
    public var behavior: StepBehavior
    /// How long the action takes in a real-process launch, in milliseconds; in-memory replay ignores it.
    public var durationMs: Int?

    /// Creates a scripted step.
    ///
    /// - Parameters:
    ///   - version: The version that introduced the step.
    ///   - id: The step's id; `nil` uses `version.stepName`.
    ///   - behavior: What each attempt does; succeeds by default.
    ///   - durationMs: How long the action takes in a real-process launch.
    public init(version: Version, id: String? = nil, behavior: StepBehavior = .succeed, durationMs: Int? = nil) {
        self.id = id ?? version.stepName
        self.version = version
        self.behavior = behavior
        self.durationMs = durationMs
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
    public func result(forAttempt attempt: Int) -> AttemptResult {
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

    /// Creates a history.
    ///
    /// - Parameters:
    ///   - name: The history's name.
    ///   - launches: The app version of each launch.
    ///   - expect: One expectation per launch, or `nil`.
    public init(name: String, launches: [Version], expect: [LaunchExpectation]? = nil) {
        self.name = name
        self.launches = launches
        self.expect = expect
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

    /// The raw name, such as `upgraded`.
    public var description: String { rawValue }

    /// The simulator's name for an engine outcome; `nil` for `cancelled`, which a simulation never expects.
    ///
    /// - Parameter outcome: The engine's outcome.
    public init?(_ outcome: UpgradeOutcome) {
        switch outcome {
        case .freshInstall: self = .freshInstall
        case .upToDate: self = .upToDate
        case .upgraded: self = .upgraded
        case .failed: self = .failed
        case .downgraded: self = .downgraded
        case .cancelled: return nil
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
    public init(exactly observation: LaunchObservation) {
        self.init(
            outcome: observation.outcome, ran: observation.ran, abandoned: observation.abandoned,
            upgradedThrough: .some(observation.upgradedThrough))
    }
}
