import VersionKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Upgrader {
    /// Runs one launch at the given version: the pending steps in version order, each recorded as it
    /// finishes (SPEC section 5).
    ///
    /// A launch with nothing to do reads the state once, compares versions, and returns without
    /// taking the lock or writing. Otherwise it takes the store's exclusive access, reads the state
    /// again and runs the launch: interrupted-attempt detection, the fresh-install and downgrade
    /// policies, then each pending step with its `inProgress` record written before it starts and
    /// its completion written after. A failed step stops the launch (and is retried at the next);
    /// with `giveUpAfter` a step that keeps failing or crashing is abandoned and the steps after it
    /// go on. Cancelling the task stops the launch before the next step.
    ///
    /// - Parameter currentVersion: The version of the app that is running.
    /// - Returns: What the launch did.
    /// - Throws: ``UpgradeError`` for a configuration mistake (before anything runs), or the store's
    ///   error (``UpgradeStoreError`` for the stores of UpgradeStorage) when the state cannot be read,
    ///   locked or written; nothing further runs then, and nothing is recorded as done that is not.
    public func run(currentVersion: Version) async throws -> UpgradeReport {
        try validate()
        // The fast path: a launch that would change nothing needs no lock, since stores replace the
        // state atomically. Any read error is left for the locked read to report.
        var fastPath: (snapshot: UpgradeState, preparation: LaunchPreparation)?
        if let snapshot = try? store.load() {
            let preparation = LaunchPreparation(
                loaded: snapshot, currentVersion: currentVersion, policy: policy, catalog: catalog)
            if preparation.pending.isEmpty {
                // Rule 5 may still move the mark, as after a launch that died before its last write.
                var settled = preparation.state
                if preparation.terminalOutcome == nil { LaunchPreparation.finish(&settled, at: currentVersion) }
                if settled == snapshot {
                    let report = UpgradeReport(
                        currentVersion: currentVersion, previousVersion: snapshot.lastLaunched,
                        upgradedThroughBefore: snapshot.upgradedThrough, upgradedThrough: snapshot.upgradedThrough,
                        outcome: preparation.terminalOutcome ?? .upToDate, startedAt: now())
                    observer?(.launchFinished(report))
                    return report
                }
            }
            fastPath = (snapshot, preparation)
        }
        let prepared = fastPath
        return try await gate.withGate {
            let lock = try await store.lockForLaunch()
            defer { lock.unlock() }
            return try await runLocked(currentVersion: currentVersion, prepared: prepared)
        }
    }

    /// The launch proper, holding the in-process gate and the store's lock.
    ///
    /// `prepared` is the fast path's unlocked read and its preparation: when the locked read finds the
    /// same state, the preparation (a pure function of the state, version, policy and steps) is reused.
    private func runLocked(
        currentVersion current: Version, prepared: (snapshot: UpgradeState, preparation: LaunchPreparation)?
    ) async throws -> UpgradeReport {
        let start = elapsed()
        let (loaded, notice) = try store.loadForLaunch()
        let preparation: LaunchPreparation
        if let prepared, let loaded, prepared.snapshot == loaded {
            preparation = prepared.preparation
        } else {
            preparation = LaunchPreparation(loaded: loaded, currentVersion: current, policy: policy, catalog: catalog)
        }
        var state = preparation.state
        var report = UpgradeReport(
            currentVersion: current, previousVersion: loaded?.lastLaunched,
            upgradedThroughBefore: preparation.startingMark, upgradedThrough: preparation.startingMark,
            outcome: .upToDate, startedAt: now(), notices: notice.map { [$0] } ?? [])
        observer?(.launchWillStart(currentVersion: current, upgradedThrough: preparation.startingMark))

        // Whether the store holds a write of this launch, such as an inProgress record.
        var wrote = false
        let save: (UpgradeState, UpgradeReport) throws -> Void = { state, report in
            do {
                try store.save(state)
                wrote = true
            } catch {
                var partial = report
                partial.duration = elapsed() - start
                observer?(.launchAborted(error: error, partialReport: partial))
                throw error
            }
        }

        var outcome: UpgradeOutcome? = preparation.terminalOutcome
        if outcome == nil {
            outcome = try await runPending(
                preparation, current: current, state: &state, report: &report, save: save)
        }
        report.outcome = outcome!
        report.upgradedThrough = state.upgradedThrough
        report.duration = elapsed() - start
        // A step cancelled while running leaves the state as loaded, but its inProgress is stored.
        if LaunchPreparation.needsFinalWrite(loaded: loaded, state: state, wroteDuringLaunch: wrote) {
            // The launch's last write, with its record for the history beside the state.
            let notice: String?
            do {
                notice = try store.save(state, recording: LaunchRecord(report))
            } catch {
                observer?(.launchAborted(error: error, partialReport: report))
                throw error
            }
            if let notice { report.notices.append(notice) }
        }
        observer?(.launchFinished(report))
        return report
    }

    /// Rules 4 and 5: runs the pending steps and returns how the launch ended.
    ///
    /// The decisions are the ``LaunchMachine``'s; this driver saves the state when told, runs the
    /// steps' actions, and builds the report and the events.
    private func runPending(
        _ preparation: LaunchPreparation, current: Version, state: inout UpgradeState, report: inout UpgradeReport,
        save: (UpgradeState, UpgradeReport) throws -> Void
    ) async throws -> UpgradeOutcome {
        var machine = LaunchMachine(pending: preparation.pending, current: current, policy: policy, catalog: catalog)
        while true {
            switch machine.next(&state, isCancelled: Task.isCancelled) {
            case .finished(let outcome):
                return outcome
            case .abandon(let index, let failedSoFar, let interrupted):
                // 4a: given up on before running.
                let step = catalog.steps[index]
                report.steps.append(
                    StepReport(
                        id: step.id, version: step.version, attempt: failedSoFar,
                        previousAttemptInterrupted: interrupted, result: .notRun,
                        abandoned: true, duration: .zero))
                try save(state, report)
                observer?(.stepAbandoned(stepID: step.id, version: step.version, failedAttempts: failedSoFar))
            case .run(let index, let context):
                // 4b: the attempt is recorded before it starts.
                let step = catalog.steps[index]
                try save(state, report)
                observer?(.stepWillStart(context))
                // 4c/4d: run it.
                let stepStart = elapsed()
                var failure: (any Error)?
                do {
                    try await step.action(context)
                } catch {
                    failure = error
                }
                let duration = elapsed() - stepStart
                guard let error = failure else {
                    machine.succeeded(&state)
                    report.steps.append(
                        StepReport(
                            id: step.id, version: step.version, attempt: context.attempt,
                            previousAttemptInterrupted: context.previousAttemptInterrupted, result: .completed,
                            abandoned: false, duration: duration))
                    try save(state, report)
                    observer?(.stepFinished(context, duration: duration))
                    continue
                }
                if error is CancellationError && Task.isCancelled {
                    // Cancellation counts as no attempt.
                    machine.cancelled(&state)
                    continue
                }
                let end = machine.failed(&state)
                report.steps.append(
                    StepReport(
                        id: step.id, version: step.version, attempt: context.attempt,
                        previousAttemptInterrupted: context.previousAttemptInterrupted, result: .failed(error),
                        abandoned: end.abandoned, duration: duration))
                observer?(.stepFailed(context, error: error, duration: duration, willRetry: !end.abandoned))
                guard end.save else { continue }
                try save(state, report)
                observer?(.stepAbandoned(stepID: step.id, version: step.version, failedAttempts: context.attempt))
            }
        }
    }
}

extension LaunchRecord {
    init(_ report: UpgradeReport) {
        self.init(
            time: report.startedAt.timeIntervalSince1970, from: report.previousVersion, to: report.currentVersion,
            outcome: report.outcome,
            steps: report.steps.map {
                Step(
                    id: $0.id, attempt: $0.attempt, result: $0.result.kind, abandoned: $0.abandoned,
                    milliseconds: $0.duration.milliseconds)
            })
    }
}

extension Duration {
    /// The duration in milliseconds, as a `Double`.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
