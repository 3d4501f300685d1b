import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// Concurrent launches in one process never run a step twice.
@Suite("Concurrent launches")
struct ConcurrencyTests {
    /// Steps that suspend several times while they run, counting their runs in `tally`.
    static func suspendingSteps(_ tally: Locked<[String: Int]>) -> [UpgradeStep] {
        (0..<6).map { index in
            UpgradeStep(Version(major: 1, minor: index / 2), id: "s\(index)") {
                tally.increment("s\(index)")
                for _ in 0..<20 { await Task.yield() }
            }
        }
    }

    @Test("20 concurrent runs on one upgrader and its copies run each step once")
    func oneUpgraderAndCopies() async throws {
        let tally = Locked<[String: Int]>([:])
        // The store gives no exclusive access: the upgrader must serialize its own launches.
        let store = RecordingStore(settledState(at: "0.1"), serializesLaunches: false)
        let upgrader = makeUpgrader(store: store, steps: Self.suspendingSteps(tally))

        let outcomes = try await withThrowingTaskGroup(of: UpgradeOutcome.self) { group in
            for index in 0..<20 {
                var copy = upgrader
                copy.policy = index.isMultiple(of: 2) ? upgrader.policy : UpgradePolicy(giveUpAfter: 5)
                group.addTask { try await copy.run(currentVersion: "1.2").outcome }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(tally.value == Dictionary(uniqueKeysWithValues: (0..<6).map { ("s\($0)", 1) }))
        // The runs that arrived while the launch was in flight, with its policy, shared its report;
        // the others ran after it, with nothing left to do.
        #expect(outcomes.contains(.upgraded))
        #expect(outcomes.allSatisfy { $0 == .upgraded || $0 == .upToDate })
        #expect(store.state?.upgradedThrough == "1.2")
        #expect(store.state?.completed == [])
        // One launch wrote (k + 1 writes for its k = 6 steps); the others nothing.
        #expect(store.saves.count == 6 + 1)
    }

    @Test("concurrent runs through separate upgraders share the store's exclusive access")
    func separateUpgraders() async throws {
        let tally = Locked<[String: Int]>([:])
        let store = RecordingStore(settledState(at: "0.1"))

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                let upgrader = makeUpgrader(store: store, steps: Self.suspendingSteps(tally))
                group.addTask { _ = try await upgrader.run(currentVersion: "1.2") }
            }
            try await group.waitForAll()
        }

        #expect(tally.value.values.allSatisfy { $0 == 1 })
        #expect(tally.value.count == 6)
    }

    @Test("concurrent runs at increasing versions run each step once, in order")
    func increasingVersions() async throws {
        let journal = Journal()
        let store = RecordingStore(settledState(at: "0.1"), serializesLaunches: false)
        let steps = (0..<8).map { index in
            UpgradeStep(Version(major: 1, minor: index), id: "s\(index)") { (context: UpgradeContext) in
                journal.record(
                    Journal.Entry(
                        id: context.stepID, attempt: context.attempt, interrupted: false, stored: nil, act: .ok))
                await Task.yield()
            }
        }
        let upgrader = makeUpgrader(store: store, steps: steps)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask { _ = try await upgrader.run(currentVersion: Version(major: 1, minor: index % 8)) }
            }
            try await group.waitForAll()
        }

        #expect(Set(journal.ids).count == journal.ids.count)
        #expect(journal.ids == journal.ids.sorted { $0.dropFirst().compare($1.dropFirst()) == .orderedAscending })
    }
}
