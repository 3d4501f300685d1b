import VersionKit

/// Everything the launch rules read about one app's upgrades, as a store keeps it between launches.
///
/// `upgradedThrough` is the heart of it: every step at or below it is done. Steps above it that
/// finished or were given up on are listed in ``completed`` and ``abandoned`` until the mark passes
/// them. ``inProgress`` is written before a step starts, so that the next launch can tell that the
/// process died inside it. The history of launches is kept beside the state, not in it
/// (``UpgradeStore/history()``): no rule reads it.
public struct UpgradeState: Sendable, Hashable, Codable {
    /// Every step with a version at or below this is done; `nil` means nothing is done yet.
    public var upgradedThrough: Version?
    /// The app version of the most recent launch that ran the upgrader.
    public var lastLaunched: Version?
    /// Steps above ``upgradedThrough`` that finished, in the order they finished.
    public var completed: [StepRecord]
    /// Steps above ``upgradedThrough`` that were given up on, in the order they were abandoned.
    public var abandoned: [StepRecord]
    /// For each step not yet finished or abandoned that has failed or crashed, how many times.
    public var attempts: [StepAttempts]
    /// The step running now, written before it starts; found at launch, it means the process died.
    public var inProgress: StepInProgress?

    /// Creates a state; an empty one by default.
    ///
    /// - Parameters:
    ///   - upgradedThrough: The mark at or below which every step is done.
    ///   - lastLaunched: The app version of the most recent launch.
    ///   - completed: Finished steps above the mark.
    ///   - abandoned: Abandoned steps above the mark.
    ///   - attempts: Failed-or-crashed attempt counts of unfinished steps.
    ///   - inProgress: The step running now, if any.
    public init(
        upgradedThrough: Version? = nil, lastLaunched: Version? = nil, completed: [StepRecord] = [],
        abandoned: [StepRecord] = [], attempts: [StepAttempts] = [], inProgress: StepInProgress? = nil
    ) {
        self.upgradedThrough = upgradedThrough
        self.lastLaunched = lastLaunched
        self.completed = completed
        self.abandoned = abandoned
        self.attempts = attempts
        self.inProgress = inProgress
    }
}

/// The id and version of a step, as a state records it.
public struct StepRecord: Sendable, Hashable, Codable {
    /// The step's id.
    public var id: String
    /// The step's version.
    public var version: Version

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - id: The step's id.
    ///   - version: The step's version.
    public init(id: String, version: Version) {
        self.id = id
        self.version = version
    }
}

/// How many attempts of an unfinished step failed or crashed.
public struct StepAttempts: Sendable, Hashable, Codable {
    /// The step's id.
    public var id: String
    /// The step's version.
    public var version: Version
    /// The number of failed or crashed attempts: at least 1, or 0 for an entry that only says that
    /// the last attempt was interrupted and not counted (<doc:LaunchAlgorithm>, "Interruptions").
    public var failed: Int
    /// Whether the last attempt ended with the process dying inside the step, or was interrupted
    /// (its background time ran out, the launch was cancelled), so that the next attempt is told so
    /// whenever it comes (``UpgradeContext/previousAttemptInterrupted``). An interrupted attempt
    /// that was not counted leaves ``failed`` as it was.
    public var lastAttemptInterrupted: Bool

    /// Creates a count.
    ///
    /// - Parameters:
    ///   - id: The step's id.
    ///   - version: The step's version.
    ///   - failed: The number of failed or crashed attempts (0 only with `lastAttemptInterrupted`).
    ///   - lastAttemptInterrupted: Whether the last attempt died inside the step or was interrupted;
    ///     `false` by default.
    public init(id: String, version: Version, failed: Int, lastAttemptInterrupted: Bool = false) {
        self.id = id
        self.version = version
        self.failed = failed
        self.lastAttemptInterrupted = lastAttemptInterrupted
    }
}

/// The step that was running when the state was last written.
public struct StepInProgress: Sendable, Hashable, Codable {
    /// The step's id.
    public var id: String
    /// The step's version.
    public var version: Version
    /// Which attempt it was, from 1.
    public var attempt: Int

    /// Creates a record of a running step.
    ///
    /// - Parameters:
    ///   - id: The step's id.
    ///   - version: The step's version.
    ///   - attempt: Which attempt it is, from 1.
    public init(id: String, version: Version, attempt: Int) {
        self.id = id
        self.version = version
        self.attempt = attempt
    }
}

extension UpgradeState {
    /// How many attempts of the step failed or crashed since it last finished.
    ///
    /// - Parameter stepID: The step's id.
    /// - Returns: The count, 0 when none.
    public func failedAttempts(of stepID: String) -> Int {
        attempts.first { $0.id == stepID }?.failed ?? 0
    }

    /// Whether the step is listed as finished above the mark.
    ///
    /// - Parameter stepID: The step's id.
    /// - Returns: `true` when ``completed`` lists it.
    public func isCompleted(_ stepID: String) -> Bool { completed.contains { $0.id == stepID } }

    /// Whether the step is listed as abandoned above the mark.
    ///
    /// - Parameter stepID: The step's id.
    /// - Returns: `true` when ``abandoned`` lists it.
    public func isAbandoned(_ stepID: String) -> Bool { abandoned.contains { $0.id == stepID } }

    /// Whether the step's last attempt was interrupted: the process died inside it, or the launch was
    /// interrupted while it ran.
    ///
    /// - Parameter stepID: The step's id.
    /// - Returns: `true` when its next attempt is told that this one was interrupted.
    public func lastAttemptInterrupted(of stepID: String) -> Bool {
        attempts.first { $0.id == stepID }?.lastAttemptInterrupted ?? false
    }

    /// ``failedAttempts(of:)`` and ``lastAttemptInterrupted(of:)`` in one look.
    func attemptSummary(of stepID: String) -> (failed: Int, interrupted: Bool) {
        guard !attempts.isEmpty, let entry = attempts.first(where: { $0.id == stepID }) else {
            return (0, false)
        }
        return (entry.failed, entry.lastAttemptInterrupted)
    }

    /// The text under which the state writes a step's id: that of its `attempts` entry, which is
    /// `==` to `stepID` but may have been written in other code points by an earlier build, or
    /// `stepID` when it has none.
    func writtenID(of stepID: String) -> String {
        attempts.first { $0.id == stepID }?.id ?? stepID
    }

    mutating func setFailedAttempts(_ count: Int, of stepID: String, version: Version, interrupted: Bool) {
        if let index = attempts.firstIndex(where: { $0.id == stepID }) {
            attempts[index].failed = count
            attempts[index].lastAttemptInterrupted = interrupted
        } else {
            attempts.append(
                StepAttempts(id: stepID, version: version, failed: count, lastAttemptInterrupted: interrupted))
        }
    }

    mutating func removeAttempts(of stepID: String) {
        attempts.removeAllIfAny { $0.id == stepID }
    }

    mutating func recordCompleted(_ step: StepRecord) {
        removeAttempts(of: step.id)
        abandoned.removeAllIfAny { $0.id == step.id }
        if !isCompleted(step.id) { completed.append(step) }
    }

    mutating func recordAbandoned(_ step: StepRecord) {
        removeAttempts(of: step.id)
        if !isAbandoned(step.id) { abandoned.append(step) }
    }

    /// Records a pending step as finished (rule 4c). A pending step is listed neither as completed
    /// nor as abandoned (rule 3), so only its attempts need dropping.
    mutating func recordPendingCompleted(_ step: StepRecord) {
        removeAttempts(of: step.id)
        completed.append(step)
    }

    /// Records a pending step as abandoned (rules 4a and 4d); as for ``recordPendingCompleted(_:)``,
    /// it is not listed yet.
    mutating func recordPendingAbandoned(_ step: StepRecord) {
        removeAttempts(of: step.id)
        abandoned.append(step)
    }

    /// Drops the per-step entries that the mark now covers.
    ///
    /// - Returns: Whether any entry was dropped.
    @discardableResult
    mutating func dropEntries(atOrBelow mark: Version) -> Bool {
        let completedDropped = completed.removeAllIfAny { $0.version <= mark }
        let abandonedDropped = abandoned.removeAllIfAny { $0.version <= mark }
        let attemptsDropped = attempts.removeAllIfAny { $0.version <= mark }
        return completedDropped || abandonedDropped || attemptsDropped
    }

    /// Drops the per-step entries above a version, as a rewinding downgrade does.
    ///
    /// - Returns: Whether any entry was dropped.
    @discardableResult
    mutating func dropEntries(above version: Version) -> Bool {
        let completedDropped = completed.removeAllIfAny { $0.version > version }
        let abandonedDropped = abandoned.removeAllIfAny { $0.version > version }
        let attemptsDropped = attempts.removeAllIfAny { $0.version > version }
        return completedDropped || abandonedDropped || attemptsDropped
    }

    /// The state with the step of its `inProgress` record interrupted and not counted
    /// (<doc:LaunchAlgorithm>, "Interruptions"): the record becomes an `attempts` entry with the
    /// failed attempts the step had before (0 if none) and the interrupted mark. Without a record,
    /// the state as it is.
    func interruptingStepInProgress() -> UpgradeState {
        guard let running = inProgress else { return self }
        var interrupted = self
        interrupted.inProgress = nil
        interrupted.setFailedAttempts(running.attempt - 1, of: running.id, version: running.version, interrupted: true)
        return interrupted
    }

    /// Whether the states differ in any member; `!=`, callable through optional chaining.
    func differs(from other: UpgradeState) -> Bool { self != other }
}

extension Array {
    /// Empties the array but keeps its buffer; an empty array is left untouched.
    package mutating func clearKeepingCapacity() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }

    /// `removeAll(where:)`, but leaves an array that has nothing to remove untouched, so that one
    /// shared with a stored copy of the state is not copied for nothing.
    ///
    /// - Returns: Whether anything was removed.
    @discardableResult
    fileprivate mutating func removeAllIfAny(where shouldBeRemoved: (Element) -> Bool) -> Bool {
        guard contains(where: shouldBeRemoved) else { return false }
        removeAll(where: shouldBeRemoved)
        return true
    }
}
