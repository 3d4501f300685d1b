import Foundation
import UpgradeCore

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
final class RecordingStore: UpgradeStore, @unchecked Sendable {
    private let lock = NSLock()
    private let gate = AsyncGate()
    private let serializesLaunches: Bool
    private var stored: UpgradeState?
    private var savedStates: [UpgradeState] = []
    private var records: [LaunchRecord] = []
    /// For each save, whether it was a launch's last write, with a history record.
    private var recordedSaves: [Bool] = []
    private var attemptedWrites = 0
    private var failingWrites: Set<Int> = []
    private var dead = false
    private var dyingWrite: Int?
    private var loadError: (any Error)?
    private var loads = 0
    private var locks = 0
    private var removedWhileLocked: [Bool] = []

    /// Creates a store holding `state` (`nil`: a fresh install).
    ///
    /// - Parameter serializesLaunches: Whether ``lockForLaunch()`` gives exclusive access; `false`
    ///   makes it a no-op, to test that the upgrader serializes its own launches.
    init(_ state: UpgradeState? = nil, serializesLaunches: Bool = true) {
        stored = state
        self.serializesLaunches = serializesLaunches
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The state as stored now.
    var state: UpgradeState? { locked { stored } }
    /// Every state saved successfully, oldest first.
    var saves: [UpgradeState] { locked { savedStates } }
    /// For each save, whether it came with a launch record (the launch's last write).
    var savesWithRecord: [Bool] { locked { recordedSaves } }
    /// How many times the state was read.
    var loadCount: Int { locked { loads } }
    /// How many times exclusive access was taken.
    var lockCount: Int { locked { locks } }

    /// Makes the `number`-th write attempt since the store was created fail (1 is the first).
    func failWrite(number: Int) { locked { _ = failingWrites.insert(number) } }

    /// Makes every read throw `error` (or read normally again, for `nil`).
    func failLoads(with error: (any Error)?) { locked { loadError = error } }

    /// Simulates the death of the process: every later save throws and is discarded.
    func die() { locked { dead = true } }

    /// Simulates the death of the process at the `number`-th write attempt from now (1 is the next):
    /// that write and every later one throw and are discarded.
    func die(atWrite number: Int) { locked { dyingWrite = attemptedWrites + number } }

    /// Starts the next "process" after ``die()``: saves work again.
    func revive() {
        locked {
            dead = false
            dyingWrite = nil
        }
    }

    func load() throws -> UpgradeState? {
        try locked {
            loads += 1
            if let loadError { throw loadError }
            return stored
        }
    }

    func save(_ state: UpgradeState) throws {
        try locked {
            attemptedWrites += 1
            if attemptedWrites == dyingWrite { dead = true }
            if dead { throw StoreFault(write: attemptedWrites, afterDeath: true) }
            if failingWrites.contains(attemptedWrites) { throw StoreFault(write: attemptedWrites, afterDeath: false) }
            stored = state
            savedStates.append(state)
            recordedSaves.append(false)
        }
    }

    /// Saves as ``save(_:)`` does, and keeps the record in a bounded history.
    func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
        try save(state)
        locked {
            recordedSaves[recordedSaves.count - 1] = true
            records.append(record)
            if records.count > LaunchRecord.historyLimit { records.removeFirst() }
        }
        return nil
    }

    func history() -> [LaunchRecord] { locked { records } }

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
    var removals: [Bool] { locked { removedWhileLocked } }

    /// Removes the state and the history, recording whether a launch's exclusive access was held.
    func removeAll() throws {
        let held = serializesLaunches && !gate.tryAcquire()
        if serializesLaunches && !held { gate.release() }
        try locked {
            if dead { throw StoreFault(write: attemptedWrites, afterDeath: true) }
            removedWhileLocked.append(held)
            stored = nil
            records = []
        }
    }

    func lockForLaunch() async throws -> any UpgradeStoreLock {
        locked { locks += 1 }
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
