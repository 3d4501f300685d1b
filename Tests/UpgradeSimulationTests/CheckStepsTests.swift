import Foundation
import Testing
import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import UpgradeStorage
import VersionKit

/// `Fixture.checkSteps(against:)`: a fixture's steps against an app's real upgrader.
@Suite("Fixture steps against the app's upgrader")
struct CheckStepsTests {
    /// The app: its real steps, as an app declares them.
    static func appUpgrader() -> Upgrader {
        Upgrader(store: InMemoryUpgradeStore()) {
            UpgradeStep("1.1") {}
            UpgradeStep("2.0", id: "settings-to-json", summary: "move the settings") {}
            UpgradeStep("2.0", id: "reindex") {}
            UpgradeStep("2.1", id: "rename-note-text-key") {}
        }
    }

    static func fixture(_ steps: [ScriptedStep], file: String? = "Fixtures/app.json") -> Fixture {
        Fixture(name: "app", steps: steps, file: file)
    }

    static let matching: [ScriptedStep] = [
        ScriptedStep(version: "1.1"),
        ScriptedStep(version: "2.0", id: "settings-to-json", behavior: .failTimes(1)),
        ScriptedStep(version: "2.0", id: "reindex"),
        ScriptedStep(version: "2.1", id: "rename-note-text-key", behavior: .crash),
    ]

    static func mismatch(_ steps: [ScriptedStep], file: String? = "Fixtures/app.json") -> StepListMismatchError? {
        #expect(throws: StepListMismatchError.self) {
            try fixture(steps, file: file).checkSteps(against: appUpgrader())
        }
    }

    @Test("the same ids, versions and order pass, whatever the behaviours and however the file is ordered")
    func matches() throws {
        try Self.fixture(Self.matching).checkSteps(against: Self.appUpgrader())
        // Written out of version order, with 1.1.0 for 1.1: the run order is the same.
        let shuffled = [
            Self.matching[3], Self.matching[1], ScriptedStep(version: "1.1.0", id: "appUpgradeTo_1_1"),
            Self.matching[2],
        ]
        try Self.fixture(shuffled).checkSteps(against: Self.appUpgrader())
    }

    @Test("a step the fixture does not list is named, with its version")
    func missingFromFixture() {
        let error = Self.mismatch(Array(Self.matching.dropLast()))
        #expect(
            error?.differences == [
                "the app registers \"rename-note-text-key\" (2.1), which the fixture does not list"
            ])
        #expect(
            error?.description
                == """
                Fixtures/app.json: the steps differ from the app's:
                  - the app registers "rename-note-text-key" (2.1), which the fixture does not list
                """)
    }

    @Test("a step the app does not register is named; a fixture made in code is named by its name")
    func missingFromApp() {
        let error = Self.mismatch(Self.matching + [ScriptedStep(version: "2.2", id: "gone")], file: nil)
        #expect(error?.fixture == "app")
        #expect(error?.differences == ["the fixture lists \"gone\" (2.2), which the app does not register"])
    }

    @Test("a version that differs is named on both sides")
    func versionDiffers() {
        var steps = Self.matching
        steps[3] = ScriptedStep(version: "2.2", id: "rename-note-text-key")
        let error = Self.mismatch(steps)
        #expect(error?.differences == ["\"rename-note-text-key\" has version 2.2 in the fixture but 2.1 in the app"])
    }

    @Test("steps of one version in another order are named, in both orders")
    func orderDiffers() {
        let steps = [Self.matching[0], Self.matching[2], Self.matching[1], Self.matching[3]]
        let error = Self.mismatch(steps)
        #expect(
            error?.differences == [
                "at version 2.0 the fixture runs \"reindex\", \"settings-to-json\" but the app runs"
                    + " \"settings-to-json\", \"reindex\"; steps of one version run in the order they are"
                    + " written or registered"
            ])
    }

    @Test("every difference is listed at once")
    func allDifferences() {
        let steps = [
            ScriptedStep(version: "1.0"),
            ScriptedStep(version: "2.0", id: "reindex"),
            ScriptedStep(version: "2.0", id: "settings-to-json"),
            ScriptedStep(version: "2.2", id: "rename-note-text-key"),
        ]
        let error = Self.mismatch(steps)
        #expect(
            error?.differences.map { String($0.prefix(40)) } == [
                "the app registers \"appUpgradeTo_1_1\" (1.", "the fixture lists \"appUpgradeTo_1_0\" (1.",
                "\"rename-note-text-key\" has version 2.2 i", "at version 2.0 the fixture runs \"reindex",
            ])
        #expect(error?.description.split(separator: "\n").count == 5)
    }

    @Test("an app whose configuration is invalid is reported as such")
    func invalidApp() {
        let upgrader = Upgrader(store: InMemoryUpgradeStore()) {
            UpgradeStep("1.1", id: "twice") {}
            UpgradeStep("1.2", id: "twice") {}
        }
        let error = #expect(throws: UpgradeError.self) {
            try Self.fixture([ScriptedStep(version: "1.1", id: "twice")]).checkSteps(against: upgrader)
        }
        #expect(error?.code == .duplicateStepID)
    }

    @Test("a fixture read from JSON matches an app that declares the same steps in another order")
    func fromJSON() throws {
        let fixture = try decodeFixture(
            fixtureJSON(
                steps: """
                    [{"version": "1.1"}, {"id": "move-settings", "version": "2.0", "behavior": {"failTimes": 1}}]
                    """))
        let upgrader = Upgrader(store: InMemoryUpgradeStore()) {
            UpgradeStep("2.0", id: "move-settings") {}
            UpgradeStep("1.1") {}
        }
        try fixture.checkSteps(against: upgrader)
    }
}

@Suite("Fixture.checkSteps: builds and the floor")
struct CheckStepsBuildsTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/39-floor-after-three-releases.json")

    @Test("the app's build is compared with the fixture's build of its version, the floor included")
    func buildWithFloor() throws {
        let fixture = try FixtureLoader.load(file: Self.fixture.path)
        // 3.1: the steps up to 2.0 retired behind the floor at 2.0.
        let release = Upgrader(store: InMemoryUpgradeStore()) {
            UpgradeStep("2.0") {}.asFloor()
            UpgradeStep("3.0") {}
            UpgradeStep("3.1") {}
        }
        try fixture.checkSteps(against: release)
        try fixture.checkSteps(against: release, at: "3.1")
        // 3.0: the old steps, no floor yet (3.1's step, with no `since`, is in every build).
        let older = Upgrader(store: InMemoryUpgradeStore()) {
            UpgradeStep("1.1") {}
            UpgradeStep("2.0") {}
            UpgradeStep("2.0", id: "move-settings") {}
            UpgradeStep("3.0") {}
            UpgradeStep("3.1") {}
        }
        try fixture.checkSteps(against: older, at: "3.0")
        #expect(throws: StepListMismatchError.self) { try fixture.checkSteps(against: older) }
    }

    @Test("a floor on one side and a plain step on the other differ")
    func floorMustBeAFloor() throws {
        let fixture = try FixtureLoader.load(file: Self.fixture.path)
        let plain = Upgrader(store: InMemoryUpgradeStore()) {
            UpgradeStep("2.0", id: "upgradeFloor_2_0") {}
            UpgradeStep("3.0") {}
            UpgradeStep("3.1") {}
        }
        let mismatch = #expect(throws: StepListMismatchError.self) { try fixture.checkSteps(against: plain) }
        #expect("\(mismatch.map { "\($0)" } ?? "")".contains("the floor"))
    }
}
