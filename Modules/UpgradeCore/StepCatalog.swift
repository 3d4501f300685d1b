import VersionKit

/// The registered steps in run order (ascending version, registration order within a version), with
/// the lookups a launch needs: a binary search for the steps between two versions and an id index.
struct StepCatalog: Sendable {
    private(set) var steps: [UpgradeStep] = []
    /// The version of each step, by index (kept beside `steps`): what the binary searches read,
    /// packed together.
    private(set) var versions: [Version] = []
    /// The run position of each step's id.
    private(set) var indexByID = StepIDIndex()
    /// Pairs of registrations that share an id: (the first, the later one).
    private(set) var duplicates: [(first: UpgradeStep, second: UpgradeStep)] = []
    /// The steps registered as floors (``UpgradeStep/asFloor()``), in registration order; one at most
    /// in a valid catalog.
    private(set) var floors: [UpgradeStep] = []

    /// Inserts a step after every registered step of the same or a lower version.
    mutating func insert(_ step: UpgradeStep) {
        if let existing = indexByID.position(of: step.id, idAt: { steps[$0].id }) {
            duplicates.append((steps[existing], step))
            return
        }
        if step.isFloor { floors.append(step) }
        let position = firstIndex(above: step.version)
        if position < steps.count { indexByID.remapPositions { $0 >= position ? $0 + 1 : $0 } }
        steps.insert(step, at: position)
        versions.insert(step.version, at: position)
        indexByID.add(step.id, at: position) { steps[$0].id }
    }

    /// The index of the first step whose version is above `version`, found by binary search.
    func firstIndex(above version: Version) -> Int { versions.firstIndex(above: version) }

    /// The range of steps with `mark < version <= current` (any version <= current when `mark` is nil).
    func range(above mark: Version?, through current: Version) -> Range<Int> {
        let lower = mark.map(firstIndex(above:)) ?? 0
        let upper = firstIndex(above: current)
        return lower < upper ? lower..<upper : lower..<lower
    }

    func step(withID id: String) -> UpgradeStep? { indexByID.position(of: id) { steps[$0].id }.map { steps[$0] } }

    /// The index of the step with this id, looked up first among the steps of `version` (a binary
    /// search and a few id comparisons, no hashing), then by id for a step whose version changed.
    func index(of id: String, version: Version) -> Int? {
        var index = firstIndex(above: version) - 1
        while index >= 0 && versions[index] == version {
            if steps[index].hasID(id) { return index }
            index -= 1
        }
        return indexByID.position(of: id) { steps[$0].id }
    }
}

extension StepCatalog {
    /// Builds a catalog from steps in registration order.
    ///
    /// Every cost here is paid at each cold start of the app, most of it once per process by the Swift
    /// runtime (type metadata, protocol conformances), so it keeps to types the launch uses anyway:
    /// each id is hashed once, steps registered in run order (the common case) are not sorted at all,
    /// and others are sorted by a small merge sort over indices rather than the standard library's
    /// sort, whose first call instantiates metadata for its internal types.
    init(_ registered: [UpgradeStep]) {
        // The unique steps in registration order: `registered` itself (its buffer shared, not copied)
        // unless an id repeats, which is a configuration error.
        var unique = registered
        var kept = 0
        // The index in `unique` of each unique step's id.
        var seen = StepIDIndex(capacity: registered.count)
        var inRunOrder = true
        for index in 0..<registered.count {
            if let first = seen.insert(
                registered[index].id, at: kept,
                defaultFor: registered[index].hasDefaultID
                    ? (registered[index].version, registered[index].isFloor) : nil,
                idAt: { unique[$0].id })
            {
                // A duplicate: the first registration keeps its place.
                duplicates.append((unique[first], registered[index]))
                continue
            }
            if kept != index { unique[kept] = registered[index] }
            if kept > 0 && unique[kept].version < unique[kept - 1].version { inRunOrder = false }
            if unique[kept].isFloor { floors.append(unique[kept]) }
            kept += 1
        }
        if kept < unique.count { unique.removeLast(unique.count - kept) }
        if inRunOrder {
            steps = unique
        } else {
            let order = Self.runOrder(unique)
            steps = order.map { unique[$0] }
            // The inverse permutation: the run position of each unique step.
            var position = [Int](repeating: 0, count: order.count)
            for runIndex in 0..<order.count { position[order[runIndex]] = runIndex }
            // The same slots, with run positions: no id is hashed again.
            seen.remapPositions { position[$0] }
        }
        indexByID = seen
        versions = steps.map { $0.version }
    }

    /// The indices of `steps` in run order: ascending version, and equal versions in the order of
    /// their indices (a stable sort).
    ///
    /// A merge sort over `Int` indices, with insertion sort for short runs, written out so as to use
    /// only `[Int]`; the standard library's stable sort instantiates the metadata of its internal
    /// types at its first call in a process, which costs more than sorting a few hundred steps.
    static func runOrder(_ steps: [UpgradeStep]) -> [Int] {
        let versions = steps.map { $0.version }
        let count = versions.count
        var order = [Int](repeating: 0, count: count)
        for index in 0..<count { order[index] = index }
        guard count > 1 else { return order }
        // Insertion sort of each run of `width` indices: stable, as it only moves an index past
        // strictly greater versions.
        let width = 16
        var runStart = 0
        while runStart < count {
            let runEnd = min(runStart + width, count)
            var next = runStart + 1
            while next < runEnd {
                let moving = order[next]
                var slot = next
                while slot > runStart && versions[moving] < versions[order[slot - 1]] {
                    order[slot] = order[slot - 1]
                    slot -= 1
                }
                order[slot] = moving
                next += 1
            }
            runStart = runEnd
        }
        // Merge runs of doubling width; a tie takes the left run's index first (stable).
        var merged = [Int](repeating: 0, count: count)
        var runWidth = width
        while runWidth < count {
            var low = 0
            while low < count {
                let middle = min(low + runWidth, count)
                let high = min(low + 2 * runWidth, count)
                var left = low
                var right = middle
                var out = low
                while left < middle && right < high {
                    if versions[order[right]] < versions[order[left]] {
                        merged[out] = order[right]
                        right += 1
                    } else {
                        merged[out] = order[left]
                        left += 1
                    }
                    out += 1
                }
                while left < middle {
                    merged[out] = order[left]
                    left += 1
                    out += 1
                }
                while right < high {
                    merged[out] = order[right]
                    right += 1
                    out += 1
                }
                low = high
            }
            swap(&order, &merged)
            runWidth *= 2
        }
        return order
    }
}

extension StepCatalog {
    /// The first fault of the floor: a second floor, or a step at or below the floor's version.
    ///
    /// - Returns: A sentence naming the steps, or `nil` when the floor (if any) is used well.
    func floorFault() -> String? {
        guard let floor = floors.first else { return nil }
        if floors.count > 1 {
            let second = floors[1]
            return "two floors: \(floor.id) (\(floor.version)) declared at \(floor.declaredAt) and \(second.id)"
                + " (\(second.version)) declared at \(second.declaredAt); an upgrader has one floor"
        }
        // Steps are sorted by version: a step at or below the floor sorts before the end of its version.
        for index in 0..<firstIndex(above: floor.version) where steps[index].id != floor.id {
            let step = steps[index]
            return "\(step.id) (\(step.version)) declared at \(step.declaredAt) is at or below the floor"
                + " \(floor.id) (\(floor.version)) declared at \(floor.declaredAt); the floor stands in for every"
                + " step at or below it, so delete the step or give it a version above the floor"
        }
        return nil
    }
}
