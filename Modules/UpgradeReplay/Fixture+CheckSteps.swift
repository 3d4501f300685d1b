import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

extension Fixture {
    /// Checks that the fixture describes the app's real steps: the same ids, with the same versions,
    /// in the same run order, so that a fixture cannot drift from the code it stands for.
    ///
    /// Call it in the app's tests, with the app's own ``/UpgradeCore/Upgrader`` (over any store: only
    /// its steps are read):
    ///
    /// ```swift
    /// let fixture = try FixtureLoader.load(file: "Fixtures/notes-app.json")
    /// try fixture.checkSteps(against: Upgrader.forNotesApp(store: InMemoryUpgradeStore()))
    /// ```
    ///
    /// Both lists are compared in run order: ascending version, and the order written (in the
    /// fixture) or registered (in the app) within a version. Versions compare by value, so `8.8` in
    /// the fixture matches `8.8.0` in the app. The floor is compared like a step, and must be the
    /// floor on both sides. The fixture's behaviours, policy and histories are not compared.
    ///
    /// A fixture whose steps carry releases (`since`, `until`) describes several builds of the app;
    /// give the version of the build the upgrader is, and the fixture's build of that version is
    /// compared (the steps and the floor whose `since` <= version <= `until`).
    ///
    /// - Parameters:
    ///   - upgrader: The app's upgrader, with its steps registered.
    ///   - version: The app version whose build the upgrader is; by default, the fixture's newest
    ///     build (every step without an `until`).
    /// - Throws: ``StepListMismatchError`` listing every difference; `UpgradeError` when the upgrader's
    ///   configuration is invalid (``/UpgradeCore/Upgrader/validate()``), such as two steps sharing an id.
    public func checkSteps(against upgrader: Upgrader, at version: Version? = nil) throws {
        try upgrader.validate()
        // The fixture's run order in that build, by the engine's own ordering rules.
        let build =
            version.map { app.makeUpgrader(store: InMemoryUpgradeStore(), at: $0) }
            ?? app.makeUpgrader(store: InMemoryUpgradeStore(), build: app.releases.buildOfSegment.last ?? 0)
        let fixtureList = build.steps.map { (Self.label($0), $0.version) }
        let appList = upgrader.steps.map { (Self.label($0), $0.version) }
        let differences = Self.differences(fixture: fixtureList, app: appList)
        if !differences.isEmpty { throw StepListMismatchError(fixture: file ?? name, differences: differences) }
    }

    /// A step's id as the comparison names it: a floor is marked, so that a floor on one side and a
    /// plain step on the other differ.
    private static func label(_ step: UpgradeStep) -> String { step.isFloor ? "\(step.id) (the floor)" : step.id }

    /// The differences between two step lists in run order, one sentence each.
    static func differences(fixture: [(id: String, version: Version)], app: [(id: String, version: Version)])
        -> [String]
    {
        let fixtureVersions = Dictionary(fixture.map { ($0.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        let appVersions = Dictionary(app.map { ($0.id, $0.version) }, uniquingKeysWith: { first, _ in first })
        var differences: [String] = []
        for step in app where fixtureVersions[step.id] == nil {
            differences.append("the app registers \"\(step.id)\" (\(step.version)), which the fixture does not list")
        }
        for step in fixture where appVersions[step.id] == nil {
            differences.append("the fixture lists \"\(step.id)\" (\(step.version)), which the app does not register")
        }
        for step in fixture {
            if let appVersion = appVersions[step.id], appVersion != step.version {
                differences.append(
                    "\"\(step.id)\" has version \(step.version) in the fixture but \(appVersion) in the app")
            }
        }
        // The steps both list with one version, in run order: both lists are sorted by version, so they
        // can differ only within a version, where the order written or registered decides.
        let agreed = { (steps: [(id: String, version: Version)]) in
            steps.filter { step in fixtureVersions[step.id] == step.version && appVersions[step.id] == step.version }
        }
        let fixtureOrder = agreed(fixture)
        let appOrder = agreed(app)
        var index = 0
        while index < fixtureOrder.count {
            let version = fixtureOrder[index].version
            var end = index
            while end < fixtureOrder.count, fixtureOrder[end].version == version { end += 1 }
            let inFixture = fixtureOrder[index..<end].map(\.id)
            let inApp = appOrder[index..<end].map(\.id)
            if inFixture != inApp {
                differences.append(
                    "at version \(version) the fixture runs \(Self.list(inFixture)) but the app runs \(Self.list(inApp));"
                        + " steps of one version run in the order they are written or registered")
            }
            index = end
        }
        return differences
    }

    private static func list(_ ids: [String]) -> String {
        ids.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
