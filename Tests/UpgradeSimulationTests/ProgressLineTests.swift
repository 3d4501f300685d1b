import Foundation
import Testing
import UpgradeExplorer
import UpgradeTestSupport

@testable import upgrade_sim

/// A clock and a terminal for the progress line, set by the test.
private struct FakeTerminal {
    private let now = Locked(Duration.zero)
    private let output = Locked("")

    var written: String { output.value }

    func advance(to time: Duration) { now.value = time }

    func line(_ label: String = "big.json") -> ProgressLine {
        let now = now
        let output = output
        return ProgressLine(label: label, elapsed: { now.value }, write: { text in output.withLock { $0 += text } })
    }
}

@Suite("explore's progress line")
struct ProgressLineTests {
    let progress = ExplorationProgress(level: 12, states: 34_567, transitions: 5_200_000, policy: 3, policies: 18)

    @Test("shown only on a terminal and without --no-progress")
    func decision() {
        #expect(ProgressLine.isShown(isTerminal: true, hidden: false))
        #expect(!ProgressLine.isShown(isTerminal: false, hidden: false))
        #expect(!ProgressLine.isShown(isTerminal: true, hidden: true))
        #expect(!ProgressLine.isShown(isTerminal: false, hidden: true))
    }

    @Test("level, policy, states, transitions and rate; a bounded search's launches")
    func text() {
        #expect(
            ProgressLine.text(progress, label: "big.json", elapsed: .seconds(2))
                == "big.json: level 12, policy 3 of 18, 34,567 states, 5,200,000 transitions, 2,600,000/s")
        let one = ExplorationProgress(level: 3, states: 999, transitions: 1000)
        #expect(
            ProgressLine.text(one, label: "f", elapsed: .milliseconds(500))
                == "f: level 3, 999 states, 1,000 transitions, 2,000/s")
        let bounded = ExplorationProgress(level: 0, states: 0, transitions: 1_234_567)
        #expect(ProgressLine.text(bounded, label: "f", elapsed: .zero) == "f: 1,234,567 launches, 0/s")
        #expect(ProgressLine.grouped(0) == "0" && ProgressLine.grouped(100) == "100")
        #expect(ProgressLine.grouped(1000) == "1,000" && ProgressLine.grouped(-12_345) == "-12,345")
    }

    @Test("nothing in the first second; then one line rewritten in place, at most every 0.1 s; erased at the end")
    func timing() {
        let terminal = FakeTerminal()
        let line = terminal.line()
        terminal.advance(to: .milliseconds(999))
        line.update(progress)
        line.finish()
        #expect(terminal.written.isEmpty)
        terminal.advance(to: .seconds(1))
        line.update(progress)
        let first = "\r\u{1B}[K" + ProgressLine.text(progress, label: "big.json", elapsed: .seconds(1))
        #expect(terminal.written == first)
        terminal.advance(to: .milliseconds(1050))
        line.update(progress)
        #expect(terminal.written == first)
        terminal.advance(to: .milliseconds(1100))
        line.update(progress)
        #expect(terminal.written.components(separatedBy: "\r\u{1B}[K").count == 3)
        #expect(!terminal.written.contains("\n"))
        line.finish()
        #expect(terminal.written.hasSuffix("/s\r\u{1B}[K"))
    }
}

// Runs the built binary: only where a test can start a process (not on iOS, tvOS, watchOS or visionOS).
#if os(macOS) || os(Linux)
    @Suite("explore's progress and cost, end to end")
    struct ExploreProgressEndToEndTests {
        static let scaleFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Benchmarks/ScaleFixtures")

        @Test("a long search whose standard error is not a terminal writes nothing there")
        func notATerminal() async throws {
            let path = Self.scaleFixtures.appendingPathComponent("scale-60-steps.json").path
            let result = try await Binary.run(["explore", path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.contains("explored 1 fixture with the standard engine to a fixpoint: "))
            let hidden = try await Binary.run(["explore", "--no-progress", "--depth", "1", path])
            #expect(hidden.status == 0 && hidden.stderr.isEmpty)
        }

        @Test("--quiet is run's: explore refuses it, naming --no-progress")
        func quietIsRun() async throws {
            let path = Self.scaleFixtures.appendingPathComponent("scale-60-steps.json").path
            let result = try await Binary.run(["explore", "--quiet", "--depth", "1", path])
            #expect(result.status == 2)
            #expect(
                result.stderr.hasPrefix(
                    "error: unknown option \"--quiet\"; explore's progress line is hidden with --no-progress"
                        + " (--quiet is run's terse report)\n"), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }

        @Test("--help says what it costs and what to do when a fixture is too large")
        func help() async throws {
            let result = try await Binary.run(["explore", "--help"])
            #expect(result.status == 0)
            let help = result.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(
                of: "  ", with: " ")
            #expect(help.contains("--no-progress"))
            #expect(!help.contains("--quiet"))
            #expect(help.contains("What it costs"))
            #expect(help.contains("versions x states launches"))
            #expect(help.contains("When a fixture is too large, explore its own policy only"))
            #expect(help.contains("--depth N (every history of 1 to N launches: about versions^N launches"))
        }
    }
#endif
