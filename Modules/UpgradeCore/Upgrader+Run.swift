import VersionKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Upgrader {
    /// Runs one launch at the given version: the pending steps in version order, each recorded as it
    /// finishes (<doc:LaunchAlgorithm>).
    ///
    /// A launch with nothing to do reads the state once, compares versions, and returns without
    /// taking the lock or writing, on the caller's executor: awaited from the main actor, it never
    /// leaves it. Otherwise the launch goes off the caller's actor (to the global concurrent
    /// executor), takes the store's exclusive access, reads the state again and runs: interrupted-
    /// attempt detection, the fresh-install and downgrade policies, then each pending step with its
    /// `inProgress` record written before it starts. The completion of a step is written together
    /// with the `inProgress` record of the next, and the last completion with the launch's end, so
    /// that a launch that runs k steps makes at most k + 1 writes. A failed step stops the launch
    /// (and is retried at the next); with `giveUpAfter` a step that keeps failing or crashing is
    /// abandoned and the steps after it go on. Cancelling the task stops the launch before the next
    /// step. The lock wait, the writes and the step actions never run on the caller's actor (a step
    /// isolated to an actor, such as `@MainActor`, runs there). Concurrent launches of the same store
    /// in the process are one launch: a caller with the same version, policy and steps gets the
    /// report (or the error) of the launch in flight; any other waits for it to end, then runs
    /// (<doc:LaunchAlgorithm>, "One launch per process"). An app extension launches as a follower
    /// instead, with ``run(currentVersion:role:)``.
    ///
    /// - Parameter currentVersion: The version of the app that is running.
    /// - Returns: What the launch did.
    /// - Throws: ``UpgradeError`` for a configuration mistake (before anything runs), or the store's
    ///   error (``UpgradeStoreError`` for the stores of UpgradeStorage) when the state cannot be read,
    ///   locked or written; nothing further runs then, and nothing is recorded as done that is not.
    nonisolated(nonsending)
        public func run(currentVersion: Version) async throws -> UpgradeReport
    {
        try validate()
        let startedAt = now()
        // The machine's first decision, on a read without the lock: a launch that would change
        // nothing needs no lock, since stores replace the state atomically. Any read error is left
        // for the locked read to report.
        switch firstDecision(on: try? store.load(), currentVersion: currentVersion, startedAt: startedAt) {
        case .nothingToDo(let report):
            observer?(.launchFinished(report))
            return report
        case .work(let prepared):
            return try await runWithLock(currentVersion: currentVersion, startedAt: startedAt, prepared: prepared)
        case .unread:
            return try await runWithLock(currentVersion: currentVersion, startedAt: startedAt, prepared: nil)
        }
    }

    /// What the unlocked read decided.
    private enum FirstDecision {
        /// The launch changes nothing; its report.
        case nothingToDo(UpgradeReport)
        /// The launch has work: the machine started on the state read.
        case work(PreparedLaunch)
        /// Nothing was read (no state, or an error, which the locked read reports).
        case unread
    }

    /// The machine's first decision on the unlocked read.
    ///
    /// - Parameters:
    ///   - loaded: The state read without the lock, taken (not copied) by the `switch`.
    ///   - currentVersion: The running version.
    ///   - startedAt: When the launch started.
    /// - Returns: The report of a launch that changes nothing, or the machine started for one that does.
    private func firstDecision(
        on loaded: consuming UpgradeState?, currentVersion: Version, startedAt: Date
    ) -> FirstDecision {
        guard case .some(var state) = consume loaded else { return .unread }
        let snapshot = state
        let machine = LaunchMachine(
            state: &state, freshInstall: false, from: snapshot.lastLaunched, current: currentVersion,
            policy: policy, catalog: catalog, recordingAt: startedAt.timeIntervalSince1970)
        guard machine.hasNothingToDo else {
            return .work(PreparedLaunch(snapshot: snapshot, machine: machine, state: state))
        }
        return .nothingToDo(
            UpgradeReport(
                currentVersion: currentVersion, previousVersion: snapshot.lastLaunched,
                upgradedThroughBefore: snapshot.upgradedThrough, upgradedThrough: snapshot.upgradedThrough,
                outcome: machine.outcomeWithNothingToDo, startedAt: startedAt))
    }

    /// The unlocked read of a launch and the machine started on it, reused when the locked read finds
    /// the same state (the machine is a pure function of the state, version, policy and steps).
    private struct PreparedLaunch: Sendable {
        var snapshot: UpgradeState
        var machine: LaunchMachine
        var state: UpgradeState
    }

    /// The launch proper, off the caller's actor: the process's one launch of the store (or the
    /// one in flight, shared), the store's lock, then the machine's effects.
    @concurrent
    private func runWithLock(
        currentVersion: Version, startedAt: Date, prepared: PreparedLaunch?
    ) async throws -> UpgradeReport {
        let ticket = LaunchRegistry.Ticket(version: currentVersion, policy: policy, catalog: catalog)
        let (report, shared) = try await LaunchRegistry.shared.launch(launchIdentity, ticket: ticket) {
            let lock = try await store.lockForLaunch()
            defer { lock.unlock() }
            return try await runLocked(
                currentVersion: currentVersion, startedAt: startedAt, prepared: prepared, lockNotice: lock.notice)
        }
        // The leader's observer saw the launch's events; this caller's hears how it ended, so that a
        // progress sequence ends with the report.
        if shared { observer?(.launchFinished(report)) }
        return report
    }

    /// The identity under which launches of this upgrader's store are one launch in the process:
    /// the store's own, or this upgrader's (shared by its copies) for a store that names none.
    var launchIdentity: String { store.stateIdentity ?? instance.identity }

    /// Holding the lock: reads the state again and carries out the machine's effects, building the
    /// report and the events as it goes.
    private func runLocked(
        currentVersion current: Version, startedAt: Date, prepared: PreparedLaunch?, lockNotice: String?
    ) async throws -> UpgradeReport {
        let elapsed = startStopwatch()
        let (loaded, notice) = try store.loadForLaunch()
        var machine: LaunchMachine
        var state: UpgradeState
        if let prepared, let loaded, prepared.snapshot == loaded {
            (machine, state) = (prepared.machine, prepared.state)
        } else {
            (machine, state) = LaunchMachine.start(
                loaded: loaded, current: current, policy: policy, catalog: catalog,
                recordingAt: startedAt.timeIntervalSince1970)
        }
        var report = UpgradeReport(
            currentVersion: current, previousVersion: loaded?.lastLaunched,
            upgradedThroughBefore: machine.startingMark, upgradedThrough: machine.startingMark, outcome: .upToDate,
            startedAt: startedAt, notices: [lockNotice, notice].compactMap { $0 })
        machine.reserveRoom(in: &state)
        report.steps.reserveCapacity(machine.pendingSteps.count)
        observer?(.launchWillStart(currentVersion: current, upgradedThrough: machine.startingMark))

        /// Carries out a write the machine decided; a failure ends the launch with the store's error.
        func write(_ body: () throws -> Void) throws {
            do {
                try body()
            } catch {
                var partial = report
                partial.duration = elapsed()
                observer?(.launchAborted(error: error, partialReport: partial))
                throw error
            }
        }

        while true {
            switch machine.next(&state, isCancelled: Task.isCancelled) {
            case .abandon(let index, let failedSoFar, let interrupted):
                // 4a: given up on before running.
                let step = catalog.steps[index]
                let id = step.id
                report.steps.append(
                    StepReport(
                        id: id, version: step.version, attempt: failedSoFar, previousAttemptInterrupted: interrupted,
                        result: .notRun, abandoned: true, duration: .zero))
                observer?(.stepAbandoned(stepID: id, version: step.version, failedAttempts: failedSoFar))
            case .saveAndRun(let index, let context):
                // 4b: the attempt is written before it starts; then 4c/4d.
                try write { try store.save(state) }
                let step = catalog.steps[index]
                observer?(.stepWillStart(context))
                let stepStart = elapsed()
                var failure: (any Error)?
                do {
                    try await step.perform(context)
                } catch {
                    failure = error
                }
                let duration = elapsed() - stepStart
                guard let error = failure else {
                    machine.succeeded(&state, milliseconds: duration.milliseconds)
                    report.steps.append(
                        StepReport(
                            id: context.stepID, version: step.version, attempt: context.attempt,
                            previousAttemptInterrupted: context.previousAttemptInterrupted, result: .completed,
                            abandoned: false, duration: duration))
                    observer?(.stepFinished(context, duration: duration))
                    continue
                }
                if error is CancellationError && Task.isCancelled {
                    // Cancellation counts as no attempt.
                    machine.cancelled(&state)
                    continue
                }
                let abandoned = machine.failed(&state, milliseconds: duration.milliseconds)
                report.steps.append(
                    StepReport(
                        id: context.stepID, version: step.version, attempt: context.attempt,
                        previousAttemptInterrupted: context.previousAttemptInterrupted, result: .failed(error),
                        abandoned: abandoned, duration: duration))
                observer?(.stepFailed(context, error: error, duration: duration, willRetry: !abandoned))
                if abandoned {
                    observer?(
                        .stepAbandoned(stepID: context.stepID, version: step.version, failedAttempts: context.attempt))
                }
            case .finish(let outcome, let writes):
                report.outcome = outcome
                report.upgradedThrough = state.upgradedThrough
                report.duration = elapsed()
                if writes, let record = machine.record {
                    // The launch's last write, with its record for the history beside the state.
                    var kept: String?
                    try write { kept = try store.save(state, recording: record) }
                    if let kept { report.notices.append(kept) }
                }
                observer?(.launchFinished(report))
                return report
            }
        }
    }
}

extension Duration {
    /// The duration in milliseconds, as a `Double`.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
