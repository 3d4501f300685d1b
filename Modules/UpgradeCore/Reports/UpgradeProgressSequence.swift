import VersionKit

/// A launch that reports its progress as it runs: iterating it runs the launch and yields its
/// ``UpgradeProgress`` values, the last of which carries the report.
///
/// Make one with ``Upgrader/runWithProgress(currentVersion:)``. Each iteration (each call of
/// ``makeAsyncIterator()``) runs one launch, exactly as ``Upgrader/run(currentVersion:)`` does,
/// in a task of its own off the caller's actor. The values come from the launch's events, which
/// still reach the upgrader's own ``Upgrader/observer`` first. The iteration throws what the launch
/// throws. Leaving the loop early, or cancelling the task that iterates, cancels the launch: it
/// stops before its next step, as a cancelled ``Upgrader/run(currentVersion:)`` does.
public struct UpgradeProgressSequence: AsyncSequence, Sendable {
    /// The values: one progress value at a time.
    public typealias Element = UpgradeProgress

    /// The upgrader that runs the launch, with an observer that feeds the progress.
    let upgrader: Upgrader
    /// The running version.
    let currentVersion: Version

    /// Starts the launch and returns an iterator over its progress.
    ///
    /// - Returns: The iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        let upgrader = self.upgrader
        let currentVersion = self.currentVersion
        let stream = AsyncThrowingStream<UpgradeProgress, any Error>(bufferingPolicy: .unbounded) { continuation in
            let tracker = ProgressTracker(upgrader: upgrader, currentVersion: currentVersion)
            var observed = upgrader
            let original = upgrader.observer
            observed.observer = { event in
                original?(event)
                if let progress = tracker.progress(after: event) { continuation.yield(progress) }
            }
            let launch = Task {
                do {
                    _ = try await observed.run(currentVersion: currentVersion)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { termination in
                if case .cancelled = termination { launch.cancel() }
            }
        }
        return AsyncIterator(base: stream.makeAsyncIterator())
    }

    /// Gives the launch's progress values one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<UpgradeProgress, any Error>.Iterator

        /// Waits for the next progress value.
        ///
        /// - Returns: The next value; `nil` after the last one (the one with the report).
        /// - Throws: What the launch threw, such as a store error or ``UpgradeError``.
        public mutating func next() async throws -> UpgradeProgress? {
            try await base.next()
        }
    }
}

extension Upgrader {
    /// Runs one launch at the given version, as ``run(currentVersion:)`` does, and yields its
    /// progress for a launch screen.
    ///
    /// Nothing runs until the sequence is iterated; each iteration runs one launch.
    ///
    /// ```swift
    /// for try await progress in upgrader.runWithProgress(currentVersion: version) {
    ///     status = progress          // "1 of 3 steps; running reindex-notes (Rebuild the search index)"
    ///     if let report = progress.report { print(report) }
    /// }
    /// ```
    ///
    /// A launch with nothing to do yields one value, with its report and nothing pending.
    ///
    /// - Parameter currentVersion: The version of the app that is running.
    /// - Returns: The launch, as a sequence of progress values.
    public func runWithProgress(currentVersion: Version) -> UpgradeProgressSequence {
        UpgradeProgressSequence(upgrader: self, currentVersion: currentVersion)
    }
}

/// Turns a launch's events into progress values. The events of one launch arrive one at a time,
/// on its task; the lock only makes the tracker safe to share with the `Sendable` observer.
final class ProgressTracker: @unchecked Sendable {
    private struct Counts {
        var handled = 0
        var total = 0
        var current: UpgradeProgress.RunningStep?
    }

    private let upgrader: Upgrader
    private let currentVersion: Version
    private let mutex = PlatformMutex()
    private var state = Counts()

    init(upgrader: Upgrader, currentVersion: Version) {
        self.upgrader = upgrader
        self.currentVersion = currentVersion
    }

    /// The progress after an event, or `nil` when the event changes nothing shown.
    func progress(after event: UpgradeEvent) -> UpgradeProgress? {
        switch event {
        case .launchWillStart:
            // The launch holds the lock and has read the state, but has written nothing yet: the state
            // read now is the one it read, and its pending steps are counted by the same rules.
            let total = pendingCount()
            return update { $0.total = total }
        case .stepWillStart(let context):
            let step = upgrader.catalog.step(withID: context.stepID)
            return update {
                $0.current = UpgradeProgress.RunningStep(
                    id: context.stepID, version: context.stepVersion, summary: step?.summary, attempt: context.attempt)
                // A store whose loadForLaunch differs from its load could have hidden a step.
                $0.total = max($0.total, $0.handled + 1)
            }
        case .stepFinished, .stepAbandoned:
            return update {
                $0.handled += 1
                $0.total = max($0.total, $0.handled)
                $0.current = nil
            }
        case .stepFailed:
            _ = update { $0.current = nil }
            return nil
        case .launchFinished(let report):
            let counts = update { _ in }
            return UpgradeProgress(handled: counts.handled, total: counts.total, report: report)
        case .launchAborted:
            return nil
        }
    }

    private func update(_ change: (inout Counts) -> Void) -> UpgradeProgress {
        mutex.withLock {
            change(&state)
            return UpgradeProgress(handled: state.handled, total: state.total, currentStep: state.current)
        }
    }

    /// The number of steps the launch has pending, from the stored state; 0 when it cannot be read
    /// (the count then grows as steps start).
    private func pendingCount() -> Int {
        do {
            let loaded = try upgrader.store.load()
            return LaunchMachine.start(
                loaded: loaded, current: currentVersion, policy: upgrader.policy, catalog: upgrader.catalog
            ).machine.pendingSteps.count
        } catch {
            return 0
        }
    }
}
