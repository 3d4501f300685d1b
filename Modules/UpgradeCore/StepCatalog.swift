import VersionKit

/// The registered steps in run order (ascending version, registration order within a version), with
/// the lookups a launch needs: a binary search for the steps between two versions and an id index.
struct StepCatalog: Sendable {
    private(set) var steps: [UpgradeStep] = []
    /// The version of each step, by index (kept beside `steps`): what the binary searches read,
    /// packed together.
    private(set) var versions: [Version] = []
    private(set) var indexByID: [String: Int] = [:]
    /// Pairs of registrations that share an id: (the first, the later one).
    private(set) var duplicates: [(first: UpgradeStep, second: UpgradeStep)] = []
    /// The steps registered as floors (``UpgradeStep/asFloor()``), in registration order; one at most
    /// in a valid catalog.
    private(set) var floors: [UpgradeStep] = []

    /// Inserts a step after every registered step of the same or a lower version.
    mutating func insert(_ step: UpgradeStep) {
        if let existing = indexByID[step.id] {
            duplicates.append((steps[existing], step))
            return
        }
        if step.isFloor { floors.append(step) }
        let position = firstIndex(above: step.version)
        steps.insert(step, at: position)
        versions.insert(step.version, at: position)
        if position == steps.count - 1 {
            indexByID[step.id] = position
        } else {
            for index in position..<steps.count { indexByID[steps[index].id] = index }
        }
    }

    /// The index of the first step whose version is above `version`, found by binary search.
    func firstIndex(above version: Version) -> Int { versions.firstIndex(above: version) }

    /// The range of steps with `mark < version <= current` (any version <= current when `mark` is nil).
    func range(above mark: Version?, through current: Version) -> Range<Int> {
        let lower = mark.map(firstIndex(above:)) ?? 0
        let upper = firstIndex(above: current)
        return lower < upper ? lower..<upper : lower..<lower
    }

    func step(withID id: String) -> UpgradeStep? { indexByID[id].map { steps[$0] } }

    /// The index of the step with this id, looked up first among the steps of `version` (a binary
    /// search and a few id comparisons, no hashing), then by id for a step whose version changed.
    func index(of id: String, version: Version) -> Int? {
        var index = firstIndex(above: version) - 1
        while index >= 0 && versions[index] == version {
            if steps[index].id.isSameStepID(as: id) { return index }
            index -= 1
        }
        return indexByID[id]
    }
}

extension StepCatalog {
    /// Builds a catalog from steps in registration order, sorting them once.
    init(_ registered: [UpgradeStep]) {
        var unique: [UpgradeStep] = []
        unique.reserveCapacity(registered.count)
        var seen: [String: Int] = [:]
        seen.reserveCapacity(registered.count)
        for step in registered {
            if let first = seen[step.id] {
                duplicates.append((unique[first], step))
            } else {
                seen[step.id] = unique.count
                unique.append(step)
                if step.isFloor { floors.append(step) }
            }
        }
        // Stable: equal versions keep their registration order.
        let order = unique.indices.sorted { a, b in
            unique[a].version != unique[b].version ? unique[a].version < unique[b].version : a < b
        }
        steps = order.map { unique[$0] }
        versions = steps.map(\.version)
        indexByID.reserveCapacity(steps.count)
        for (index, step) in steps.enumerated() { indexByID[step.id] = index }
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
