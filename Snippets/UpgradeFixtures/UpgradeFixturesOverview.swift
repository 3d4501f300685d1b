// The samples of the UpgradeFixtures overview,
// Modules/UpgradeFixtures/UpgradeFixtures.docc/UpgradeFixtures.md.

// snippet.replay
import UpgradeFixtures
import UpgradeReplay
// snippet.hide
import UpgradeStorage
import VersionKit

// snippet.show

let loaded = FixtureLoader.load(paths: ["Fixtures"])
for error in loaded.errors { print(error) }  // Fixtures/x.json: histories[2].launches[0]: ...
let report = try await ReplayReport.replay(loaded.fixtures)
for mismatch in report.mismatches { print(mismatch) }  // what a launch did that its expectation did not say
print(report.summaryLine)  // 12 passed, 0 failed
// snippet.end

func launchByHand(fixture: Fixture) async throws {
    // snippet.show
    // snippet.launch-loop
    let app = fixture.app
    var store = InMemoryUpgradeStore()
    for version in ["1.0", "2.0", "2.0"] as [Version] {
        let observation = try await app.launch(at: version, store: store)
        if store.processDied { store = InMemoryUpgradeStore(state: store.state) }
        print(observation)  // crashed through 1.0, ran [appUpgradeTo_2_0], abandoned []
    }
    // snippet.hide
}
