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
    /// A launch with nothing to do returns on the caller's executor without taking the lock or
    /// writing (<doc:LaunchAlgorithm>, "The fast path"); one with work runs off the caller's actor,
    /// holding the store's lock (<doc:LaunchAlgorithm>, "What runs where"). Concurrent launches of the
    /// same store in the process are one launch (<doc:LaunchAlgorithm>, "One launch per process").
    /// The device's own conditions end a launch without an error (<doc:LaunchAlgorithm>, "Device
    /// conditions"): protected data unavailable and a step that throws ``UpgradeStepNotNow`` give
    /// ``UpgradeOutcome/deferred``; a cancelled task or ``interruptLaunch()`` gives
    /// ``UpgradeOutcome/cancelled``, without counting the running step's attempt. An app extension
    /// launches as a follower instead, with ``run(currentVersion:role:)``.
    ///
    /// - Parameter currentVersion: The version of the app that is running.
    /// - Returns: What the launch did.
    /// - Throws: ``UpgradeError`` for a configuration mistake (before anything runs), or the store's
    ///   error (``UpgradeStoreError`` for the stores of UpgradeStorage) when the state cannot be read,
    ///   locked or written (except protected data unavailable, above); nothing further runs then, and
    ///   nothing is recorded as done that is not.
    nonisolated(nonsending)
        public func run(currentVersion: Version) async throws -> UpgradeReport
    {
        try validate()
        let startedAt = now()
        // The fast path: a read without the lock. Any read error is left for the locked read to report.
        let firstRead: UpgradeState?
        do {
            firstRead = try store.load()
        } catch let error as UpgradeStoreError where error.code == .protectedDataUnavailable {
            // <doc:LaunchAlgorithm>, "Protected data": nothing is decided, and no lock is taken.
            let report = deferredForProtectedData(error, currentVersion: currentVersion, startedAt: startedAt)
            observer?(.launchFinished(report))
            return report
        } catch {
            firstRead = nil
        }
        switch firstDecision(on: firstRead, currentVersion: currentVersion, startedAt: startedAt) {
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
        let identity = launchIdentity
        let (report, shared) = try await LaunchRegistry.shared.launch(identity, ticket: ticket) {
            let lock = try await store.lockForLaunch()
            // The launch runs in a task of its own, so that an interruption from any thread (the
            // lock's expiry, ``interruptLaunch()``) can cancel it; cancelling this caller's task
            // interrupts it the same way (<doc:LaunchAlgorithm>, "Interruptions").
            let interruption = LaunchInterruption(store: store, lock: lock, stored: nil)
            interruption.activate(identity)
            defer {
                interruption.deactivate(identity)
                interruption.release()
            }
            lock.setExpiryHandler { interruption.interrupt() }
            let upgrader = self
            let notice = lock.notice
            let task = Task {
                try await upgrader.runLocked(
                    currentVersion: currentVersion, startedAt: startedAt, prepared: prepared, lockNotice: notice,
                    interruption: interruption)
            }
            interruption.attach(task)
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                interruption.interrupt()
            }
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
        currentVersion current: Version, startedAt: Date, prepared: PreparedLaunch?, lockNotice: String?,
        interruption: LaunchInterruption
    ) async throws -> UpgradeReport {
        let elapsed = startStopwatch()
        let loaded: UpgradeState?
        let notice: String?
        do {
            (loaded, notice) = try store.loadForLaunch()
        } catch let error as UpgradeStoreError where error.code == .protectedDataUnavailable {
            // <doc:LaunchAlgorithm>, "Protected data": the lock is given up at once, nothing decided.
            let report = deferredForProtectedData(error, currentVersion: current, startedAt: startedAt)
            observer?(.launchFinished(report))
            return report
        }
        interruption.read(loaded)
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
            switch machine.next(&state, isCancelled: Task.isCancelled || interruption.isInterrupted) {
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
                // 4b: the attempt is written before it starts, unless the launch was interrupted
                // already; then 4c/4d. While it runs, an interruption writes it as not counted.
                var started = false
                try write { started = try interruption.write(state) { try store.save(state) } }
                guard started else {
                    machine.announcementRefused(&state)
                    continue
                }
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
                func stepReport(_ result: StepReport.Result, abandoned: Bool = false) -> StepReport {
                    StepReport(
                        id: context.stepID, version: step.version, attempt: context.attempt,
                        previousAttemptInterrupted: context.previousAttemptInterrupted, result: result,
                        abandoned: abandoned, duration: duration)
                }
                let notNow = failure as? UpgradeStepNotNow
                let cancelled = failure is CancellationError && Task.isCancelled
                var abandoned = false
                // The result changes the state under the interruption's mutex, unless the launch was
                // interrupted first; from then on an interruption writes the changed state.
                let applied = interruption.change {
                    if failure == nil {
                        machine.succeeded(&state, milliseconds: duration.milliseconds)
                    } else if cancelled {
                        machine.interrupted(&state)
                    } else if notNow != nil {
                        machine.notNow(&state, milliseconds: duration.milliseconds)
                    } else {
                        abandoned = machine.failed(&state, milliseconds: duration.milliseconds)
                    }
                    return state
                }
                if !applied {
                    // Interrupted while the step ran: no attempt counted, now or later
                    // (<doc:LaunchAlgorithm>, "Interruptions"). A step that finished all the same is
                    // recorded by the launch's last write, only if the state is still as the
                    // interruption left it; the launch stops either way.
                    if failure == nil {
                        machine.succeeded(&state, milliseconds: duration.milliseconds)
                        machine.stop()
                        report.steps.append(stepReport(.completed))
                        observer?(.stepFinished(context, duration: duration))
                    } else {
                        machine.interrupted(&state)
                        report.steps.append(stepReport(.interrupted))
                    }
                    continue
                }
                guard let error = failure else {
                    report.steps.append(stepReport(.completed))
                    observer?(.stepFinished(context, duration: duration))
                    continue
                }
                if cancelled {
                    report.steps.append(stepReport(.interrupted))
                    continue
                }
                if let notNow {
                    report.steps.append(stepReport(.notNow(reason: notNow.reason)))
                    report.deferral = .stepNotNow(stepID: context.stepID, reason: notNow.reason)
                    continue
                }
                report.steps.append(stepReport(.failed(error), abandoned: abandoned))
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
                    var wrote = false
                    try write {
                        wrote = try interruption.write(state) { kept = try store.save(state, recording: record) }
                    }
                    if !wrote {
                        report.outcome = .cancelled
                        // Nothing to add when the interruption wrote this very state (the step it
                        // interrupted ended without finishing).
                        if !interruption.stores(state) {
                            kept = await writeAfterInterruption(state, record: record, interruption: interruption)
                        }
                    }
                    if let kept { report.notices.append(kept) }
                }
                if interruption.isInterrupted, let failure = interruption.failure {
                    report.notices.append("the interruption could not write the state: \(failure)")
                }
                observer?(.launchFinished(report))
                return report
            }
        }
    }
}

extension Upgrader {
    /// The report of a launch that found protected data unavailable: it decided nothing
    /// (<doc:LaunchAlgorithm>, "Protected data").
    func deferredForProtectedData(
        _ error: UpgradeStoreError, currentVersion: Version, startedAt: Date
    ) -> UpgradeReport {
        var report = UpgradeReport(
            currentVersion: currentVersion, previousVersion: nil, upgradedThroughBefore: nil, upgradedThrough: nil,
            outcome: .deferred, startedAt: startedAt)
        report.deferral = .protectedDataUnavailable(detail: error.description)
        return report
    }

    /// The last write of a launch that goes on after an interruption gave the store's lock up
    /// (<doc:LaunchAlgorithm>, "Suspension"): takes the lock again and reads the state again; writes
    /// only when the state is still the one the launch last knew, otherwise nothing.
    ///
    /// - Returns: The notice for the report: what was kept, or why nothing was written.
    func writeAfterInterruption(
        _ state: UpgradeState, record: LaunchRecord, interruption: LaunchInterruption
    ) async -> String? {
        let store = self.store
        // In a task of its own: the launch's task is cancelled, and the wait for the lock must not
        // end for that.
        let result = await Task { () async -> String? in
            do {
                let lock = try await store.lockForLaunch()
                defer { lock.unlock() }
                let (reloaded, _) = try store.loadForLaunch()
                guard interruption.stores(reloaded) else {
                    return
                        "another launch changed the state while this launch was interrupted; nothing more was written"
                }
                return try store.save(state, recording: record)
                    ?? "the launch was interrupted, took the lock again and recorded what it had done"
            } catch {
                return "the launch was interrupted and could not record what it did since: \(error)"
            }
        }.value
        return result
    }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

extension Upgrader {
    /// Interrupts the launch of this upgrader's store running in this process, synchronously: for
    /// the expiry handler of the app's own `beginBackgroundTask(expirationHandler:)` or background
    /// task (<doc:LaunchAlgorithm>, "Interruptions" and "Suspension").
    ///
    /// Before it returns, the launch writes the running step's attempt as interrupted and not
    /// counted and gives up the store's lock, so that the app may be suspended at once; then the
    /// launch's task is cancelled, and the launch ends ``UpgradeOutcome/cancelled``. A running
    /// step sees its task cancelled and should end soon; throwing `CancellationError` is not a
    /// failure.
    ///
    /// ```swift
    /// let task = UIApplication.shared.beginBackgroundTask { upgrader.interruptLaunch() }
    /// ```
    ///
    /// - Returns: Whether a launch of the store was running (and is now interrupted).
    @discardableResult
    public func interruptLaunch() -> Bool {
        LaunchInterruption.interrupt(launchIdentity)
    }
}
