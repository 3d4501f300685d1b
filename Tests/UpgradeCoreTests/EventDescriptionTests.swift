import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// An error whose text spans two lines, to check that an event stays on one.
private struct TwoLineError: Error, CustomStringConvertible {
    var description: String { "disk full\nwhile writing notes/1.json" }
}

private func context(_ id: String, _ version: Version, attempt: Int = 1, interrupted: Bool = false) -> UpgradeContext {
    UpgradeContext(
        stepID: id, stepVersion: version, currentVersion: "2.1", attempt: attempt,
        previousAttemptInterrupted: interrupted)
}

private let report = UpgradeReport(
    currentVersion: "2.1", previousVersion: "1.0", upgradedThroughBefore: "1.0", upgradedThrough: "1.0",
    outcome: .failed, startedAt: Date(timeIntervalSince1970: 0))

/// `UpgradeEvent.description`, one line per event, and `UpgradeEvent.lineObserver(_:)`.
@Suite("Event lines")
struct EventDescriptionTests {
    static let cases: [(UpgradeEvent, String)] = [
        (
            .launchWillStart(currentVersion: "2.1", upgradedThrough: "1.0"),
            "launch at 2.1 started, upgraded through 1.0"
        ),
        (
            .launchWillStart(currentVersion: "2.1", upgradedThrough: nil),
            "launch at 2.1 started, upgraded through no version yet"
        ),
        (.stepWillStart(context("appUpgradeTo_1_1", "1.1")), "step appUpgradeTo_1_1 started, attempt 1"),
        (
            .stepWillStart(context("settings-to-json", "2.0", attempt: 2, interrupted: true)),
            "step settings-to-json (2.0) started, attempt 2 (the previous attempt was interrupted)"
        ),
        (
            .stepFinished(context("settings-to-json", "2.0"), duration: .microseconds(3_240)),
            "step settings-to-json (2.0) finished on attempt 1 after 3.2 ms"
        ),
        (
            .stepFinished(context("appUpgradeTo_1_1", "1.1"), duration: .zero),
            "step appUpgradeTo_1_1 finished on attempt 1 after 0.0 ms"
        ),
        (
            .stepFinished(context("appUpgradeTo_1_1", "1.1"), duration: .milliseconds(999.96)),
            "step appUpgradeTo_1_1 finished on attempt 1 after 1.00 s"
        ),
        (
            .stepFinished(context("appUpgradeTo_1_1", "1.1"), duration: .milliseconds(62_049)),
            "step appUpgradeTo_1_1 finished on attempt 1 after 62.05 s"
        ),
        (
            .stepFailed(
                context("settings-to-json", "2.0"), error: TwoLineError(), duration: .milliseconds(12),
                willRetry: true),
            "step settings-to-json (2.0) failed on attempt 1 after 12.0 ms: disk full while writing notes/1.json;"
                + " retried at the next launch"
        ),
        (
            .stepFailed(
                context("appUpgradeTo_1_4", "1.4", attempt: 3),
                error: UpgradeStepReturnedFalse(stepID: "appUpgradeTo_1_4"), duration: .milliseconds(1),
                willRetry: false),
            "step appUpgradeTo_1_4 failed on attempt 3 after 1.0 ms: step appUpgradeTo_1_4 returned false;"
                + " given up on"
        ),
        (
            .stepAbandoned(stepID: "rename-note-text-key", version: "2.1", failedAttempts: 3),
            "step rename-note-text-key (2.1) abandoned after 3 failed attempts"
        ),
        (
            .stepAbandoned(stepID: "appUpgradeTo_2_1", version: "2.1", failedAttempts: 1),
            "step appUpgradeTo_2_1 abandoned after 1 failed attempt"
        ),
        (.launchFinished(report), "launch finished: failed 1.0 -> 2.1"),
        (
            .launchAborted(error: TwoLineError(), partialReport: report),
            "launch aborted by the store: disk full while writing notes/1.json; until then: failed 1.0 -> 2.1"
        ),
    ]

    @Test("each event is one line naming what happened", arguments: cases)
    func description(event: UpgradeEvent, line: String) {
        #expect(event.description == line)
        #expect("\(event)" == line)
        #expect(!event.description.contains { $0.isNewline })
    }

    @Test("the end of a launch with notices: its line, then each notice on a line of its own, as the report has them")
    func noticeLines() {
        var noted = report
        noted.notices = ["adopted version 1.0 from the legacy key \"localAppVersion\"", "history\nnot kept"]
        let finished = UpgradeEvent.launchFinished(noted)
        #expect(
            finished.description
                == "launch finished: failed 1.0 -> 2.1\n  notice: adopted version 1.0 from the legacy key"
                + " \"localAppVersion\"\n  notice: history not kept")
        #expect(
            noted.description == "failed 1.0 -> 2.1"
                + finished.description.dropFirst("launch finished: failed 1.0 -> 2.1".count))
        #expect(
            UpgradeEvent.launchAborted(error: TwoLineError(), partialReport: noted).description.split(separator: "\n")
                .count == 3)
        let lines = Locked<[String]>([])
        UpgradeEvent.lineObserver { lines.append($0) }(finished)
        #expect(
            lines.value == [
                "launch finished: failed 1.0 -> 2.1",
                "  notice: adopted version 1.0 from the legacy key \"localAppVersion\"", "  notice: history not kept",
            ])
    }

    @Test("a line observer writes every event of a launch, in order, as its description")
    func lineObserver() async throws {
        let lines = Locked<[String]>([])
        let events = EventLog()
        let store = RecordingStore(settledState(at: "1.0"))
        let steps = [
            UpgradeStep("1.1") {},
            UpgradeStep("2.0", id: "settings-to-json") { false },
        ]
        var upgrader = makeUpgrader(
            store: store, policy: UpgradePolicy(giveUpAfter: 1), clock: SteppingClock(step: .milliseconds(5)),
            steps: steps)
        let write = UpgradeEvent.lineObserver { lines.append($0) }
        let record = events.observer
        upgrader.observer = { event in
            record(event)
            write(event)
        }

        _ = try await upgrader.run(currentVersion: "2.1")

        #expect(lines.value == events.events.map(\.description))
        #expect(
            lines.value == [
                "launch at 2.1 started, upgraded through 1.0",
                "step appUpgradeTo_1_1 started, attempt 1",
                "step appUpgradeTo_1_1 finished on attempt 1 after 5.0 ms",
                "step settings-to-json (2.0) started, attempt 1",
                "step settings-to-json (2.0) failed on attempt 1 after 5.0 ms: step settings-to-json returned false;"
                    + " given up on",
                "step settings-to-json (2.0) abandoned after 1 failed attempt",
                "launch finished: upgraded 1.0 -> 2.1: ran appUpgradeTo_1_1, settings-to-json; abandoned settings-to-json",
            ])
    }
}
