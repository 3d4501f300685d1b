import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

/// Ids compare as Swift strings (<doc:LaunchAlgorithm>, "Equal ids"): an id written as `é` in one scalar by one build and
/// as `e` and a combining accent by the next is one id, in every store, and the store keeps the text
/// first written.
@Suite("One id equality")
struct IDEqualityTests {
    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    struct Failure: Error {}

    /// The two spellings, in either order: (the first build's, the next build's).
    static let orders = [(composed, decomposed), (decomposed, composed)]

    @Test(
        "a failed attempt, a completion and an abandonment written under one spelling count under the other",
        arguments: StoreKind.allCases, 0..<2)
    func acrossBuilds(kind: StoreKind, order: Int) async throws {
        let (first, next) = Self.orders[order]
        #expect(first == next && !first.utf8.elementsEqual(next.utf8))
        let fixture = try StoreFixture(kind)
        try fixture.store().save(UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.0"))
        // The first build: the step fails once.
        let failing = Upgrader(store: try fixture.store()) { UpgradeStep("1.1", id: first) { throw Failure() } }
        #expect(try await failing.run(currentVersion: "1.1").outcome == .failed)
        // The next build spells the id the other way: its attempt is the second, it is recorded under
        // the first spelling, and a later step that fails keeps the mark where it is.
        let attempts = Locked<[Int]>([])
        let next1 = Upgrader(store: try fixture.store()) {
            UpgradeStep("1.1", id: next) { context in attempts.append(context.attempt) }
            UpgradeStep("1.2", id: "later") { throw Failure() }
        }
        #expect(try await next1.run(currentVersion: "1.2").outcome == .failed)
        #expect(attempts.value == [2])
        let stored = try #require(try fixture.relaunched().load())
        #expect(stored.completed.map(\.id) == [first])
        #expect(stored.completed.first.map { Array($0.id.utf8) } == Array(first.utf8))
        // A build with either spelling takes it as done.
        for spelling in [first, next] {
            let again = Upgrader(store: try fixture.store()) {
                UpgradeStep("1.1", id: spelling) { attempts.append(-1) }
                UpgradeStep("1.2", id: "later") { throw Failure() }
            }
            _ = try await again.run(currentVersion: "1.2")
        }
        #expect(attempts.value == [2])
    }

    @Test(
        "an interrupted attempt and an abandonment under one spelling are found under the other",
        arguments: StoreKind.allCases, 0..<2)
    func interruptedAndAbandoned(kind: StoreKind, order: Int) async throws {
        let (first, next) = Self.orders[order]
        let fixture = try StoreFixture(kind)
        var state = UpgradeState(upgradedThrough: "1.0", lastLaunched: "1.1")
        state.inProgress = StepInProgress(id: first, version: "1.1", attempt: 1)
        state.abandoned = [StepRecord(id: "gone-" + first, version: "1.1")]
        try fixture.store().save(state)
        let seen = Locked<[Int]>([])
        let upgrader = Upgrader(store: try fixture.store()) {
            UpgradeStep("1.1", id: "gone-" + next) { seen.append(-1) }
            UpgradeStep("1.1", id: next) { context in
                seen.append(context.previousAttemptInterrupted ? context.attempt : 0)
                throw Failure()
            }
        }
        #expect(try await upgrader.run(currentVersion: "1.1").outcome == .failed)
        #expect(seen.value == [2])
        let stored = try #require(try fixture.relaunched().load())
        #expect(stored.attempts.map { Array($0.id.utf8) } == [Array(first.utf8)])
        #expect(stored.attempts.first?.failed == 2)
        #expect(stored.abandoned.map { Array($0.id.utf8) } == [Array(("gone-" + first).utf8)])
    }
}
