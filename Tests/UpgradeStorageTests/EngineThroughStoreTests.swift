import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

/// The UpgradeCore engine driven through each store, with a new store object at each launch.
@Suite("Engine through each store")
struct EngineThroughStoreTests {
    struct Flaky: Error {}

    /// Steps 1.1, `flaky` (1.2, fails its first attempt) and 1.3. Whether `flaky` fails depends only
    /// on the attempt number, which comes from the store's data.
    static func upgrader(_ store: any UpgradeStore, log: StepLog) -> Upgrader {
        Upgrader(store: store) {
            UpgradeStep("1.1") { context in log.record(context) }
            UpgradeStep("1.2", id: "flaky") { (context: UpgradeContext) async throws -> Void in
                log.record(context)
                if context.attempt == 1 { throw Flaky() }
            }
            UpgradeStep("1.3") { context in log.record(context) }
        }
    }

    @Test("a failed step is retried at the next launch from the store's data alone", arguments: StoreKind.allCases)
    func failedStepRetriedAfterRelaunch(kind: StoreKind) async throws {
        let fixture = try StoreFixture(kind)
        let log = StepLog()

        let first = try await Self.upgrader(fixture.relaunched(), log: log).run(currentVersion: "1.0")
        #expect(first.outcome == .freshInstall)

        let second = try await Self.upgrader(fixture.relaunched(), log: log).run(currentVersion: "1.3")
        #expect(second.outcome == .failed)
        #expect(second.ranStepIDs == ["appUpgradeTo_1_1", "flaky"])
        #expect(second.upgradedThrough == "1.0")

        let stored = try #require(try fixture.relaunched().load())
        #expect(stored.isCompleted("appUpgradeTo_1_1"))
        #expect(stored.failedAttempts(of: "flaky") == 1)
        #expect(stored.inProgress == nil)

        let third = try await Self.upgrader(fixture.relaunched(), log: log).run(currentVersion: "1.3")
        #expect(third.outcome == .upgraded)
        #expect(third.ranStepIDs == ["flaky", "appUpgradeTo_1_3"])
        #expect(third.steps.first?.attempt == 2)
        #expect(third.upgradedThrough == "1.3")

        let fourth = try await Self.upgrader(fixture.relaunched(), log: log).run(currentVersion: "1.3")
        #expect(fourth.outcome == .upToDate)
        #expect(fourth.ranStepIDs.isEmpty)
        #expect(log.entries == ["appUpgradeTo_1_1#1", "flaky#1", "flaky#2", "appUpgradeTo_1_3#1"])
        if kind != .custom {  // the custom store of the docs keeps no history
            #expect(try fixture.relaunched().history().map(\.outcome) == [.freshInstall, .failed, .upgraded])
        }
    }

    #if os(macOS) || os(Linux)
        @Test("a step whose process was killed is retried, told it was interrupted (file store, real process)")
        func killedInsideAStep() async throws {
            let fixture = try StoreFixture(.file)
            let result = try await TortureProcess.run(["crash-launch", fixture.fileURL.path])
            #expect(result.signal == SIGKILL, "the helper should have killed itself inside the step: \(result)")

            let died = try #require(try fixture.relaunched().load())
            #expect(died.inProgress == StepInProgress(id: "appUpgradeTo_1_1", version: "1.1", attempt: 1))

            let log = StepLog()
            let upgrader = Upgrader(
                store: try fixture.relaunched(), policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0"))
            ) {
                UpgradeStep("1.1") { context in log.record(context) }
            }
            let report = try await upgrader.run(currentVersion: "1.1")
            #expect(report.outcome == .upgraded)
            #expect(log.entries == ["appUpgradeTo_1_1#2 interrupted"])
            #expect(try fixture.relaunched().load()?.inProgress == nil)
        }
    #endif
}

/// The attempts the steps saw, in order: `ID#ATTEMPT`, with ` interrupted` when the previous
/// attempt was interrupted.
final class StepLog: Sendable {
    private let lines = Locked<[String]>([])

    var entries: [String] { lines.value }

    func record(_ context: UpgradeContext) {
        lines.append(
            "\(context.stepID)#\(context.attempt)" + (context.previousAttemptInterrupted ? " interrupted" : ""))
    }
}
