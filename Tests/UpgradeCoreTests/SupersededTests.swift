import Testing
import UpgradeCore
import VersionKit

/// `Upgrader.hasBeenSuperseded(currentVersion:)`: whether a newer version of the app wrote the state.
@Suite("Superseded")
struct SupersededTests {
    @Test(
        "hasBeenSuperseded is true when the last launch or the mark is above the running version",
        arguments: [
            // (stored mark, stored last launch, running version, expected)
            ("1.2", "1.2", "1.2", false),
            ("1.2", "1.2", "1.2.0", false),
            ("1.2", "1.2", "1.3", false),
            ("1.2", "1.3", "1.2.1", true),
            ("2.0", "1.5", "1.5", true),
            ("1.0", "1.0.1", "1.0", true),
        ] as [(Version, Version, Version, Bool)])
    func superseded(mark: Version, last: Version, running: Version, expected: Bool) throws {
        let store = RecordingStore(UpgradeState(upgradedThrough: mark, lastLaunched: last))
        let upgrader = makeUpgrader(store: store, steps: [])
        #expect(try upgrader.hasBeenSuperseded(currentVersion: running) == expected)
        #expect(store.saves.isEmpty)
        #expect(store.lockCount == 0)
    }

    @Test("with no state stored, nothing has superseded the app")
    func supersededFresh() throws {
        let upgrader = makeUpgrader(store: RecordingStore(), steps: [])
        #expect(try upgrader.hasBeenSuperseded(currentVersion: "1.0") == false)
    }

    @Test("hasBeenSuperseded reports a store that cannot be read")
    func supersededUnreadable() throws {
        let store = RecordingStore(settledState(at: "1.0"))
        store.failLoads(with: StoreFault(write: 0, afterDeath: false))
        let upgrader = makeUpgrader(store: store, steps: [])
        #expect(throws: StoreFault.self) { try upgrader.hasBeenSuperseded(currentVersion: "1.0") }
    }

    @Test("after a downgrade under keep, the mark says the state was superseded")
    func supersededAfterDowngrade() async throws {
        let store = RecordingStore(settledState(at: "2.0"))
        let upgrader = makeUpgrader(store: store, steps: [])
        #expect(try await upgrader.run(currentVersion: "1.5").outcome == .downgraded)
        #expect(store.state?.lastLaunched == "1.5")
        #expect(try upgrader.hasBeenSuperseded(currentVersion: "1.5"))
        #expect(try upgrader.hasBeenSuperseded(currentVersion: "2.0") == false)
    }
}
