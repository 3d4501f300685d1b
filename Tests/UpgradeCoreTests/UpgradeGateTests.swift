import Foundation
import Testing
import UpgradeCore
import VersionKit

/// The launch gate's decision (<doc:AppIntegration>, "What the gate does with the outcome"): open only
/// when nothing is pending at the running version; closed, saying why, after everything else.
@Suite("The launch gate's decision")
struct UpgradeGateTests {
    /// A report of a launch at 2.0 that ended with `outcome`.
    static func report(
        _ outcome: UpgradeOutcome, deferral: UpgradeDeferral? = nil, steps: [StepReport] = [],
        markBefore: Version? = "2.0", markAfter: Version? = "2.0"
    ) -> UpgradeReport {
        var report = UpgradeReport(
            currentVersion: "2.0", previousVersion: "1.0", upgradedThroughBefore: markBefore,
            upgradedThrough: markAfter, outcome: outcome, steps: steps, startedAt: fixedDate)
        report.deferral = deferral
        return report
    }

    static let failedStep = StepReport(
        id: "settings-to-json", version: "2.0", attempt: 1, previousAttemptInterrupted: false,
        result: .failed(StepFailure(stepID: "settings-to-json", attempt: 1)), abandoned: false, duration: .zero)

    /// Each outcome (and each reason to defer), with the state the default gate and the gate that
    /// opens after a failure and a downgrade give.
    static let table: [(UpgradeReport, UpgradeGateState, UpgradeGateState)] = [
        (report(.upToDate), .open, .open),
        (report(.upgraded, markBefore: "1.0"), .open, .open),
        (report(.freshInstall, markBefore: nil), .open, .open),
        (
            report(.failed, steps: [failedStep], markBefore: "1.0", markAfter: "1.0"),
            .stepFailed(id: "settings-to-json"), .open
        ),
        (report(.downgraded, markBefore: "3.0", markAfter: "3.0"), .downgraded, .open),
        (report(.cancelled, markBefore: "1.0", markAfter: "1.0"), .interrupted, .interrupted),
        (
            report(.deferred, deferral: .protectedDataUnavailable(detail: "locked"), markBefore: nil, markAfter: nil),
            .waitingForProtectedData, .waitingForProtectedData
        ),
        (
            report(
                .deferred, deferral: .stepNotNow(stepID: "reindex", reason: "offline"), markBefore: "1.0",
                markAfter: "1.0"),
            .waitingForStep(id: "reindex", reason: "offline"), .waitingForStep(id: "reindex", reason: "offline")
        ),
        (report(.deferred, deferral: .leftToApp, markBefore: nil, markAfter: nil), .launchNeeded, .launchNeeded),
        (report(.deferred, markBefore: "1.0", markAfter: "1.0"), .launchNeeded, .launchNeeded),
    ]

    @Test("a table of report outcomes to gate states", arguments: table)
    func decision(report: UpgradeReport, closedByDefault: UpgradeGateState, optedIn: UpgradeGateState) {
        #expect(UpgradeGate().state(after: report) == closedByDefault)
        #expect(UpgradeGate(opensAfterFailure: true, opensAfterDowngrade: true).state(after: report) == optedIn)
    }

    @Test("every outcome is in the table, and only the open state is open")
    func everyOutcome() {
        #expect(Set(Self.table.map(\.0.outcome)) == Set(UpgradeOutcome.allCases))
        for (report, state, _) in Self.table {
            #expect(state.isOpen == [.upToDate, .upgraded, .freshInstall].contains(report.outcome))
        }
        #expect(UpgradeGate(opensAfterFailure: true).state(after: Self.table[4].0) == .downgraded)
        #expect(
            UpgradeGate(opensAfterDowngrade: true).state(after: Self.table[3].0) == .stepFailed(id: "settings-to-json"))
    }

    @Test(
        "extensions reload after a launch that ran a step, recorded a fresh install or moved the mark",
        arguments: [
            (report(.upToDate), false),
            (report(.upToDate, markBefore: "1.0"), true),  // an update with no step: followers were deferred
            (report(.upgraded, steps: [failedStep], markBefore: "1.0"), true),
            (report(.freshInstall, markBefore: "2.0"), true),
            (report(.failed, steps: [failedStep], markBefore: "1.0", markAfter: "1.0"), true),
            (report(.downgraded, markBefore: "3.0", markAfter: "3.0"), false),
            (report(.downgraded, markBefore: "3.0", markAfter: "2.0"), true),  // rewound
            (
                report(
                    .deferred, deferral: .protectedDataUnavailable(detail: "locked"), markBefore: nil, markAfter: nil),
                false
            ),
            (report(.cancelled, markBefore: "1.0", markAfter: "1.0"), false),
        ])
    func reload(report: UpgradeReport, reloads: Bool) {
        #expect(UpgradeGate.shouldReloadExtensions(after: report) == reloads)
    }

    /// The gate never opens early: on a locked first launch of an adopting release, before the
    /// app's launch, or when steps are pending; it opens from the stored state alone when the mark is
    /// at the running version.
    @Test(
        "before the app's launch, the follower's report of the stored state opens the gate only when nothing is pending"
    )
    func beforeTheLaunch() throws {
        let gate = UpgradeGate()
        func stateBefore(_ stored: UpgradeState?, locked: Bool = false) throws -> UpgradeGateState {
            let store = RecordingStore(stored)
            if locked { store.failLoads(with: protectedDataUnavailable) }
            return gate.state(after: try UpgradeFollower(store: store).launch(currentVersion: "2.0"))
        }
        #expect(try stateBefore(nil) == .launchNeeded)  // a fresh install is the app's launch to decide
        #expect(try stateBefore(nil, locked: true) == .waitingForProtectedData)
        #expect(try stateBefore(settledState(at: "2.0"), locked: true) == .waitingForProtectedData)
        #expect(try stateBefore(settledState(at: "1.0")) == .launchNeeded)
        #expect(try stateBefore(settledState(at: "3.0")) == .downgraded)
        #expect(try stateBefore(settledState(at: "2.0")) == .open)
    }

    @Test("after the app's launches: closed while locked, while a step fails, open once every step finished")
    func afterTheLaunches() async throws {
        let gate = UpgradeGate()
        let store = RecordingStore(settledState(at: "1.0"))
        let journal = Journal()
        let upgrader = makeUpgrader(store: store, steps: [journal.step("2.0", id: "a", script: [.fail, .ok])])

        store.failLoads(with: protectedDataUnavailable)
        let locked = try await upgrader.run(currentVersion: "2.0")
        #expect(gate.state(after: locked) == .waitingForProtectedData)
        #expect(!UpgradeGate.shouldReloadExtensions(after: locked))

        store.failLoads(with: nil)
        let failed = try await upgrader.run(currentVersion: "2.0")
        #expect(gate.state(after: failed) == .stepFailed(id: "a"))

        let upgraded = try await upgrader.run(currentVersion: "2.0")
        #expect(gate.state(after: upgraded) == .open)
        #expect(UpgradeGate.shouldReloadExtensions(after: upgraded))
        #expect(journal.ids == ["a", "a"])
    }
}
