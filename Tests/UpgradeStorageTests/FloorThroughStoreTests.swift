import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

/// The floor through every store: its completion and attempts are kept like any step's, under its
/// own id, and the next launch (a new store object, as in a new process) does not run it again.
@Suite("Floor through every store")
struct FloorThroughStoreTests {
    @Test("a device from below runs the floor once, first; a failed floor is retried", arguments: StoreKind.allCases)
    func floorThroughStore(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        try fixture.store().save(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
        let ran = Locked(0)
        let failures = Locked(0)
        func upgrader(_ store: any UpgradeStore) -> Upgrader {
            Upgrader(store: store) {
                UpgradeStep("3.1", id: "late") { ran.increment() }
                UpgradeStep("3.0") { () -> Bool in
                    failures.increment()
                    return failures.value > 1
                }.asFloor()
            }
        }
        let first = try await upgrader(fixture.relaunched()).run(currentVersion: "3.1")
        #expect(first.outcome == .failed)
        #expect(try fixture.relaunched().load()?.attempts.map(\.id) == ["upgradeFloor_3_0"])
        let second = try await upgrader(fixture.relaunched()).run(currentVersion: "3.1")
        #expect(second.ranStepIDs == ["upgradeFloor_3_0", "late"])
        #expect(second.steps.first?.attempt == 2)
        let third = try await upgrader(fixture.relaunched()).run(currentVersion: "3.1")
        #expect(third.outcome == .upToDate)
        #expect(ran.value == 1)
        #expect(failures.value == 2)
    }
}
