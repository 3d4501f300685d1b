import UpgradeCore
import VersionKit

extension UpgradeState {
    /// The ways this state breaks the rules of SPEC section 4, as sentences; empty when it is valid.
    ///
    /// - Parameters:
    ///   - version: The version of the launch that wrote it.
    ///   - crashed: Whether that launch died inside a step (so `inProgress` may be set).
    /// - Returns: The problems found.
    ///   - checkEncoding: Whether to also check that the state survives encoding and decoding (the
    ///     costly part, so `explore` samples it).
    func invariantViolations(writtenAt version: Version, crashed: Bool, checkEncoding: Bool) -> [String] {
        var problems: [String] = []
        if format != UpgradeState.currentFormat { problems.append("format is \(format)") }
        if lastLaunched != version {
            problems.append("lastLaunched is \(lastLaunched.map { "\($0)" } ?? "null"), not \(version)")
        }
        if let mark = upgradedThrough {
            for record in completed + abandoned + attempts.map({ StepRecord(id: $0.id, version: $0.version) })
            where record.version <= mark {
                problems.append(
                    "\(record.id) (\(record.version)) is listed although it is at or below the mark \(mark)")
            }
        }
        let completedIDs = Set(completed.map(\.id))
        let abandonedIDs = Set(abandoned.map(\.id))
        if completedIDs.count != completed.count { problems.append("a step is listed twice as completed") }
        if abandonedIDs.count != abandoned.count { problems.append("a step is listed twice as abandoned") }
        if !completedIDs.isDisjoint(with: abandonedIDs) { problems.append("a step is both completed and abandoned") }
        for entry in attempts {
            if completedIDs.contains(entry.id) || abandonedIDs.contains(entry.id) {
                problems.append("\(entry.id) has failed attempts but is done")
            }
            if entry.failed < 1 { problems.append("\(entry.id) has \(entry.failed) failed attempts") }
        }
        if inProgress != nil && !crashed { problems.append("inProgress is set after a launch that did not die") }
        if crashed && inProgress == nil { problems.append("inProgress is not set after a launch that died in a step") }
        if history.count > UpgradeState.historyLimit { problems.append("history has \(history.count) launches") }
        guard checkEncoding else { return problems }
        if let document = try? UpgradeStateDocument.encode(self) {
            do {
                let decoded = try UpgradeStateDocument.decode(document, location: "explore")
                if decoded != self { problems.append("the state does not survive encoding and decoding") }
            } catch {
                problems.append("the state written does not read back: \(error)")
            }
        } else {
            problems.append("the state cannot be encoded")
        }
        return problems
    }
}
