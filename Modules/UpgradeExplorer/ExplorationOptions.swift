import UpgradeCore
import UpgradeFixtures
import VersionKit

/// What `explore` enumerates and with which engine.
public struct ExplorationOptions: Sendable, Hashable {
    /// The engine whose launches are explored.
    public enum Engine: String, Sendable, Hashable, CaseIterable {
        /// UpgradeCore's own launch, the one apps use.
        case standard
        /// The naive `appUpgradeTo_X_Y_Z` pattern, for comparison (see `NaiveUpgrader`).
        case naive
    }

    /// How far the search goes: `nil` (the default) searches the reachable states to a fixpoint,
    /// which covers every history of any length; a number enumerates every history of 1 up to that
    /// many launches.
    ///
    /// The search to a fixpoint is breadth-first over the states a history can reach (the stored
    /// state and what the guarantee checker remembers, attempt numbers cut off where nothing can
    /// tell them apart), with a visited set, so that it ends when no new state appears: see
    /// <doc:ExploringToAFixpoint>.
    public var depth: Int?
    /// Whether to explore every combination of policies instead of the fixture's own.
    public var allPolicies: Bool
    /// The engine whose launches are explored.
    public var engine: Engine
    /// The kinds of finding accepted for every step (`--allow`), besides those each step's `allow`
    /// list accepts; none by default.
    public var allow: Set<FindingKind>
    /// A fault planted in the standard engine's launches, for the tests that show the search sound
    /// (a test-only switch; no command sets it). `nil` by default.
    package var plantedFault: PlantedFault?
    /// Whether the search to a fixpoint keys each state exactly (the stored state as it is, the
    /// checker's memory member by member) instead of by what decides its future only (``StateKey``):
    /// a test-only switch, for the tests that show both find the same. `false` by default.
    package var fullStateKey = false
    /// How many cores the search to a fixpoint expands a level on; `nil` (the default) for every
    /// active core. A test-only switch, for the tests that show the order of what it finds the same
    /// on one core and on several.
    package var cores: Int?
    /// The fewest launches in a level that the search spreads over several cores (a part costs a
    /// dispatch and a thread's wake-up); 4,096 by default. Tests set 1, to spread even small levels.
    package var parallelLaunches = 4096
    /// Whether every version is also launched under the device's conditions (<doc:ExploringToAFixpoint>,
    /// "The device's conditions"): locked, and with the background time expiring in each step a launch
    /// runs. `true` by default; the tests that count the plain histories of a depth set `false`.
    package var deviceConditions = true

    /// Whether the search goes to a fixpoint (``depth`` is `nil`).
    package var isFixpoint: Bool { depth == nil }

    /// Creates options.
    ///
    /// - Parameters:
    ///   - depth: The longest history, or `nil` (the default) to search to a fixpoint.
    ///   - allPolicies: Whether to explore every policy combination; `false` by default.
    ///   - engine: The engine; the standard one by default.
    ///   - allow: The kinds of finding accepted for every step; none by default.
    public init(
        depth: Int? = nil, allPolicies: Bool = false, engine: Engine = .standard, allow: Set<FindingKind> = []
    ) {
        self.depth = depth
        self.allPolicies = allPolicies
        self.engine = engine
        self.allow = allow
    }
}

extension Fixture {
    /// The versions `explore` launches at: every version the fixture names (``namedVersions``: its
    /// steps' and floor's versions, every `since` and `until` and the version just above each `until`,
    /// and its `versions` list) and every history's `legacyVersion`, plus one below the lowest and one
    /// above the highest, in ascending order.
    package var explorationVersions: [Version] {
        var versions = namedVersions
        for legacy in legacyVersions where !versions.contains(legacy) { versions.append(legacy) }
        versions.sort()
        guard let lowest = versions.first, let highest = versions.last else {
            return [Version(major: 1, minor: 0)]
        }
        if let below = lowest.oneBelow { versions.insert(below, at: 0) }
        if let above = highest.oneAbove { versions.append(above) }
        return versions
    }

    /// The policies `explore` uses: the fixture's own, or with `all` every combination of
    /// fresh install (skip, runAll, upgradeFrom the lowest named version), downgrade (keep,
    /// rewind) and giveUpAfter (none, 1, 2).
    ///
    /// A history's `legacyVersion` V adds the fixture's own policy with `upgradeFrom` V: the adoption
    /// of V by a `LegacyVersionAdopter` starts a device exactly there (upgraded through V, the launch
    /// before at V), which `explore` searches as that policy's fresh install rather than modelling the
    /// legacy key (<doc:ExploringToAFixpoint>).
    ///
    /// - Parameter all: Whether to give every combination.
    /// - Returns: The policies, the fixture's own first.
    package func explorationPolicies(all: Bool) -> [UpgradePolicy] {
        var policies = [policy]
        for legacy in legacyVersions {
            var adopted = policy
            adopted.freshInstall = .upgradeFrom(legacy)
            if !policies.contains(adopted) { policies.append(adopted) }
        }
        guard all else { return policies }
        var baseline = namedVersions.first ?? Version(major: 1, minor: 0)
        if case .upgradeFrom(let version) = policy.freshInstall { baseline = version }
        for fresh in [UpgradePolicy.FreshInstall.skip, .runAll, .upgradeFrom(baseline)] {
            for downgrade in [UpgradePolicy.Downgrade.keep, .rewind] {
                for giveUp in [nil, 1, 2] as [Int?] {
                    let candidate = UpgradePolicy(freshInstall: fresh, downgrade: downgrade, giveUpAfter: giveUp)
                    if !policies.contains(candidate) { policies.append(candidate) }
                }
            }
        }
        return policies
    }

    /// The histories' `legacyVersion`s, each once, in the order first written.
    var legacyVersions: [Version] {
        var seen = Set<Version>()
        return histories.compactMap(\.legacyVersion).filter { seen.insert($0).inserted }
    }
}

extension Version {
    /// A version just below this one, or `nil` for `0.0`.
    var oneBelow: Version? {
        if patch > 0 { return Version(major: major, minor: minor, patch: patch - 1) }
        if minor > 0 { return Version(major: major, minor: minor - 1) }
        if major > 0 { return Version(major: major - 1, minor: 0) }
        return nil
    }

    /// A version just above this one, or `nil` at the very top of the range.
    var oneAbove: Version? {
        if minor < Version.maximumComponentValue { return Version(major: major, minor: minor + 1) }
        if major < Version.maximumComponentValue { return Version(major: major + 1, minor: 0) }
        return nil
    }
}
