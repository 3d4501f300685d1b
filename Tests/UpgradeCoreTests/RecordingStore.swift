import Foundation
import UpgradeCore
import UpgradeTestSupport

/// The error a ``RecordingStore`` throws for a write it was told to fail, or after it died.
struct StoreFault: Error, Equatable, CustomStringConvertible {
    /// Which write (counted from the store's creation, from 1) failed.
    let write: Int
    /// Whether the write failed because the simulated process had died.
    let afterDeath: Bool

    var description: String { afterDeath ? "write \(write): the process died" : "write \(write): injected failure" }
}

/// The test store: it keeps the state in memory and records every state saved, in order.
///
/// It can fail the n-th write, fail reads, and "die" as a process does: after ``die()`` every save
/// throws and is discarded, so the stored state stays as the last write before left it (the
/// `inProgress` record of the step that was running). ``revive()`` starts the next "process".
final class RecordingStore: UpgradeStore, Sendable {
    /// What the store keeps, and what it was told to do.
    private struct Contents {
        var stored: UpgradeState?
        var savedStates: [UpgradeState] = []
        var records: [LaunchRecord] = []
        /// For each save, whether it was a launch's last write, with a history record.
        var recordedSaves: [Bool] = []
        var attemptedWrites = 0
        var failingWrites: Set<Int> = []
        var dead = false
        var dyingWrite: Int?
        var loadError: (any Error)?
        var loads = 0
        var locks = 0
        var removedWhileLocked: [Bool] = []
    }

    private let contents: Locked<Contents>
    private let gate = AsyncGate()
    private let serializesLaunches: Bool
    /// The identity of the state, under which launches in the process are one launch; `nil` (the
    /// default): each upgrader's own.
    let stateIdentity: String?

    /// Creates a store holding `state` (`nil`: a fresh install).
    ///
    /// - Parameters:
    ///   - serializesLaunches: Whether ``lockForLaunch()`` gives exclusive access; `false` makes it a
    ///     no-op, to test that the upgrader serializes its own launches.
    ///   - identity: The identity of the state, for a test that waits for the callers of a launch.
    init(_ state: UpgradeState? = nil, serializesLaunches: Bool = true, identity: String? = nil) {
        contents = Locked(Contents(stored: state))
        self.serializesLaunches = serializesLaunches
        stateIdentity = identity
    }

    /// The state as stored now.
    var state: UpgradeState? { contents.value.stored }
    /// Every state saved successfully, oldest first.
    var saves: [UpgradeState] { contents.value.savedStates }
    /// For each save, whether it came with a launch record (the launch's last write).
    var savesWithRecord: [Bool] { contents.value.recordedSaves }
    /// How many times the state was read.
    var loadCount: Int { contents.value.loads }
    /// How many times exclusive access was taken.
    var lockCount: Int { contents.value.locks }

    /// Makes the `number`-th write attempt since the store was created fail (1 is the first).
    func failWrite(number: Int) { contents.withLock { _ = $0.failingWrites.insert(number) } }

    /// Makes every read throw `error` (or read normally again, for `nil`).
    func failLoads(with error: (any Error)?) { contents.withLock { $0.loadError = error } }

    /// Simulates the death of the process: every later save throws and is discarded.
    func die() { contents.withLock { $0.dead = true } }

    /// Simulates the death of the process at the `number`-th write attempt from now (1 is the next):
    /// that write and every later one throw and are discarded.
    func die(atWrite number: Int) { contents.withLock { $0.dyingWrite = $0.attemptedWrites + number } }

    /// Starts the next "process" after ``die()``: saves work again.
    func revive() {
        contents.withLock {
            $0.dead = false
            $0.dyingWrite = nil
        }
    }

    func load() throws -> UpgradeState? {
        try contents.withLock {
            $0.loads += 1
            if let loadError = $0.loadError { throw loadError }
            return $0.stored
        }
    }

    func save(_ state: UpgradeState) throws {
        try contents.withLock {
            $0.attemptedWrites += 1
            let write = $0.attemptedWrites
            if write == $0.dyingWrite { $0.dead = true }
            if $0.dead { throw StoreFault(write: write, afterDeath: true) }
            if $0.failingWrites.contains(write) { throw StoreFault(write: write, afterDeath: false) }
            $0.stored = state
            $0.savedStates.append(state)
            $0.recordedSaves.append(false)
        }
    }

    /// Saves as ``save(_:)`` does, and keeps the record in a bounded history.
    func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
        try save(state)
        contents.withLock {
            $0.recordedSaves[$0.recordedSaves.count - 1] = true
            $0.records.append(record)
            if $0.records.count > LaunchRecord.historyLimit { $0.records.removeFirst() }
        }
        return nil
    }

    func history() -> [LaunchRecord] { contents.value.records }

    /// Whether a launch holds the store's exclusive access now.
    var isLocked: Bool {
        guard serializesLaunches else { return false }
        if gate.tryAcquire() {
            gate.release()
            return false
        }
        return true
    }

    /// For each ``removeAll()``, whether the store's exclusive access was held when it was called.
    var removals: [Bool] { contents.value.removedWhileLocked }

    /// Removes the state and the history, recording whether a launch's exclusive access was held.
    func removeAll() throws {
        let held = serializesLaunches && !gate.tryAcquire()
        if serializesLaunches && !held { gate.release() }
        try contents.withLock {
            if $0.dead { throw StoreFault(write: $0.attemptedWrites, afterDeath: true) }
            $0.removedWhileLocked.append(held)
            $0.stored = nil
            $0.records = []
        }
    }

    func lockForLaunch() async throws -> any UpgradeStoreLock {
        contents.withLock { $0.locks += 1 }
        guard serializesLaunches else { return NoLock() }
        await gate.acquire()
        return Lock(gate: gate)
    }

    private struct Lock: UpgradeStoreLock {
        let gate: AsyncGate
        func unlock() { gate.release() }
    }

    private struct NoLock: UpgradeStoreLock {
        func unlock() {}
    }
}
