import Testing
import UpgradeCore

/// A store whose state cannot be read, whatever the reason (a document of a newer format, a corrupt
/// one, an unreadable file), stops the launch: taking it for a fresh install would skip every step
/// forever.
@Suite("UnreadableError store")
struct UnreadableStoreTests {
    @Test(
        "a store that cannot be read stops the launch: nothing runs and nothing is written",
        arguments: [
            UpgradeStoreError.Code.unsupportedFormat(found: 3, supported: 2), .corrupt, .unreadable,
        ])
    func unreadableStoreStopsTheLaunch(code: UpgradeStoreError.Code) async throws {
        let readError = UpgradeStoreError(code: code, location: "s", detail: "cannot be used; it is left as it is")
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        store.failLoads(with: readError)
        let upgrader = makeUpgrader(store: store, steps: [journal.step("1.1", id: "a")])

        let error = await #expect(throws: UpgradeStoreError.self) { try await upgrader.run(currentVersion: "1.1") }

        #expect(error?.code == code)
        #expect(error?.description == "s: cannot be used; it is left as it is")
        #expect(journal.ids.isEmpty)
        #expect(store.saves.isEmpty)
        #expect(store.history().isEmpty)
        #expect(store.state == settledState(at: "1.0"))
        #expect(throws: UpgradeStoreError.self) { try upgrader.plan(currentVersion: "1.1") }
        #expect(throws: UpgradeStoreError.self) { try upgrader.doneSteps() }
    }
}
