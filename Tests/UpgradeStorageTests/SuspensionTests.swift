// Real processes: only where a test can start one (see TortureProcess.swift).
#if os(macOS) || os(Linux)
    import Foundation
    import Testing
    import UpgradeCore
    import UpgradeStorage
    import UpgradeTestSupport

    /// No lock held while suspended, and interruptions are not attempts, with real processes
    /// (<doc:LaunchAlgorithm>, "Suspension" and "Interruptions"): the file store's expiry handler
    /// writes the interrupted attempt and gives the lock up before it returns, so that another
    /// process's launch runs meanwhile, and the launch that goes on takes the lock again.
    @Suite("Suspension with real processes")
    struct SuspensionTests {
        /// A store at `fixture`'s file whose activity `recorder` expires, holding a settled state at 1.0.
        func settledStore(_ fixture: StoreFixture, _ recorder: RecordingActivity) throws -> FileUpgradeStore {
            try FileUpgradeStore(url: fixture.fileURL).save(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
            let store = FileUpgradeStore(url: fixture.fileURL)
            store.useLaunchActivity(recorder.activity)
            return store
        }

        @Test("a launch that goes on after its expiry ends cancelled without writing when another process launched")
        func anotherProcessLaunchedMeanwhile() async throws {
            let fixture = try StoreFixture(.file)
            let recorder = RecordingActivity()
            let store = try settledStore(fixture, recorder)
            let path = fixture.fileURL.path
            let seen = Locked<[String: Int]>([:])
            let report = try await Upgrader(store: store) {
                UpgradeStep("1.1", id: "a") {
                    recorder.expire()
                    // The app was not suspended after all; meanwhile another process launched.
                    let other = try await TortureProcess.run(["launch", path, "1.2"])
                    if other.status == 0, other.output == "upgraded a,b\n" { seen.increment("other launched") }
                }
                UpgradeStep("1.2", id: "b") { seen.increment("b") }
            }.run(currentVersion: "1.2")

            #expect(seen.value["other launched", default: 0] == 1)
            #expect(seen.value["b", default: 0] == 0)
            #expect(report.outcome == .cancelled)
            #expect(report.notices.contains { $0.contains("another launch changed the state") })
            // The other process's state stands.
            let state = try #require(try FileUpgradeStore(url: fixture.fileURL).load())
            #expect(state == UpgradeState(upgradedThrough: "1.2", lastLaunched: "1.2"))
            #expect(try FileUpgradeStore(url: fixture.fileURL).history().map(\.outcome) == [.upgraded])
        }

        @Test("a launch that goes on after its expiry records its step when the other process changed nothing")
        func anotherProcessOnlyLocked() async throws {
            let fixture = try StoreFixture(.file)
            let recorder = RecordingActivity()
            let store = try settledStore(fixture, recorder)
            let path = fixture.fileURL.path
            let log = fixture.folder.appending(path: "log").path
            let seen = Locked<[String: Int]>([:])
            let report = try await Upgrader(store: store) {
                UpgradeStep("1.1", id: "a") {
                    recorder.expire()
                    // Another process takes the lock (at once: it would report busy if this one held
                    // it) and gives it up without writing.
                    let other = try await TortureProcess.run(["hold", path, log, "B", "0", "0", "1"])
                    if other.status == 0 { seen.increment("other locked") }
                }
                UpgradeStep("1.2", id: "b") { seen.increment("b") }
            }.run(currentVersion: "1.2")

            #expect(seen.value["other locked", default: 0] == 1)
            #expect(seen.value["b", default: 0] == 0)
            #expect(report.outcome == .cancelled)
            #expect(report.steps.map(\.result.kind) == [.completed])
            let state = try #require(try FileUpgradeStore(url: fixture.fileURL).load())
            #expect(state.completed.map(\.id) == ["a"])
            #expect(state.attempts.isEmpty)
            #expect(state.upgradedThrough == "1.0")
            #expect(try FileUpgradeStore(url: fixture.fileURL).history().last?.outcome == .cancelled)
        }

        @Test("a process killed after its expiry counts no attempt, and the next launch is told it was interrupted")
        func killedAfterExpiry() async throws {
            let fixture = try StoreFixture(.file)
            let path = fixture.fileURL.path
            let process = try TortureProcess.start(["expire-launch", path])
            #expect(try await process.nextLine() == "expired")
            // Suspended, it holds no lock: this process takes it at once.
            try await FileUpgradeStore(url: fixture.fileURL, lockTimeout: .zero).lockForLaunch().unlock()
            process.send(SIGKILL)
            #expect(try await process.exit().signal == SIGKILL)

            let contexts = Locked<[UpgradeContext]>([])
            let report = try await Upgrader(
                store: FileUpgradeStore(url: fixture.fileURL), policy: UpgradePolicy(giveUpAfter: 1)
            ) {
                UpgradeStep("1.1", id: "a") { (context: UpgradeContext) in contexts.append(context) }
            }.run(currentVersion: "1.1")
            #expect(report.outcome == .upgraded)
            #expect(report.abandonedStepIDs.isEmpty)
            #expect(contexts.value.map(\.attempt) == [1])
            #expect(contexts.value.map(\.previousAttemptInterrupted) == [true])
        }
    }
#endif
