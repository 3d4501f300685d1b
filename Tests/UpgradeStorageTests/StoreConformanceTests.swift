import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

/// What every store promises (the `UpgradeStore` contract), checked on all three.
@Suite("Store conformance")
struct StoreConformanceTests {
    @Test("a saved state reads back whole, from a new store object", arguments: StoreKind.allCases)
    func roundTrip(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        try fixture.store().save(richState)
        #expect(try fixture.relaunched().load() == richState)
        var next = richState
        next.upgradedThrough = "1.4.1"
        next.inProgress = nil
        try fixture.store().save(next)
        #expect(try fixture.relaunched().load() == next)
        #expect(try fixture.relaunched().loadForLaunch().state == next)
    }

    @Test("nothing stored reads as nil: a fresh install", arguments: StoreKind.allCases)
    func emptyIsNil(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        #expect(try fixture.store().load() == nil)
        let (state, notice) = try fixture.store().loadForLaunch()
        #expect(state == nil)
        #expect(notice == nil)
    }

    @Test(
        "a second launch reports busy after the timeout, and gets the lock once it is free",
        arguments: StoreKind.allCases)
    func lockIsExclusive(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let timeout = kind == .memory ? StoreFixture.memoryLockTimeout : .milliseconds(200)
        let lock = try await fixture.store().lockForLaunch()
        let contender = try fixture.store(lockTimeout: timeout)
        let clock = ContinuousClock()
        let start = clock.now
        let error = await #expect(throws: UpgradeStoreError.self) { _ = try await contender.lockForLaunch() }
        #expect(start.duration(to: clock.now) >= timeout)
        #expect(error?.code == .busy)
        #expect(error?.description.contains(fixture.location) == true)
        #expect(error?.description.contains("gave up after waiting") == true)
        lock.unlock()
        let again = try await contender.lockForLaunch()
        again.unlock()
    }

    @Test(
        "a launch that finds the lock held waits, and gets the lock when the holder gives it up",
        arguments: StoreKind.allCases)
    func waiterGetsTheLock(kind: StoreKind) async throws {
        // The waiter waits as long as it takes (an hour): only the holder's unlock can let it in, and
        // the holder gives the lock up only once the waiter has found it held.
        let fixture = try StoreFixture(kind, memoryLockTimeout: nil)
        let lock = try await fixture.store().lockForLaunch()
        let waiter = try fixture.store(lockTimeout: .seconds(3600))
        let launch = await WaitingLaunch.start { try await waiter.lockForLaunch() }
        #expect(launch.waited, "the second launch took the lock while the first held it")
        lock.unlock()
        let second = try await launch.task.value
        second.unlock()
    }

    @Test("a failed write throws and leaves the stored state as it was", arguments: StoreKind.allCases)
    func writeFault(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.store()
        try store.save(richState)
        fixture.injectWriteFault(into: store)
        var next = richState
        next.upgradedThrough = "9.9"
        #expect(throws: (any Error).self) { try store.save(next) }
        #expect(try fixture.store().load() == richState)
        try store.save(next)
        #expect(try fixture.store().load() == next)
    }

    @Test("a failed write stops the launch, which records nothing it did not write", arguments: StoreKind.allCases)
    func writeFaultStopsTheLaunch(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.store()
        try store.save(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
        let ran = Locked(0)
        let upgrader = Upgrader(store: store) {
            UpgradeStep("1.1") { ran.increment() }
        }
        fixture.injectWriteFault(into: store)
        await #expect(throws: (any Error).self) { _ = try await upgrader.run(currentVersion: "1.1") }
        #expect(ran.value == 0, "the in-progress record could not be written, so the step must not start")
        #expect(try fixture.store().load() == UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
    }

    @Test(
        "a document that does not parse is an error naming it, and is left exactly as it is",
        arguments: StoreKind.documentStores, CorruptDocument.allCases)
    func corruptDocumentLeftUntouched(kind: StoreKind, document: CorruptDocument) async throws {
        let fixture = try StoreFixture(kind)
        try fixture.writeRaw(document.bytes)
        let store = try fixture.store()
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .corrupt)
        #expect(error?.description.contains(fixture.location) == true)
        #expect(error?.description.contains(document.problem) == true, "\(String(describing: error))")
        let saveError = #expect(throws: UpgradeStoreError.self) { try store.save(richState) }
        #expect(saveError?.code == .corrupt)
        let upgrader = Upgrader(store: store) { UpgradeStep("1.1") {} }
        await #expect(throws: UpgradeStoreError.self) { _ = try await upgrader.run(currentVersion: "1.1") }
        #expect(fixture.readRaw() == document.bytes)
    }

    @Test(
        "a document of a newer format is neither used nor overwritten, and the error says both formats",
        arguments: StoreKind.documentStores)
    func newerFormatLeftUntouched(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let newer = Data(#"{"format": 7, "something": "new"}"#.utf8)
        try fixture.writeRaw(newer)
        let store = try fixture.store()
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .unsupportedFormat(found: 7, supported: StateDocument.format))
        #expect(error?.description.contains(fixture.location) == true)
        #expect(error?.description.contains("format 7") == true)
        let saveError = #expect(throws: UpgradeStoreError.self) { try fixture.store().save(richState) }
        #expect(saveError?.code.isUnsupportedFormat == true)
        let upgrader = Upgrader(store: store) { UpgradeStep("1.1") {} }
        await #expect(throws: UpgradeStoreError.self) { _ = try await upgrader.run(currentVersion: "1.1") }
        #expect(fixture.readRaw() == newer)
    }

    @Test(
        "a document replaced by a newer format after it was read is not overwritten",
        arguments: StoreKind.documentStores)
    func newerFormatAfterLoad(kind: StoreKind) throws {
        let fixture = try StoreFixture(kind)
        let store = try fixture.store()
        try store.save(richState)
        #expect(try store.load() == richState)
        let newer = Data(#"{"format": 3}"#.utf8)
        try fixture.writeRaw(newer)
        let error = #expect(throws: UpgradeStoreError.self) { try store.save(richState) }
        #expect(error?.code.isUnsupportedFormat == true)
        #expect(fixture.readRaw() == newer)
    }
}

/// Damaged documents, and a word of the problem each error must name.
enum CorruptDocument: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case notJSON, empty, wrongShape, unknownKey

    var bytes: Data {
        switch self {
        case .notJSON: Data("{ \"format\": 1, ".utf8)
        case .empty: Data()
        case .wrongShape:
            Data(
                #"{"format": 2, "upgradedThrough": 12, "lastLaunched": null, "completed": [], "abandoned": [],"#
                    .utf8)
                + Data(#" "attempts": [], "inProgress": null}"#.utf8)
        case .unknownKey:
            Data(
                #"{"format": 1, "upgradedThrough": null, "lastLaunched": null, "completed": [], "abandoned": [],"#
                    .utf8)
                + Data(#" "attempts": [], "inProgress": null, "history": [], "colour": "red"}"#.utf8)
        }
    }

    /// Text the error must contain.
    var problem: String {
        switch self {
        case .notJSON, .empty: "not a valid upgrade state document"
        case .wrongShape: "upgradedThrough"
        case .unknownKey: "colour"
        }
    }

    var testDescription: String { rawValue }
}
