import Foundation
import Testing
import UpgradeTestSupport
import VersionKit

@testable import UpgradeCore

/// The catalog tells ids apart with `==`, as the upgrader does everywhere, and finds an id written in
/// other code points that is `==` to a registered one.
@Suite("Step ids")
struct StepIDTests {
    /// Pairs of ids that are `==` in Swift but differ in their bytes; the first of each is ASCII when
    /// the pair has an ASCII member.
    static let equalPairs: [(String, String)] = [
        ("Kelvin", "\u{212A}elvin"),  // KELVIN SIGN is canonically K
        ("a;b", "a\u{037E}b"),  // GREEK QUESTION MARK is canonically ;
        ("café", "cafe\u{301}"),  // é in one code point or two
        ("\u{1E69}", "s\u{323}\u{307}"),  // ṩ composed, and with its marks in canonical order
    ]

    @Test("ids that are == in other code points are one id, whichever is registered first", arguments: 0..<4)
    func equalIDsAreDuplicates(pair: Int) {
        let (first, second) = Self.equalPairs[pair]
        #expect(first == second)
        for (a, b) in [(first, second), (second, first)] {
            let catalog = StepCatalog([
                UpgradeStep("1.0", id: "before") {}, UpgradeStep("1.1", id: a) {}, UpgradeStep("2.0", id: b) {},
            ])
            #expect(catalog.steps.map(\.id) == ["before", a])
            #expect(catalog.duplicates.map { [$0.first.id, $0.second.id] } == [[a, b]])
            #expect(catalog.step(withID: b)?.id == a)
            #expect(catalog.index(of: b) == 1)
        }
    }

    @Test("an id that is not ASCII is found among ASCII ids it is == to")
    func lookUpOtherCodePoints() {
        let catalog = StepCatalog([UpgradeStep("1.0", id: "Kelvin") {}, UpgradeStep("1.1", id: "a;b") {}])
        #expect(catalog.step(withID: "\u{212A}elvin")?.id == "Kelvin")
        #expect(catalog.step(withID: "a\u{037E}b")?.id == "a;b")
        #expect(catalog.step(withID: "Kelvim") == nil)
        #expect(catalog.step(withID: "\u{212A}elvim") == nil)
    }

    /// Ids drawn from a pool of ASCII ids, their equal forms in other code points and other text.
    static func idPool() -> [String] {
        var pool = (0..<40).map { String(repeating: "x", count: $0 % 20) + "step-\($0)" }
        for (a, b) in equalPairs { pool += [a, b] }
        pool += ["", "é", "日本語", "appUpgradeTo_1_2", "appUpgradeTo_1_2_0", "step-1\u{0}"]
        return pool
    }

    @Test("registering one by one finds every id", arguments: 0..<20)
    func randomRegistrations(seed: Int) {
        var random = SeededRandomNumberGenerator(seed: UInt64(seed))
        let pool = Self.idPool()
        var catalog = StepCatalog()
        var registered: [String] = []
        for index in 0..<80 {
            let version = Version(major: Int.random(in: 0..<5, using: &random), minor: index % 7)
            // Some steps take their default id (a step's or, as a floor, a floor's).
            let step: UpgradeStep
            switch Int.random(in: 0..<6, using: &random) {
            case 0: step = UpgradeStep(version) {}
            case 1: step = UpgradeStep(version) {}.asFloor()
            default: step = UpgradeStep(version, id: pool.randomElement(using: &random)!) {}
            }
            let id = step.id
            catalog.insert(step)
            if !registered.contains(where: { $0 == id }) { registered.append(id) }
            // Every id of the pool is found exactly when an == id was registered, at its run position.
            for candidate in pool + registered + ["appUpgradeTo_9_9", "upgradeFloor_0_0", "appUpgradeTo_1_1_0"] {
                let expected = registered.first { $0 == candidate }
                let found = catalog.step(withID: candidate)
                #expect(found?.id == expected, "\(candidate) after \(registered)")
                if let found {
                    let position = catalog.index(of: candidate)
                    #expect(position.map { catalog.steps[$0].id } == found.id)
                }
            }
        }
        #expect(catalog.steps.count == registered.count)
        let atOnce = StepCatalog(catalog.steps)
        #expect(atOnce.duplicates.isEmpty)
        #expect(atOnce.steps.map(\.id) == catalog.steps.map(\.id))
    }

    @Test("a default id and the same text given as an id are one id")
    func defaultAndExplicitSameText() {
        let catalog = StepCatalog([
            UpgradeStep("1.2") {}, UpgradeStep("3.0", id: "appUpgradeTo_1_2") {},
            UpgradeStep("4.0", id: "upgradeFloor_2_0") {}, UpgradeStep("2.0") {}.asFloor(),
        ])
        #expect(
            catalog.duplicates.map { [$0.first.id, $0.second.id] } == [
                ["appUpgradeTo_1_2", "appUpgradeTo_1_2"], ["upgradeFloor_2_0", "upgradeFloor_2_0"],
            ])
        #expect(catalog.step(withID: "appUpgradeTo_1_2")?.version == "1.2")
        #expect(catalog.step(withID: "appUpgradeTo_1_2_0") == nil)
    }
}
