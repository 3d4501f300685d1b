import VersionKit

/// What a launch at a given version would do, computed without running or writing anything.
public struct UpgradePlan: Sendable {
    /// What a launch would do with one registered step, and why.
    public enum Disposition: Sendable, Hashable {
        /// It would run, as this attempt; `previousAttemptInterrupted` when the last process died in it.
        case willRun(attempt: Int, previousAttemptInterrupted: Bool)
        /// It would be abandoned without running: its failed attempts reached `giveUpAfter`.
        case willAbandon(failedAttempts: Int)
        /// It finished earlier and is listed as completed above the mark.
        case completed
        /// It was abandoned earlier.
        case abandoned
        /// Its version is at or below the upgraded-through mark, so it counts as done.
        case atOrBelowMark
        /// Its version is above the running version; it waits for a later update.
        case aboveCurrentVersion
        /// The launch is a fresh install under the `skip` policy: nothing runs.
        case skippedByFreshInstall
        /// The launch is a downgrade: nothing runs.
        case skippedByDowngrade
        /// The store could not establish that protected data is readable: the launch decides
        /// nothing (``UpgradePlan/deferral`` says why), so nothing is known of the step.
        case notDecided
    }

    /// One registered step and its disposition.
    public struct Entry: Sendable {
        /// The step.
        public let step: UpgradeStep
        /// What the launch would do with it.
        public let disposition: Disposition
    }

    /// The version the plan is for.
    public let currentVersion: Version
    /// The stored upgraded-through mark, after the fresh-install policy; `nil` when nothing is done.
    public let upgradedThrough: Version?
    /// Whether no state is stored, so the launch would be a fresh install.
    public let isFreshInstall: Bool
    /// The outcome the launch would have if every step it runs succeeds.
    public let expectedOutcome: UpgradeOutcome
    /// Every registered step in run order, with its disposition.
    public let entries: [Entry]
    /// Why the launch would decide nothing, when the store cannot establish that protected data is
    /// readable (``UpgradeDeferral/protectedDataUnavailable(detail:)``; the expected outcome is then
    /// ``UpgradeOutcome/deferred``); `nil` otherwise.
    public var deferral: UpgradeDeferral?
    /// What the store said about the state the launch would start from, such as a legacy version it
    /// would adopt (``UpgradeStore/loadForPlan()``), in the words of the launch report's
    /// ``UpgradeReport/notices`` but in the future tense; empty when it said nothing.
    public var notices: [String] = []

    /// The ids of the steps the launch would run, in order.
    public var stepsToRun: [String] {
        entries.compactMap {
            if case .willRun = $0.disposition { return $0.step.id }
            return nil
        }
    }
}

extension UpgradePlan: CustomStringConvertible {
    /// The plan as lines: the expected outcome, then one line per notice (`  notice: ` and the
    /// notice, as in ``UpgradeReport/description``), then one line a step.
    ///
    /// ```
    /// launch at 9.1: upgraded (upgraded through 9.0.1)
    ///   notice: will adopt version 9.0.1 from the legacy key "localAppVersion" of standard defaults: ...
    ///   appUpgradeTo_9_1 (9.1): will run, attempt 1
    /// ```
    public var description: String {
        var lines = [
            "launch at \(currentVersion): \(expectedOutcome)"
                + (deferral.map { " (\($0))" }
                    ?? " (upgraded through \(upgradedThrough.map { "\($0)" } ?? "nothing")\(isFreshInstall ? ", fresh install" : ""))")
        ]
        for notice in notices { lines.append("  notice: " + UpgradeReport.line(notice)) }
        for entry in entries {
            let reason: String
            switch entry.disposition {
            case .willRun(let attempt, let interrupted):
                reason = "will run, attempt \(attempt)\(interrupted ? " (the previous attempt was interrupted)" : "")"
            case .willAbandon(let failed): reason = "will be abandoned after \(failed) failed attempts"
            case .completed: reason = "done: completed earlier"
            case .abandoned: reason = "done: abandoned earlier"
            case .atOrBelowMark: reason = "done: at or below the upgraded-through mark"
            case .aboveCurrentVersion: reason = "waits: above the running version"
            case .skippedByFreshInstall: reason = "not run: fresh install"
            case .skippedByDowngrade: reason = "not run: downgrade"
            case .notDecided: reason = "not decided: protected data is unavailable"
            }
            lines.append("  \(entry.step.id) (\(entry.step.version)): \(reason)")
        }
        return lines.joined(separator: "\n")
    }
}

extension Upgrader {
    /// Says what a launch at `currentVersion` would do with each registered step, and why, without
    /// running or writing anything.
    ///
    /// It reads the state through ``UpgradeStore/loadForPlan()``: a store that would adopt a legacy
    /// version plans from the adopted state and says so in ``UpgradePlan/notices``.
    ///
    /// - Parameter currentVersion: The version to plan a launch at.
    /// - Returns: The plan.
    /// - Throws: ``UpgradeError`` for a configuration mistake, or the store's error when the state
    ///   cannot be read; not when protected data is unavailable: the plan then says that the launch
    ///   would decide nothing (``UpgradePlan/deferral``).
    public func plan(currentVersion: Version) throws -> UpgradePlan {
        try validate()
        let loaded: UpgradeState?
        let notice: String?
        do {
            (loaded, notice) = try store.loadForPlan()
        } catch let error as UpgradeStoreError where error.code == .protectedDataUnavailable {
            var plan = UpgradePlan(
                currentVersion: currentVersion, upgradedThrough: nil, isFreshInstall: false,
                expectedOutcome: .deferred,
                entries: catalog.steps.map { UpgradePlan.Entry(step: $0, disposition: .notDecided) })
            plan.deferral = .protectedDataUnavailable(detail: error.description)
            return plan
        }
        var plan = plan(loaded: loaded, currentVersion: currentVersion)
        if let notice { plan.notices = [notice] }
        return plan
    }

    /// Plans a launch over a given state, as ``plan(currentVersion:)`` does over the stored one.
    ///
    /// - Parameters:
    ///   - loaded: The state to plan over; `nil` for a fresh install.
    ///   - currentVersion: The version to plan a launch at.
    /// - Returns: The plan.
    public func plan(loaded: UpgradeState?, currentVersion: Version) -> UpgradePlan {
        // The launch's own machine decides, driven as if every step it runs finished.
        var (machine, state) = LaunchMachine.start(
            loaded: loaded, current: currentVersion, policy: policy, catalog: catalog)
        let prepared = state
        var decided: [Int: UpgradePlan.Disposition] = [:]
        var expected = UpgradeOutcome.upToDate
        planning: while true {
            switch machine.next(&state) {
            case .abandon(let index, let failedSoFar, _):
                decided[index] = .willAbandon(failedAttempts: failedSoFar)
            case .saveAndRun(let index, let context):
                decided[index] = .willRun(
                    attempt: context.attempt, previousAttemptInterrupted: context.previousAttemptInterrupted)
                machine.succeeded(&state)
            case .finish(let outcome, _):
                expected = outcome
                break planning
            }
        }
        var entries: [UpgradePlan.Entry] = []
        entries.reserveCapacity(catalog.steps.count)
        for (index, step) in catalog.steps.enumerated() {
            let disposition: UpgradePlan.Disposition
            if step.version > currentVersion {
                disposition = .aboveCurrentVersion
            } else if machine.terminalOutcome == .freshInstall {
                disposition = .skippedByFreshInstall
            } else if machine.terminalOutcome == .downgraded {
                disposition = .skippedByDowngrade
            } else if let planned = decided[index] {
                disposition = planned
            } else if prepared.isCompleted(step.id) {
                disposition = .completed
            } else if prepared.isAbandoned(step.id) {
                disposition = .abandoned
            } else {
                disposition = .atOrBelowMark
            }
            entries.append(UpgradePlan.Entry(step: step, disposition: disposition))
        }
        return UpgradePlan(
            currentVersion: currentVersion, upgradedThrough: machine.startingMark, isFreshInstall: loaded == nil,
            expectedOutcome: expected, entries: entries)
    }

    /// The registered steps a launch at `currentVersion` would run or abandon, in run order.
    ///
    /// - Parameter currentVersion: The version to ask about.
    /// - Returns: The pending steps.
    /// - Throws: ``UpgradeError`` or the store's error, as ``plan(currentVersion:)``.
    public func pendingSteps(currentVersion: Version) throws -> [UpgradeStep] {
        try validate()
        // The plan's `willRun` and `willAbandon` entries are exactly the launch's pending steps; taking
        // them from the machine skips an entry for every registered step, so that the cost follows
        // the number of pending steps (a binary search when none is), not the number registered.
        let (machine, _) = LaunchMachine.start(
            loaded: try store.load(), current: currentVersion, policy: policy, catalog: catalog)
        return machine.pendingSteps.map { catalog.steps[$0] }
    }

    /// The registered steps that are done: at or below the mark, finished, or abandoned.
    ///
    /// - Returns: The done steps, in run order.
    /// - Throws: The store's error when the state cannot be read.
    public func doneSteps() throws -> [UpgradeStep] {
        guard let state = try store.load() else { return [] }
        return catalog.steps.filter { step in
            (state.upgradedThrough.map { step.version <= $0 } ?? false) || state.isCompleted(step.id)
                || state.isAbandoned(step.id)
        }
    }

    /// The stored state as it is now, for diagnostics.
    ///
    /// - Returns: The state, or `nil` before the first launch.
    /// - Throws: The store's error when the state cannot be read.
    public func storedState() throws -> UpgradeState? { try store.load() }

    /// The launches that wrote the state, oldest first, as the store keeps them beside it: when each
    /// started, from which version to which, how it ended, and what became of each step.
    ///
    /// For diagnostics: no launch rule reads the history, and a store may have lost some of it.
    ///
    /// - Returns: At most ``LaunchRecord/historyLimit`` records.
    /// - Throws: The store's error when the history exists but cannot be read.
    public func history() throws -> [LaunchRecord] { try store.history() }
}
