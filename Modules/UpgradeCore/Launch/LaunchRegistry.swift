import VersionKit

/// The launches in flight in this process, by the identity of the state they change: what makes
/// concurrent launches of one store one launch (<doc:LaunchAlgorithm>, "One launch per process").
/// The first caller for an identity leads; a later caller whose ``Ticket`` matches shares the
/// result, and any other waits for its turn.
package final class LaunchRegistry: @unchecked Sendable {
    /// The registry of the process.
    package static let shared = LaunchRegistry()

    /// What a launch is, for deciding whether another caller may share it.
    struct Ticket: Sendable {
        var version: Version
        var policy: UpgradePolicy
        var catalog: StepCatalog

        /// Whether a launch with `other` would do what this one does: the same version, policy, and
        /// steps (ids, versions and floors, in run order); actions cannot be compared.
        func matches(_ other: Ticket) -> Bool {
            guard version == other.version, policy == other.policy,
                catalog.steps.count == other.catalog.steps.count
            else { return false }
            for (mine, theirs) in zip(catalog.steps, other.catalog.steps) {
                guard mine.version == theirs.version, mine.isFloor == theirs.isFloor, mine.id == theirs.id else {
                    return false
                }
            }
            return true
        }
    }

    /// What a waiting caller is told when the launch it waited for ends.
    enum Turn {
        /// The caller leads the next launch (or exclusive operation) of the identity.
        case lead
        /// The caller shares the launch that ended: its report, or the error it threw.
        case shared(Result<UpgradeReport, any Error>)
    }

    /// One launch in flight and the callers waiting for it.
    private struct Flight {
        /// The leader's ticket; `nil` for an exclusive operation (a reset), which no one shares.
        var ticket: Ticket?
        /// The callers waiting, in arrival order, each with its ticket (`nil`: never shares).
        var waiters: [(ticket: Ticket?, continuation: CheckedContinuation<Turn, Never>)] = []
    }

    private let mutex = PlatformMutex()
    private var flights: [String: Flight] = [:]
    /// The tests waiting for a number of callers of an identity (``waitForCallers(_:of:)``).
    private var callerWaits: [(identity: String, count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    package init() {}

    /// Runs a launch as the one launch of `identity` in the process, or shares the one in flight.
    ///
    /// - Returns: The report of the launch this caller ran or shared, and whether it shared it.
    /// - Throws: The error of the launch this caller ran or shared.
    func launch(
        _ identity: String, ticket: Ticket, _ launch: () async throws -> UpgradeReport
    ) async throws -> (report: UpgradeReport, shared: Bool) {
        if case .shared(let result) = await turn(identity, ticket: ticket) { return (try result.get(), true) }
        let result: Result<UpgradeReport, any Error>
        do {
            result = .success(try await launch())
        } catch {
            result = .failure(error)
        }
        end(identity, with: result)
        return (try result.get(), false)
    }

    /// Runs `body` alone among the launches of `identity` in the process: after the launch in
    /// flight, and before the callers that arrive while it runs.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    func exclusive<T>(_ identity: String, _ body: () async throws -> T) async throws -> T {
        // A caller without a ticket shares nothing: its turn is always to lead.
        _ = await turn(identity, ticket: nil)
        defer { end(identity, with: nil) }
        return try await body()
    }

    /// Waits for this caller's turn to lead, or for a result to share (``end(_:with:)`` decides).
    private func turn(_ identity: String, ticket: Ticket?) async -> Turn {
        // The common case, nothing in flight, without a continuation.
        let (leadsAtOnce, arrived): (Bool, [CheckedContinuation<Void, Never>]) = mutex.withLock {
            guard flights[identity] == nil else { return (false, []) }
            flights[identity] = Flight(ticket: ticket)
            return (true, callersArrived(identity))
        }
        for wait in arrived { wait.resume() }
        if leadsAtOnce { return .lead }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let (leads, arrived) = mutex.withLock {
                if flights[identity] == nil {
                    flights[identity] = Flight(ticket: ticket)
                    return (true, callersArrived(identity))
                }
                flights[identity]!.waiters.append((ticket, continuation))
                return (false, callersArrived(identity))
            }
            for wait in arrived { wait.resume() }
            if leads { continuation.resume(returning: .lead) }
        }
    }

    /// Ends the flight of `identity`: the waiters whose tickets match the leader's share `result`;
    /// the first of the others leads the next flight, and the rest wait for it.
    private func end(_ identity: String, with result: Result<UpgradeReport, any Error>?) {
        var resumed: [(CheckedContinuation<Turn, Never>, Turn)] = []
        mutex.withLock {
            guard let flight = flights.removeValue(forKey: identity) else { return }
            var next: Flight?
            for waiter in flight.waiters {
                if let result, Self.isShareable(result), let mine = flight.ticket, let theirs = waiter.ticket,
                    mine.matches(theirs)
                {
                    resumed.append((waiter.continuation, .shared(result)))
                } else if next == nil {
                    next = Flight(ticket: waiter.ticket)
                    resumed.append((waiter.continuation, .lead))
                } else {
                    next!.waiters.append(waiter)
                }
            }
            if let next { flights[identity] = next }
        }
        for (continuation, turn) in resumed { continuation.resume(returning: turn) }
    }

    /// Whether a launch's result may be handed to a caller that did not run it: not when the
    /// leader's task was cancelled, which says nothing about the other callers' launches.
    private static func isShareable(_ result: Result<UpgradeReport, any Error>) -> Bool {
        switch result {
        case .success(let report): report.outcome != .cancelled
        case .failure(let error): !(error is CancellationError)
        }
    }

    /// How many callers are in flight or waiting for `identity`, for tests.
    package func callers(of identity: String) -> Int {
        mutex.withLock { callerCount(identity) }
    }

    /// Returns once `count` callers are in flight or waiting for `identity` (at once if they are
    /// already), for tests that must start something only when every caller has arrived.
    package func waitForCallers(_ count: Int, of identity: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = mutex.withLock {
                if callerCount(identity) >= count { return true }
                callerWaits.append((identity, count, continuation))
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// The callers in flight or waiting for `identity`; called holding the mutex.
    private func callerCount(_ identity: String) -> Int {
        flights[identity].map { 1 + $0.waiters.count } ?? 0
    }

    /// Takes out the waits of ``waitForCallers(_:of:)`` that a new caller of `identity` ends, for
    /// the caller to resume once it has let go of the mutex; called holding it.
    private func callersArrived(_ identity: String) -> [CheckedContinuation<Void, Never>] {
        guard !callerWaits.isEmpty else { return [] }
        let count = callerCount(identity)
        var arrived: [CheckedContinuation<Void, Never>] = []
        callerWaits.removeAll { wait in
            guard wait.identity == identity, count >= wait.count else { return false }
            arrived.append(wait.continuation)
            return true
        }
        return arrived
    }
}

/// The identity of one upgrader and its copies, for a store that names no identity of its own.
final class UpgraderInstance: Sendable {
    /// `upgrader ADDRESS`: unique among the upgraders alive in the process.
    var identity: String { "upgrader \(UInt(bitPattern: ObjectIdentifier(self)))" }
}
