import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// The report's one-line description says what the launch did: the version change, or the resumed
/// upgrade at the same version, with each retried step's attempt and the store's notices.
@Suite("The report's description")
struct ReportDescriptionTests {
    @Test("a failed step retried at the same version reads as a resumed upgrade, with its attempt")
    func retryAtTheSameVersion() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let steps = [journal.step("2.0", script: [.fail, .ok]), journal.step("2.0.1")]
        let first = try await makeUpgrader(store: store, steps: steps).run(currentVersion: "2.0.1")
        #expect(
            first.description
                == "failed 1.0 -> 2.0.1: ran appUpgradeTo_2_0; appUpgradeTo_2_0 failed on attempt 1: "
                + "\(StepFailure(stepID: "appUpgradeTo_2_0", attempt: 1))")

        let retry = try await makeUpgrader(store: store, steps: steps).run(currentVersion: "2.0.1")
        #expect(retry.outcome == .upgraded)
        #expect(retry.previousVersion == "2.0.1")
        #expect(retry.description == "upgraded, resumed at 2.0.1: ran appUpgradeTo_2_0 (attempt 2), appUpgradeTo_2_0_1")

        let after = try await makeUpgrader(store: store, steps: steps).run(currentVersion: "2.0.1")
        #expect(after.description == "upToDate at 2.0.1")
    }

    @Test("a step the process died in is resumed, and says its previous attempt was interrupted")
    func resumedAfterACrash() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let steps = [journal.step("1.1"), journal.step("2.0", store: store, script: [.crash, .ok])]
        await #expect(throws: StoreFault.self) {
            _ = try await makeUpgrader(store: store, steps: steps).run(currentVersion: "2.0")
        }
        store.revive()
        let resumed = try await makeUpgrader(store: store, steps: steps).run(currentVersion: "2.0")
        #expect(resumed.outcome == .upgraded)
        #expect(
            resumed.description
                == "upgraded, resumed at 2.0: ran appUpgradeTo_2_0 (attempt 2, after an interrupted attempt)")
    }

    @Test("a retried step after an update keeps the version change and names the attempt")
    func retryAfterAnUpdate() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let steps = [journal.step("2.0", script: [.fail, .fail, .ok]), journal.step("2.1")]
        _ = try await makeUpgrader(store: store, steps: steps).run(currentVersion: "2.0")
        let again = try await makeUpgrader(store: store, steps: steps).run(currentVersion: "2.0")
        #expect(
            again.description
                == "failed, resumed at 2.0: ran appUpgradeTo_2_0 (attempt 2); appUpgradeTo_2_0 failed on attempt 2: "
                + "\(StepFailure(stepID: "appUpgradeTo_2_0", attempt: 2))")
        let updated = try await makeUpgrader(store: store, steps: steps).run(currentVersion: "2.1")
        #expect(updated.description == "upgraded 2.0 -> 2.1: ran appUpgradeTo_2_0 (attempt 3), appUpgradeTo_2_1")
    }

    @Test("the description of each kind of launch")
    func eachKind() {
        func report(
            _ outcome: UpgradeOutcome, from previous: Version?, to current: Version, steps: [StepReport] = [],
            notices: [String] = []
        ) -> UpgradeReport {
            UpgradeReport(
                currentVersion: current, previousVersion: previous, upgradedThroughBefore: previous,
                upgradedThrough: current, outcome: outcome, steps: steps, startedAt: fixedDate, notices: notices)
        }
        func step(_ id: String, attempt: Int = 1, interrupted: Bool = false, abandoned: Bool = false) -> StepReport {
            StepReport(
                id: id, version: "1.0", attempt: attempt, previousAttemptInterrupted: interrupted,
                result: abandoned ? .notRun : .completed, abandoned: abandoned, duration: .zero)
        }
        #expect(report(.freshInstall, from: nil, to: "1.0").description == "freshInstall (fresh) -> 1.0")
        #expect(report(.upToDate, from: "1.0", to: "1.0.0").description == "upToDate at 1.0.0")
        #expect(report(.downgraded, from: "2.0", to: "1.0").description == "downgraded 2.0 -> 1.0")
        #expect(report(.upToDate, from: "1.0", to: "1.1").description == "upToDate 1.0 -> 1.1")
        #expect(
            report(.upgraded, from: "1.1", to: "1.1", steps: [step("x", attempt: 3, abandoned: true)]).description
                == "upgraded, resumed at 1.1; abandoned x")
        #expect(
            report(.upgraded, from: "1.0", to: "1.1", steps: [step("a", attempt: 2, interrupted: true), step("b")])
                .description == "upgraded 1.0 -> 1.1: ran a (attempt 2, after an interrupted attempt), b")
        // Each notice on a line of its own, its line breaks made spaces; the summary line stays short.
        #expect(
            report(.upgraded, from: "8.8", to: "9.0", steps: [step("a")], notices: ["adopted 8.8", "history\nlost"])
                .description == "upgraded 8.8 -> 9.0: ran a\n  notice: adopted 8.8\n  notice: history lost")
        #expect(
            report(.upToDate, from: "9.0", to: "9.0", notices: ["moved aside"]).description
                == "upToDate at 9.0\n  notice: moved aside")
    }
}
