import UpgradeCore
import UpgradeFixtures
import VersionKit

/// The fixture's steps and floor in run order, with their ids, versions and builds by run index. A
/// class, so that the trackers the walk copies at every branch share it for one reference count.
final class ExplorationCatalog: Sendable {
    let ids: [String]
    let versions: [Version]
    /// Each step's `since` and `until`, by run index.
    let since: [Version?]
    let until: [Version?]
    /// The findings each step's `allow` list accepts, by run index.
    let allowed: [Set<FindingKind>]
    /// The run index of the floor, or -1.
    let floorIndex: Int
    /// Which build each version runs.
    let releases: Releases
    /// The members of each build (by its index in ``Releases/builds``), as run indices.
    let builds: [StepSet]
    /// Whether builds differ (some step or the floor has `since` or `until`).
    let hasReleases: Bool
    private let indexByID: [String: Int]

    /// Makes the catalog of steps and a floor; the floor comes first among the steps of its version.
    init(steps: [ScriptedStep], floor: ScriptedStep? = nil) {
        // The floor is declared before every step, so that it sorts first within its version.
        let declared = (floor.map { [$0] } ?? []) + steps
        let order = declared.indices.sorted { a, b in
            declared[a].version != declared[b].version ? declared[a].version < declared[b].version : a < b
        }
        ids = order.map { declared[$0].id }
        versions = order.map { declared[$0].version }
        since = order.map { declared[$0].since }
        until = order.map { declared[$0].until }
        allowed = order.map { declared[$0].allow }
        floorIndex = floor == nil ? -1 : order.firstIndex(of: 0)!
        let indexByID = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
        self.indexByID = indexByID
        let releases = Releases(steps: steps, floor: floor)
        self.releases = releases
        hasReleases = !releases.boundaries.isEmpty
        builds = releases.builds.map { build in
            var members = StepSet(count: order.count)
            for index in build.steps { members.insert(indexByID[steps[index].id]!) }
            if build.hasFloor, let floor { members.insert(indexByID[floor.id]!) }
            return members
        }
    }

    var count: Int { ids.count }

    func index(of id: String) -> Int? { indexByID[id] }

    /// The index of the first step above `version`, by binary search (the versions are sorted).
    func firstIndex(above version: Version) -> Int { versions.firstIndex(above: version) }
}
