import UpgradeCore
import UpgradeStorage
import VersionKit

extension UpgradeState {
    /// The ways this state breaks the rules of the state (UpgradeCore's launch algorithm), as sentences; empty when it is valid.
    ///
    /// - Parameters:
    ///   - version: The version of the launch that wrote it.
    ///   - crashed: Whether that launch died inside a step (so `inProgress` may be set).
    /// - Returns: The problems found.
    ///   - checkEncoding: Whether to also check that the state survives encoding and decoding (the
    ///     costly part, so `explore` samples it).
    func invariantViolations(writtenAt version: Version, crashed: Bool, checkEncoding: Bool) -> [String] {
        var problems: [String] = []
        if lastLaunched != version {
            problems.append("lastLaunched is \(lastLaunched.map { "\($0)" } ?? "null"), not \(version)")
        }
        // The checks read the lists by index and field, so that no record (and its id) is copied
        // unless a problem is found: `explore` runs them after every launch.
        if let mark = upgradedThrough {
            for index in completed.indices where completed[index].version <= mark {
                problems.append(Self.coveredByMark(completed[index].id, completed[index].version, mark))
            }
            for index in abandoned.indices where abandoned[index].version <= mark {
                problems.append(Self.coveredByMark(abandoned[index].id, abandoned[index].version, mark))
            }
            for index in attempts.indices where attempts[index].version <= mark {
                problems.append(Self.coveredByMark(attempts[index].id, attempts[index].version, mark))
            }
        }
        // The lists are short (steps above the mark), so pairwise comparison beats hashing. Records of
        // one step always carry that step's version here (the fixture's steps fix it), so versions are
        // compared first and only records of equal versions compare their ids.
        if Self.hasDuplicate(completed) { problems.append("a step is listed twice as completed") }
        if Self.hasDuplicate(abandoned) { problems.append("a step is listed twice as abandoned") }
        if !abandoned.isEmpty,
            completed.indices.contains(where: { Self.lists(completed[$0].id, completed[$0].version, in: abandoned) })
        {
            problems.append("a step is both completed and abandoned")
        }
        for index in attempts.indices {
            let version = attempts[index].version
            if Self.lists(attempts[index].id, version, in: completed)
                || Self.lists(attempts[index].id, version, in: abandoned)
            {
                problems.append("\(attempts[index].id) has failed attempts but is done")
            }
            // 0 only with the last attempt interrupted: an expiry, which is no attempt.
            if attempts[index].failed < 1 && !(attempts[index].failed == 0 && attempts[index].lastAttemptInterrupted) {
                problems.append("\(attempts[index].id) has \(attempts[index].failed) failed attempts")
            }
        }
        // `if case` rather than `!= nil`, which would compare optionals through generic witnesses.
        let hasInProgress: Bool
        if case .some = inProgress { hasInProgress = true } else { hasInProgress = false }
        if hasInProgress && !crashed { problems.append("inProgress is set after a launch that did not die") }
        if crashed && !hasInProgress { problems.append("inProgress is not set after a launch that died in a step") }
        guard checkEncoding else { return problems }
        do {
            let decoded = try StateDocument.decode(StateDocument.encode(self), location: "explore")
            if decoded.state != self { problems.append("the state does not survive encoding and decoding") }
        } catch {
            problems.append("the state written does not read back: \(error)")
        }
        return problems
    }

    private static func coveredByMark(_ id: String, _ version: Version, _ mark: Version) -> String {
        "\(id) (\(version)) is listed although it is at or below the mark \(mark)"
    }

    /// Whether `records` lists the step with this id and version.
    @inline(__always)
    private static func lists(_ id: String, _ version: Version, in records: [StepRecord]) -> Bool {
        for index in records.indices where records[index].version == version && records[index].id == id {
            return true
        }
        return false
    }

    private static func hasDuplicate(_ records: [StepRecord]) -> Bool {
        // Records in ascending version order (as a launch appends them) name distinct steps: the common
        // case, told in one pass.
        var ascending = true
        for index in records.indices.dropFirst() where records[index - 1].version >= records[index].version {
            ascending = false
            break
        }
        if ascending { return false }
        if records.count > 32 { return Set(records.map(\.id)).count != records.count }
        for index in records.indices.dropFirst() {
            let version = records[index].version
            for earlier in 0..<index
            where records[earlier].version == version
                && records[earlier].id == records[index].id
            {
                return true
            }
        }
        return false
    }
}
