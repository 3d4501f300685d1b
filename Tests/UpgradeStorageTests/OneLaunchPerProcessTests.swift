import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// A step action held open until the test releases it, so that other launches can be started while
/// it runs, without racing a clock.
final class HeldStep: Sendable {
    private struct State {
        var started = false
        var released = false
        var runs = 0
        var startWaiters: [CheckedContinuation<Void, Never>] = []
        var releaseWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// How many times the action ran.
    var runCount: Int { state.value.runs }

    /// The action: says it started, then waits for ``release()`` (at once once released).
    func enter() async {
        let waiting = state.withLock { state in
            state.runs += 1
            state.started = true
            defer { state.startWaiters = [] }
            return state.startWaiters
        }
        for waiter in waiting { waiter.resume() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let go = state.withLock {
                if $0.released { return true }
                $0.releaseWaiters.append(continuation)
                return false
            }
            if go { continuation.resume() }
        }
    }

    /// Waits until the action has started once.
    func waitUntilStarted() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let go = state.withLock {
                if $0.started { return true }
                $0.startWaiters.append(continuation)
                return false
            }
            if go { continuation.resume() }
        }
    }

    /// Lets every run of the action, now and later, finish.
    func release() {
        let waiting = state.withLock { state in
            state.released = true
            defer { state.releaseWaiters = [] }
            return state.releaseWaiters
        }
        for waiter in waiting { waiter.resume() }
    }
}

/// The events an observer received, by name.
final class EventLog: Sendable {
    private let events = Locked<[UpgradeEvent]>([])

    func append(_ event: UpgradeEvent) { events.append(event) }

    /// `launchFinished` for each such event, `other` for any other.
    var names: [String] {
        events.value.map { event in
            if case .launchFinished = event { return "launchFinished" }
            return "other"
        }
    }
}

/// Concurrent launches of one store in one process are one launch, whichever upgrader they use.
@Suite("One launch per process")
struct OneLaunchPerProcessTests {
    /// An upgrader on a new file store object at `url` whose lock gives up at once: a launch that met
    /// another on the lock would report busy.
    static func upgrader(_ url: URL, held: HeldStep, extra: [UpgradeStep] = []) -> Upgrader {
        var upgrader = Upgrader(store: FileUpgradeStore(url: url, lockTimeout: .zero)) {
            UpgradeStep("2.0", id: "held") { await held.enter() }
            UpgradeStep("2.1", id: "next") {}
        }
        for step in extra { upgrader.register(step) }
        return upgrader
    }

    @Test("five tasks with five upgraders on one file share the first one's launch")
    func sharedLaunch() async throws {
        let fixture = try StoreFixture(.file)
        let held = HeldStep()
        _ = try await Self.upgrader(fixture.fileURL, held: held).run(currentVersion: "1.0")
        let identity = try #require(FileUpgradeStore(url: fixture.fileURL).stateIdentity)

        let leader = Task { try await Self.upgrader(fixture.fileURL, held: held).run(currentVersion: "2.0") }
        await held.waitUntilStarted()
        let others = (0..<3).map { _ in
            Task { try await Self.upgrader(fixture.fileURL, held: held).run(currentVersion: "2.0") }
        }
        // A joining progress sequence, whose observer hears only how the shared launch ended.
        let events = EventLog()
        var observed = Self.upgrader(fixture.fileURL, held: held)
        observed.observer = { events.append($0) }
        let progressing = observed
        let progress = Task {
            var values: [UpgradeProgress] = []
            for try await value in progressing.runWithProgress(currentVersion: "2.0") { values.append(value) }
            return values
        }
        await LaunchRegistry.shared.waitForCallers(5, of: identity)
        held.release()

        let values = try await progress.value
        #expect(values.count == 1)
        #expect(values.last?.report?.ranStepIDs == ["held"])
        #expect(events.names == ["launchFinished"])

        let first = try await leader.value
        #expect(first.outcome == .upgraded)
        #expect(first.ranStepIDs == ["held"])
        for other in others {
            let report = try await other.value
            #expect(report.outcome == .upgraded)
            #expect(report.ranStepIDs == ["held"])
            #expect(report.startedAt == first.startedAt)
        }
        #expect(held.runCount == 1)
        #expect(LaunchRegistry.shared.callers(of: identity) == 0)
    }

    @Test(
        "through every store, upgraders on new store objects of one place share one launch",
        // The custom store of the docs names no identity (`stateIdentity` is nil by default): its
        // launches are shared only through one upgrader and its copies.
        arguments: StoreKind.builtIn)
    func everyStore(kind: StoreKind) async throws {
        // Every store's lock gives up at once: a caller that met the leader on it would report busy.
        let fixture = try StoreFixture(kind, memoryLockTimeout: .zero)
        let held = HeldStep()
        let upgrader: @Sendable () throws -> Upgrader = {
            Upgrader(store: try fixture.store(lockTimeout: .zero)) {
                UpgradeStep("2.0", id: "held") { await held.enter() }
            }
        }
        _ = try await upgrader().run(currentVersion: "1.0")
        let identity = try #require(try fixture.store().stateIdentity)
        if kind != .memory {  // a relaunched in-memory store is another object, another state
            #expect(try fixture.relaunched().stateIdentity == identity)
        }

        let launches = (0..<3).map { _ in Task { try await upgrader().run(currentVersion: "2.0") } }
        await held.waitUntilStarted()
        await LaunchRegistry.shared.waitForCallers(3, of: identity)
        held.release()
        for launch in launches {
            let report = try await launch.value
            #expect(report.outcome == .upgraded)
            #expect(report.ranStepIDs == ["held"])
        }
        #expect(held.runCount == 1)
    }

    @Test("a caller at another version, or with other steps, waits for the launch in flight, then runs its own")
    func differentLaunchesWait() async throws {
        let fixture = try StoreFixture(.file)
        let held = HeldStep()
        _ = try await Self.upgrader(fixture.fileURL, held: held).run(currentVersion: "1.0")
        let identity = try #require(FileUpgradeStore(url: fixture.fileURL).stateIdentity)

        let leader = Task { try await Self.upgrader(fixture.fileURL, held: held).run(currentVersion: "2.0") }
        await held.waitUntilStarted()
        // Another step at the same version: not the same launch. It waits, then leads the next one.
        let other = Task {
            try await Self.upgrader(fixture.fileURL, held: held, extra: [UpgradeStep("2.0", id: "extra") {}])
                .run(currentVersion: "2.0")
        }
        await LaunchRegistry.shared.waitForCallers(2, of: identity)
        // Another version: it waits for both, in the order they came.
        let later = Task { try await Self.upgrader(fixture.fileURL, held: held).run(currentVersion: "2.1") }
        await LaunchRegistry.shared.waitForCallers(3, of: identity)
        held.release()

        let first = try await leader.value
        #expect(first.ranStepIDs == ["held"])
        // Its own launch, after the first moved the mark to 2.0: nothing pending (its extra step at 2.0
        // is a late one), where a shared report would have said it ran `held`.
        let otherReport = try await other.value
        #expect(otherReport.outcome == .upToDate)
        #expect(otherReport.ranStepIDs.isEmpty)
        let laterReport = try await later.value
        #expect(laterReport.outcome == .upgraded)
        #expect(laterReport.ranStepIDs == ["next"])
        #expect(held.runCount == 1)
    }

    @Test("a launch whose first caller was cancelled is not shared: the next caller runs it again")
    func cancelledLeader() async throws {
        let fixture = try StoreFixture(.file)
        let held = HeldStep()
        let upgrader = Upgrader(store: FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero)) {
            UpgradeStep("2.0", id: "held") {
                await held.enter()
                try Task.checkCancellation()
            }
        }
        _ = try await upgrader.run(currentVersion: "1.0")
        let identity = try #require(upgrader.store.stateIdentity)
        let leader = Task { try await upgrader.run(currentVersion: "2.0") }
        await held.waitUntilStarted()
        let joiner = Task { try await upgrader.run(currentVersion: "2.0") }
        await LaunchRegistry.shared.waitForCallers(2, of: identity)
        leader.cancel()
        held.release()
        #expect(try await leader.value.outcome == .cancelled)
        let report = try await joiner.value
        #expect(report.outcome == .upgraded)
        #expect(report.ranStepIDs == ["held"])
        #expect(held.runCount == 2)
    }

    @Test("the error of a shared launch reaches every caller; the step ran once")
    func sharedError() async throws {
        let store = InMemoryUpgradeStore(state: UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
        let held = HeldStep()
        let identity = try #require(store.stateIdentity)
        // The launch's second write (its last, after the step) fails.
        store.failWrite(number: 2)
        let upgrader: @Sendable () -> Upgrader = {
            Upgrader(store: store) { UpgradeStep("2.0", id: "held") { await held.enter() } }
        }
        let leader = Task { try await upgrader().run(currentVersion: "2.0") }
        await held.waitUntilStarted()
        let joiner = Task { try await upgrader().run(currentVersion: "2.0") }
        await LaunchRegistry.shared.waitForCallers(2, of: identity)
        held.release()
        await #expect(throws: UpgradeStoreError.self) { _ = try await leader.value }
        await #expect(throws: UpgradeStoreError.self) { _ = try await joiner.value }
        #expect(held.runCount == 1)
    }

    @Test("a store's identity names the state it keeps")
    func identities() throws {
        let fixture = try StoreFixture(.file)
        let folder = fixture.folder.path
        let plain = FileUpgradeStore(url: URL(fileURLWithPath: folder + "/state.json")).stateIdentity
        let dotted = FileUpgradeStore(url: URL(fileURLWithPath: folder + "/./state.json")).stateIdentity
        let other = FileUpgradeStore(url: URL(fileURLWithPath: folder + "/other.json")).stateIdentity
        #expect(plain == dotted)
        #expect(plain != other)
        let suite = try StoreFixture(.defaults).suite
        #expect(
            try UserDefaultsUpgradeStore(suiteName: suite).stateIdentity
                == UserDefaultsUpgradeStore(suiteName: suite).stateIdentity)
        #expect(
            try UserDefaultsUpgradeStore(suiteName: suite).stateIdentity
                != UserDefaultsUpgradeStore(suiteName: suite, key: "other").stateIdentity)
        let memory = InMemoryUpgradeStore()
        #expect(memory.stateIdentity == memory.stateIdentity)
        #expect(memory.stateIdentity != InMemoryUpgradeStore().stateIdentity)
    }
}
