import VersionKit

/// The builds of a simulated app: which of its steps (and whether its floor) the build of each app
/// version contains, from the steps' `since` and `until`.
///
/// The build of version C has the steps with `since <= C <= until`. It changes only at a `since`
/// and just above an `until` (``Version/successor``), so the version line is cut into segments at
/// those boundaries, and each segment has one build. Segments with equal contents share a build.
/// A fixture without `since` or `until` has one build, all of its steps.
package struct Releases: Sendable, Hashable {
    /// One build: the indices of its steps (in declaration order) and whether it has the floor.
    package struct Build: Sendable, Hashable {
        /// Indices into the app's steps, ascending.
        package var steps: [Int]
        /// Whether the build has the floor.
        package var hasFloor: Bool
    }

    /// Where the build may change, ascending, each value once.
    package let boundaries: [Version]
    /// The build of each segment: 0 below the first boundary, i from `boundaries[i - 1]` up to the next.
    package let buildOfSegment: [Int]
    /// The distinct builds, in the order of the segments where they first appear.
    package let builds: [Build]

    package init(steps: [ScriptedStep], floor: ScriptedStep?) {
        var cuts = Set<Version>()
        for step in steps + (floor.map { [$0] } ?? []) {
            if let since = step.since { cuts.insert(since) }
            if let until = step.until, let next = until.successor { cuts.insert(next) }
        }
        boundaries = cuts.sorted()
        var builds: [Build] = []
        var segments: [Int] = []
        for segment in 0...boundaries.count {
            // Below the first boundary, only the steps without `since` are in (every `until` lies above).
            let contains: (ScriptedStep) -> Bool =
                segment == 0 ? { $0.since == nil } : { [boundaries] in $0.isInBuild(of: boundaries[segment - 1]) }
            let build = Build(
                steps: steps.indices.filter { contains(steps[$0]) }, hasFloor: floor.map(contains) ?? false)
            if let known = builds.firstIndex(of: build) {
                segments.append(known)
            } else {
                segments.append(builds.count)
                builds.append(build)
            }
        }
        buildOfSegment = segments
        self.builds = builds
    }

    /// The index in ``builds`` of the build of app version `version`.
    package func build(at version: Version) -> Int {
        if boundaries.isEmpty { return 0 }
        // The number of boundaries at or below `version` is its segment.
        var low = 0
        var high = boundaries.count
        while low < high {
            let middle = (low + high) / 2
            if boundaries[middle] <= version { low = middle + 1 } else { high = middle }
        }
        return buildOfSegment[low]
    }
}
