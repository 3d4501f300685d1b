import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

/// An activity that records what the store does with it, and expires when the test says so, as the
/// system does (`performExpiringActivity` on iOS; Linux has none, so these tests stand in for it).
final class RecordingActivity: @unchecked Sendable {
    private let lock = NSLock()
    private var reasons: [String] = []
    private var ends = 0
    private var expiry: (@Sendable () -> Void)?
    /// Whether the system "cannot give any time": the activity expires as soon as it begins.
    private let expiresAtOnce: Bool

    init(expiresAtOnce: Bool = false) { self.expiresAtOnce = expiresAtOnce }

    var activity: LaunchActivity {
        LaunchActivity { [self] reason, expired in
            lock.withLock {
                reasons.append(reason())
                expiry = expired
            }
            if expiresAtOnce { expired() }
            return { [self] in lock.withLock { ends += 1 } }
        }
    }

    /// The reasons of the activities begun.
    var begun: [String] { lock.withLock { reasons } }
    /// How many times an activity was ended.
    var ended: Int { lock.withLock { ends } }

    /// Plays the system taking the time back from the last activity begun.
    func expire() { lock.withLock { expiry }?() }
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
        "when the system ends the activity the lock stays held and a mark is left, which a normal end removes",
        arguments: [false, true])
    func expiryKeepsTheLock(expiresAtOnce: Bool) async throws {
        let fixture = try StoreFixture(.file)
        let recorder = RecordingActivity(expiresAtOnce: expiresAtOnce)
        let store = store(fixture, recorder)
        let lock = try await store.lockForLaunch()
        recorder.expire()
        let mark = try String(contentsOfFile: store.expiryMarkPath, encoding: .utf8)
        #expect(mark.hasPrefix("\(getpid()) "))
        let error = await #expect(throws: UpgradeStoreError.self) {
            _ = try await FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero).lockForLaunch()
        }
        #expect(error?.code == .busy)

        lock.unlock()
        #expect(!FileManager.default.fileExists(atPath: store.expiryMarkPath))
        #expect(recorder.ended == 1)
        recorder.expire()  // too late: the launch is over
        #expect(!FileManager.default.fileExists(atPath: store.expiryMarkPath))

        let next = FileUpgradeStore(url: fixture.fileURL)
        let again = try await next.lockForLaunch()
        defer { again.unlock() }
        #expect(try next.loadForLaunch().notice == nil)
    }

    @Test("a launch terminated after its activity expired is reported by the next launch that takes the lock")
    func terminationReported() async throws {
        let fixture = try StoreFixture(.file)
        let recorder = RecordingActivity()
        let store = store(fixture, recorder)
        // What a launch terminated by the system leaves: the mark it wrote when the activity expired.
        let lock = try await store.lockForLaunch()
        recorder.expire()
        let mark = try Data(contentsOf: URL(fileURLWithPath: store.expiryMarkPath))
        lock.unlock()
        try mark.write(to: URL(fileURLWithPath: store.expiryMarkPath))

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

    @Test("an activity that expires inside a step keeps the lock to the end of the launch; no notice follows")
    func expiryInsideAStep() async throws {
        let fixture = try StoreFixture(.file)
        _ = try await Upgrader(store: FileUpgradeStore(url: fixture.fileURL)) {}.run(currentVersion: "1.0")
        let recorder = RecordingActivity()
        let store = store(fixture, recorder)
        let report = try await Upgrader(store: store) {
            UpgradeStep("1.1") {
                recorder.expire()
                let other = FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero)
                await #expect(throws: UpgradeStoreError.self) { _ = try await other.lockForLaunch() }
            }
        }.run(currentVersion: "1.1")
        #expect(report.outcome == .upgraded)
        #expect(report.notices.isEmpty)
        #expect(recorder.ended == 1)
        #expect(!FileManager.default.fileExists(atPath: store.expiryMarkPath))
    }
}
