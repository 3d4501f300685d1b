import VersionKit

/// The registered steps in run order (ascending version, registration order within a version), with
/// the lookups a launch needs: a binary search for the steps between two versions and an id index.
///
/// Ids are keys of a `Dictionary`, so they compare as Swift strings do (`==`): `é` written as one
/// scalar or as `e` and a combining accent is one id.
struct StepCatalog: Sendable {
    private(set) var steps: [UpgradeStep] = []
    /// The version of each step, by index (kept beside `steps`): what the binary searches read.
    private(set) var versions: [Version] = []
    /// The run position of each step's id.
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
        reindex()
    }

    /// The index of the first step whose version is above `version`, found by binary search.
    func firstIndex(above version: Version) -> Int { versions.firstIndex(above: version) }

    /// The range of steps with `mark < version <= current` (any version <= current when `mark` is nil).
    func range(above mark: Version?, through current: Version) -> Range<Int> {
        let lower = mark.map(firstIndex(above:)) ?? 0
        let upper = firstIndex(above: current)
        return lower < upper ? lower..<upper : lower..<lower
    }

    /// The step with an id `==` to `id`.
    func step(withID id: String) -> UpgradeStep? { indexByID[id].map { steps[$0] } }

    /// The index of the step with an id `==` to `id`.
    func index(of id: String) -> Int? { indexByID[id] }

    /// Makes ``indexByID`` again from ``steps``.
    private mutating func reindex() {
        indexByID = Dictionary(uniqueKeysWithValues: steps.indices.map { (steps[$0].id, $0) })
    }
}

extension StepCatalog {
    /// Builds a catalog from steps in registration order: the first registration of an id is kept
    /// (a later one is a duplicate), then the steps are sorted by version, stably.
    init(_ registered: [UpgradeStep]) {
        var unique: [UpgradeStep] = []
        unique.reserveCapacity(registered.count)
        var firstByID = [String: Int](minimumCapacity: registered.count)
        for step in registered {
            if let first = firstByID[step.id] {
                duplicates.append((unique[first], step))
                continue
            }
            firstByID[step.id] = unique.count
            if step.isFloor { floors.append(step) }
            unique.append(step)
        }
        // Apps list their steps in version order, and then nothing moves and the positions of
        // `firstByID` are the run positions; the stable sort is for the rest.
        if unique.indices.dropFirst().allSatisfy({ unique[$0 - 1].version <= unique[$0].version }) {
            steps = unique
            indexByID = firstByID
        } else {
            steps = unique.indices.sorted { (unique[$0].version, $0) < (unique[$1].version, $1) }.map { unique[$0] }
            reindex()
        }
        versions = steps.map(\.version)
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
