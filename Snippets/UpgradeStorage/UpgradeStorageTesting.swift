// The test sample of Modules/UpgradeStorage/UpgradeStorage.docc/GettingStarted.md.

// snippet.in-memory-test
import Testing
import UpgradeCore
import UpgradeStorage

@Test func aFailedWriteRecordsNothing() async throws {
    let store = InMemoryUpgradeStore()
    let upgrader = Upgrader(store: store) {
        UpgradeStep("2.0", id: "settings-to-json") { try migrateSettings() }
    }
    _ = try await upgrader.run(currentVersion: "1.0")  // a fresh install: nothing runs
    store.failWrite(number: 2)  // the write after the step fails
    await #expect(throws: UpgradeStoreError.self) {
        try await upgrader.run(currentVersion: "2.0")
    }
    // Nothing is recorded as done that is not.
    #expect(store.state?.upgradedThrough == "1.0")
}
// snippet.end

// snippet.hide
func migrateSettings() throws {}
