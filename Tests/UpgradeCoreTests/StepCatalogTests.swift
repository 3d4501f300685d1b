import Testing
import UpgradeTestSupport
import VersionKit

@testable import UpgradeCore

/// The catalog puts the registered steps in run order (ascending version, registration order within
/// a version) and reports duplicate ids, whatever order the app registers them in: compared with a
/// reference built with the standard library's stable sort.
@Suite("Step catalog")
struct StepCatalogTests {
    /// What the catalog should hold for some registrations, worked out the obvious way.
    struct Reference {
        /// `declaredAt` of the steps in run order.
        var order: [String] = []
        /// `declaredAt` of (the first, the later registration) of each repeated id, in registration order.
        var duplicates: [[String]] = []
        /// `declaredAt` of the floors, in registration order.
        var floors: [String] = []

        init(_ registered: [UpgradeStep]) {
            var unique: [UpgradeStep] = []
            for step in registered {
                if let first = unique.first(where: { $0.id == step.id }) {
                    duplicates.append([first.declaredAt, step.declaredAt])
                } else {
                    unique.append(step)
                    if step.isFloor { floors.append(step.declaredAt) }
                }
            }
            // The standard library's sort is stable: equal versions keep their registration order.
            order = unique.sorted { $0.version < $1.version }.map(\.declaredAt)
        }
    }

    /// Versions with many ties, `1.0` and `1.0.0` among them (equal versions).
    static let versionPool: [Version] = [
        "0.1", "1.0", "1.0.0", "1.0.1", "1.1", "2.0", "2.0.0", "2.5.3", "3.0", "10.0", "10.0.1", "52.0",
    ]

    /// `count` registrations drawn from a seeded generator: versions from ``versionPool``, some ids
    /// repeated, some floors; each step's `declaredAt` ends with its registration index.
    static func registrations(count: Int, seed: UInt64, sorted: Bool = false) -> [UpgradeStep] {
        var random = SeededRandomNumberGenerator(seed: seed)
        var versions = (0..<count).map { _ in versionPool.randomElement(using: &random)! }
        if sorted { versions.sort() }
        return versions.enumerated().map { index, version in
            // About one registration in eight reuses the id of an earlier one (or the default id).
            let id: String? =
                index > 0 && Int.random(in: 0..<8, using: &random) == 0
                ? "step-\(Int.random(in: 0..<index, using: &random))" : "step-\(index)"
            let step = UpgradeStep(version, id: id, fileID: "Catalog/Registration.swift", line: index) {}
            return Int.random(in: 0..<50, using: &random) == 0 ? step.asFloor() : step
        }
    }

    /// Expects the catalog to hold what the reference says, with its lookups consistent.
    func expectMatches(
        _ catalog: StepCatalog, _ registered: [UpgradeStep], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let reference = Reference(registered)
        #expect(catalog.steps.map(\.declaredAt) == reference.order, sourceLocation: sourceLocation)
        #expect(
            catalog.duplicates.map { [$0.first.declaredAt, $0.second.declaredAt] } == reference.duplicates,
            sourceLocation: sourceLocation)
        #expect(catalog.floors.map(\.declaredAt) == reference.floors, sourceLocation: sourceLocation)
        #expect(catalog.versions == catalog.steps.map(\.version), sourceLocation: sourceLocation)
        #expect(catalog.indexByID.count == catalog.steps.count, sourceLocation: sourceLocation)
        for (index, step) in catalog.steps.enumerated() {
            #expect(catalog.step(withID: step.id)?.declaredAt == step.declaredAt, sourceLocation: sourceLocation)
            #expect(catalog.index(of: step.id) == index, sourceLocation: sourceLocation)
        }
    }

    static let sizes = [0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 69, 100, 257, 1000]

    @Test("steps registered in any order are put in run order, duplicates reported", arguments: sizes)
    func randomOrder(count: Int) {
        for seed in UInt64(0)..<20 {
            let registered = Self.registrations(count: count, seed: seed &* 7919 &+ UInt64(count))
            expectMatches(StepCatalog(registered), registered)
        }
    }

    @Test("steps registered in run order are kept in that order", arguments: sizes)
    func alreadyInRunOrder(count: Int) {
        for seed in UInt64(0)..<20 {
            let registered = Self.registrations(count: count, seed: seed &+ 1000 &* UInt64(count), sorted: true)
            let catalog = StepCatalog(registered)
            expectMatches(catalog, registered)
            // In run order already: the catalog keeps the registration order of the unique steps.
            let uniqueIDs = Set(catalog.steps.map(\.id))
            #expect(uniqueIDs.count == catalog.steps.count)
            let firstRegistrations = registered.filter { step in
                catalog.step(withID: step.id)?.declaredAt == step.declaredAt
            }
            #expect(catalog.steps.map(\.declaredAt) == firstRegistrations.map(\.declaredAt))
        }
    }

    @Test("steps registered in reverse run order are put in run order", arguments: sizes)
    func reverseOrder(count: Int) {
        let registered = Array(Self.registrations(count: count, seed: UInt64(count), sorted: true).reversed())
        expectMatches(StepCatalog(registered), registered)
    }

    @Test("one step out of place, first or last, is moved to its place", arguments: [2, 16, 17, 69])
    func oneOutOfPlace(count: Int) {
        let sorted = Self.registrations(count: count, seed: 42, sorted: true)
        let lastFirst = [sorted[sorted.count - 1]] + sorted.dropLast()
        let firstLast = Array(sorted.dropFirst()) + [sorted[0]]
        expectMatches(StepCatalog(lastFirst), lastFirst)
        expectMatches(StepCatalog(firstLast), firstLast)
    }

    @Test("a catalog built at once equals one built by registering the steps one by one", arguments: sizes)
    func builtAtOnceOrOneByOne(count: Int) {
        for seed in UInt64(0)..<5 {
            let registered = Self.registrations(count: count, seed: seed &+ 77 &* UInt64(count))
            var oneByOne = StepCatalog()
            for step in registered { oneByOne.insert(step) }
            expectMatches(oneByOne, registered)
            let atOnce = StepCatalog(registered)
            #expect(atOnce.steps.map(\.declaredAt) == oneByOne.steps.map(\.declaredAt))
            for step in atOnce.steps {
                #expect(
                    atOnce.index(of: step.id) == oneByOne.index(of: step.id))
            }
        }
    }

    @Test("validate names the first registration and the later one of a repeated id")
    func duplicateReported() {
        let upgrader = Upgrader(store: RecordingStore()) {
            UpgradeStep("3.0", id: "move", fileID: "App/Steps.swift", line: 1) {}
            UpgradeStep("1.0", id: "other", fileID: "App/Steps.swift", line: 2) {}
            UpgradeStep("2.0", id: "move", fileID: "App/Steps.swift", line: 3) {}
            UpgradeStep("0.5", id: "move", fileID: "App/Steps.swift", line: 4) {}
        }
        #expect(upgrader.steps.map(\.declaredAt) == ["App/Steps.swift:2", "App/Steps.swift:1"])
        #expect(throws: UpgradeError.self) { try upgrader.validate() }
        do {
            try upgrader.validate()
        } catch {
            #expect(
                error.message
                    == "two steps have the id \"move\": version 3.0 declared at App/Steps.swift:1 and version 2.0"
                    + " declared at App/Steps.swift:3; give one of them another id")
        }
    }
}
