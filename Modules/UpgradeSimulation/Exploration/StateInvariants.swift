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
            for record in completed where record.version <= mark {
                problems.append(Self.coveredByMark(record.id, record.version, mark))
            }
            for record in abandoned where record.version <= mark {
                problems.append(Self.coveredByMark(record.id, record.version, mark))
            }
            for entry in attempts where entry.version <= mark {
                problems.append(Self.coveredByMark(entry.id, entry.version, mark))
            }
        }
        // The lists are short (steps above the mark), so pairwise comparison beats hashing. Records of
        // one step always carry that step's version here (the fixture's steps fix it), so versions are
        // compared first and only records of equal versions compare their ids.
        if Self.hasDuplicate(completed) { problems.append("a step is listed twice as completed") }
        if Self.hasDuplicate(abandoned) { problems.append("a step is listed twice as abandoned") }
        if completed.contains(where: { done in abandoned.contains { Self.same($0.id, $0.version, done) } }) {
            problems.append("a step is both completed and abandoned")
        }
        for entry in attempts {
            if completed.contains(where: { Self.same(entry.id, entry.version, $0) })
                || abandoned.contains(where: { Self.same(entry.id, entry.version, $0) })
            {
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

    private static func coveredByMark(_ id: String, _ version: Version, _ mark: Version) -> String {
        "\(id) (\(version)) is listed although it is at or below the mark \(mark)"
    }

    @inline(__always)
    private static func same(_ id: String, _ version: Version, _ record: StepRecord) -> Bool {
        record.version == version && record.id == id
    }

    private static func hasDuplicate(_ records: [StepRecord]) -> Bool {
        if records.count > 32 { return Set(records.map(\.id)).count != records.count }
        for index in records.indices.dropFirst() {
            let record = records[index]
            for earlier in 0..<index where same(record.id, record.version, records[earlier]) { return true }
        }
        return false
    }
}
