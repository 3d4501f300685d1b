// Real processes: only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import Testing
    import UpgradeCore
    import UpgradeStorage
    import UpgradeTestSupport
    import store_torture

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Real processes writing through the file store, killed with SIGKILL at random moments.
    @Suite("Crash consistency", .serialized)
    struct CrashConsistencyTests {
        /// How many writers are killed; each kill is followed by a full check of the folder.
        static let kills = 300

        @Test("after every kill the document parses and is one of the states written; temporary files do not pile up")
        func killedWriters() async throws {
            let directory = try TemporaryDirectory("crash")
            let url = directory.file("upgrade-state.json")
            let summary = try await Self.killWriters(at: url, count: Self.kills, seed: 0x5EED_CAFE)
            #expect(summary.problems.isEmpty, "\(summary.problems.joined(separator: "\n"))")
            #expect(summary.kills >= 200)
            // How many kills land inside the document copy's write (a temporary file left) depends on
            // the machine's speed, so it is reported below, not asserted: the checks above hold at
            // whatever moment each kill lands.
            #expect(summary.statesSeen > 1)
            // The next launch removes the last killed writer's temporary file.
            try await FileUpgradeStore(url: url).lockForLaunch().unlock()
            #expect(try temporaryFiles(in: directory.url).isEmpty)
            print("crash consistency: \(summary)")
        }

        struct Summary: CustomStringConvertible {
            var kills = 0
            var interruptedWrites = 0
            var statesSeen = 0
            var lastState = -1
            var seconds = 0.0
            /// What went wrong, by round.
            var problems: [String] = []

            var description: String {
                "\(kills) writers killed in \(String(format: "%.1f", seconds)) s; \(interruptedWrites) left a"
                    + " temporary file (killed inside a write); \(statesSeen) different states found; last state \(lastState)"
            }
        }

        /// Starts writers one after another and kills each at a random moment, checking after each kill.
        /// The pauses suspend the task (no thread is blocked); how long they really last varies with the
        /// machine's load, which only moves the moments of the kills, as intended.
        static func killWriters(at url: URL, count: Int, seed: UInt64) async throws -> Summary {
            var random = SeededRandomNumberGenerator(seed: seed)
            var summary = Summary()
            var next = 0
            let start = Date()
            var writers: Set<pid_t> = []
            for round in 0..<count {
                func problem(_ text: String) { summary.problems.append("round \(round): \(text)") }
                let writer = try TortureProcess.start(["write", url.path, String(next)])
                writers.insert(writer.pid)
                // Mostly kill while it writes; now and then while it starts or takes the lock.
                if Int.random(in: 0..<8, using: &random) != 0, try await writer.nextLine() != "locked" {
                    problem("the writer did not take the lock")
                }
                try await Task.sleep(for: .microseconds(Int.random(in: 0..<8_000, using: &random)))
                // A reader while the writer writes sees a whole document too.
                if let state = try FileUpgradeStore(url: url).load(), TortureStates.number(of: state) == nil {
                    problem("a reader saw a document that is not a state of the series")
                }
                try await Task.sleep(for: .microseconds(Int.random(in: 0..<8_000, using: &random)))
                writer.send(SIGKILL)
                let exit = try await writer.exit()
                if exit.signal != SIGKILL { problem("the writer was not killed: \(exit)") }
                summary.kills += 1

                // The document parses and is exactly one state of the series: the one found before, or
                // one this writer wrote.
                if let state = try FileUpgradeStore(url: url).load() {
                    guard let number = TortureStates.number(of: state) else {
                        problem("the document is not a state of the series")
                        continue
                    }
                    if number != summary.lastState && number < next { problem("state \(number) went back") }
                    if number != summary.lastState { summary.statesSeen += 1 }
                    summary.lastState = number
                    next = max(next, number + 1)
                } else if summary.lastState != -1 {
                    problem("the document disappeared")
                }

                // No pile-up: at most one temporary file, left by a killed writer; each writer that takes
                // the lock removes the one before.
                let temporaries = try temporaryFiles(in: url.deletingLastPathComponent())
                if temporaries.count > 1 { problem("temporary files pile up: \(temporaries)") }
                for name in temporaries {
                    let pid = name.dropFirst(".upgrade-state.json.tmp-".count).split(separator: "-").first
                    if !writers.contains(pid.flatMap { pid_t($0) } ?? -1) { problem("\(name) is not a writer's") }
                }
                if temporaries.contains(where: { $0.hasPrefix(".upgrade-state.json.tmp-\(writer.pid)-") }) {
                    summary.interruptedWrites += 1
                }
            }
            summary.seconds = Date().timeIntervalSince(start)
            return summary
        }
    }
#endif
