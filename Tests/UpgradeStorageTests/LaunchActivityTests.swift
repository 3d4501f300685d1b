import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An activity that records what the store does with it, and expires when the test says so, as the
/// system does (`performExpiringActivity` on iOS; Linux has none, so these tests stand in for it).
final class RecordingActivity: Sendable {
    private struct Record {
        var reasons: [String] = []
        var ends = 0
        var expiry: (@Sendable () -> Void)?
    }

    private let record = Locked(Record())
    /// Whether the system "cannot give any time": the activity expires as soon as it begins.
    private let expiresAtOnce: Bool

    init(expiresAtOnce: Bool = false) { self.expiresAtOnce = expiresAtOnce }

    var activity: LaunchActivity {
        LaunchActivity { [record, expiresAtOnce] reason, expired in
            record.withLock {
                $0.reasons.append(reason())
                $0.expiry = expired
            }
            if expiresAtOnce { expired() }
            return { record.withLock { $0.ends += 1 } }
        }
    }

    /// The reasons of the activities begun.
    var begun: [String] { record.value.reasons }
    /// How many times an activity was ended.
    var ended: Int { record.value.ends }

    /// Plays the system taking the time back from the last activity begun.
    func expire() { record.value.expiry?() }
}

/// Keeping the app running while a launch holds the file lock (FileUpgradeStore+Locking.swift).
@Suite("Launch activity of the file store")
struct LaunchActivityTests {
    func store(_ fixture: StoreFixture, _ recorder: RecordingActivity, timeout: Duration = .seconds(10))
        -> FileUpgradeStore
    {
        let store = FileUpgradeStore(url: fixture.fileURL, lockTimeout: timeout)
        store.useLaunchActivity(recorder.activity)
        return store
    }

    @Test("the activity begins when the lock is taken and ends when it is given up, once")
    func beginsAndEnds() async throws {
        let fixture = try StoreFixture(.file)
        let recorder = RecordingActivity()
        let store = store(fixture, recorder)
        #expect(recorder.begun.isEmpty)
        let lock = try await store.lockForLaunch()
        #expect(recorder.begun.count == 1)
        #expect(recorder.begun.first?.contains(fixture.fileURL.path + ".lock") == true)
        #expect(recorder.ended == 0)
        lock.unlock()
        #expect(recorder.ended == 1)
        lock.unlock()
        #expect(recorder.ended == 1)
    }

    @Test("a lock dropped without unlock ends the activity after giving the lock up")
    func droppedLockEnds() async throws {
        let fixture = try StoreFixture(.file)
        let recorder = RecordingActivity()
        do {
            _ = try await store(fixture, recorder).lockForLaunch()
        }
        #expect(recorder.ended == 1)
        try await FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero).lockForLaunch().unlock()
    }

    @Test("a launch that finds the lock busy begins no activity")
    func busyBeginsNothing() async throws {
        let fixture = try StoreFixture(.file)
        let holder = try await FileUpgradeStore(url: fixture.fileURL).lockForLaunch()
        defer { holder.unlock() }
        let recorder = RecordingActivity()
        let error = await #expect(throws: UpgradeStoreError.self) {
            _ = try await store(fixture, recorder, timeout: .milliseconds(30)).lockForLaunch()
        }
        #expect(error?.code == .busy)
        #expect(recorder.begun.isEmpty)
    }

    @Test(
        "when the system ends the activity of a lock with no launch, the lock is given up at once",
        arguments: [false, true])
    func expiryGivesTheLockUp(expiresAtOnce: Bool) async throws {
        let fixture = try StoreFixture(.file)
        let recorder = RecordingActivity(expiresAtOnce: expiresAtOnce)
        let store = store(fixture, recorder)
        let lock = try await store.lockForLaunch()
        recorder.expire()
        #expect(recorder.ended == 1)
        #expect(!FileManager.default.fileExists(atPath: store.expiryMarkPath))
        // Another launch takes the lock without waiting.
        try await FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero).lockForLaunch().unlock()

        // A handler set after the expiry is called at once; unlocking again does nothing.
        let called = Locked<[String: Int]>([:])
        lock.setExpiryHandler { called.increment("handler") }
        #expect(called.value["handler", default: 0] == 1)
        lock.unlock()
        #expect(recorder.ended == 1)
    }

    @Test("when the system ends the activity, the lock calls the launch's handler, which gives it up")
    func expiryCallsTheHandler() async throws {
        let fixture = try StoreFixture(.file)
        let recorder = RecordingActivity()
        let lock = try await store(fixture, recorder).lockForLaunch()
        let heldDuringHandler = Locked<[String: Int]>([:])
        lock.setExpiryHandler {
            // The handler runs while the lock is still held: its write is the launch's last.
            if lockFileIsBusy(fixture.fileURL.path + ".lock") { heldDuringHandler.increment("held") }
            lock.unlock()
        }
        recorder.expire()
        #expect(heldDuringHandler.value["held", default: 0] == 1)
        #expect(recorder.ended == 1)
        try await FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero).lockForLaunch().unlock()
    }

    @Test("the mark of an earlier version's launch terminated after its activity expired is reported and removed")
    func terminationReported() async throws {
        let fixture = try StoreFixture(.file)
        let recorder = RecordingActivity()
        let store = store(fixture, recorder)
        // What a launch of an earlier version of the package, terminated by the system, left: the mark
        // it wrote when the activity expired (a launch now gives the lock up and leaves none).
        try await store.lockForLaunch().unlock()
        try Data("\(getpid()) 2026-12-01T09:30:00Z\n".utf8).write(to: URL(fileURLWithPath: store.expiryMarkPath))

        let report = try await Upgrader(store: FileUpgradeStore(url: fixture.fileURL)) {
            UpgradeStep("1.1") {}
        }.run(currentVersion: "1.0")
        let notice = try #require(report.notices.first)
        #expect(notice.contains("process \(getpid())"))
        #expect(notice.contains("0xdead10cc"))
        #expect(notice.contains(fixture.fileURL.path + ".lock"))
        #expect(!FileManager.default.fileExists(atPath: store.expiryMarkPath))

        let later = try await Upgrader(store: FileUpgradeStore(url: fixture.fileURL)) {
            UpgradeStep("1.1") {}
        }.run(currentVersion: "1.1")
        #expect(later.outcome == .upgraded)
        #expect(later.notices.isEmpty)
    }

    @Test("an activity that expires inside a step: the step is cancelled and not counted, the lock given up")
    func expiryInsideAStep() async throws {
        let fixture = try StoreFixture(.file)
        _ = try await Upgrader(store: FileUpgradeStore(url: fixture.fileURL)) {}.run(currentVersion: "1.0")
        let recorder = RecordingActivity()
        let store = store(fixture, recorder)
        let seen = Locked<[String: Int]>([:])
        let report = try await Upgrader(store: store) {
            UpgradeStep("1.1", id: "a") {
                recorder.expire()
                // The expiry handler has returned: the lock is free and the attempt written as not counted.
                try await FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero).lockForLaunch().unlock()
                let written = try FileUpgradeStore(url: fixture.fileURL).load()
                if written?.attempts == [
                    StepAttempts(id: "a", version: "1.1", failed: 0, lastAttemptInterrupted: true)
                ],
                    written?.inProgress == nil, Task.isCancelled
                {
                    seen.increment("written")
                }
                try Task.checkCancellation()
            }
            UpgradeStep("1.2", id: "b") { seen.increment("b") }
        }.run(currentVersion: "1.2")
        #expect(seen.value["written", default: 0] == 1)
        #expect(seen.value["b", default: 0] == 0)
        #expect(report.outcome == .cancelled)
        #expect(report.steps.map(\.result.kind) == [.interrupted])
        #expect(recorder.ended == 1)
        #expect(!FileManager.default.fileExists(atPath: store.expiryMarkPath))
    }
}

/// Whether another open file description holds the `flock` of the file at `path`.
func lockFileIsBusy(_ path: String) -> Bool {
    let descriptor = open(path, O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
        flock(descriptor, LOCK_UN)
        return false
    }
    return true
}
