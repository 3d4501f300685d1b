import UpgradeCore
import VersionKit

/// Writes the stored state's part of the keys of the search to a fixpoint (``StateKey``), each step
/// named by its run index. A value with no memory of its own, so that every core of the search can
/// use it at once.
struct StateKeyEncoder: Sendable {
    let catalog: ExplorationCatalog
    /// Whether the key is the reduced one (``StateKey``): no `lastLaunched`, the lists as sorted
    /// multisets; else the stored state exactly, the lists in their stored order.
    let reduced: Bool

    init(catalog: ExplorationCatalog, reduced: Bool = true) {
        self.catalog = catalog
        self.reduced = reduced
    }

    /// The word that names a step of the catalog by id and version: its run index, found among the
    /// steps of its version by a binary search and a few id comparisons; `nil` for a record that
    /// names no step of the catalog (never written by a fixture's steps).
    private func number(_ id: String, _ version: Version) -> UInt32? {
        var hint = -1
        return number(id, version, after: &hint)
    }

    /// ``number(_:_:)``, trying the step after `hint` first (a launch lists steps in run order), and
    /// setting `hint` to the step found.
    private func number(_ id: String, _ version: Version, after hint: inout Int) -> UInt32? {
        let next = hint + 1
        if next < catalog.count && catalog.versions[next] == version
            && catalog.ids[next] == id
        {
            hint = next
            return UInt32(next)
        }
        guard let found = search(id, version) else { return nil }
        hint = Int(found)
        return found
    }

    /// The run index of a step, by a binary search among the versions and a few id comparisons.
    private func search(_ id: String, _ version: Version) -> UInt32? {
        var index = catalog.firstIndex(above: version) - 1
        while index >= 0 && catalog.versions[index] == version {
            if catalog.ids[index] == id { return UInt32(index) }
            index -= 1
        }
        return nil
    }

    /// Appends a record the catalog does not know, in full: a marker, its version and its id's UTF-8
    /// bytes. Exact whatever a state holds; two spellings of one id (`==` but with other scalars) get
    /// two keys, which only splits a state the search could have merged.
    private func appendOther(_ id: String, _ version: Version, to words: inout [UInt32]) {
        words.append(UInt32(catalog.count))
        StateKey.append(version, to: &words)
        let bytes = Array(id.utf8)
        words.append(UInt32(bytes.count))
        var index = 0
        while index < bytes.count {
            var word: UInt32 = 0
            for offset in 0..<4 where index + offset < bytes.count {
                word |= UInt32(bytes[index + offset]) << (8 * UInt32(offset))
            }
            words.append(word)
            index += 4
        }
    }

    /// Appends a list of records: its length, then the run index of each (sorted when the key is
    /// reduced), then the records the catalog does not know, in their order.
    private func append(_ records: [StepRecord], to words: inout [UInt32]) {
        words.append(UInt32(records.count))
        let start = words.count
        var others = 0
        var hint = -1
        for record in records {
            if let number = number(record.id, record.version, after: &hint) {
                words.append(number)
            } else {
                others += 1
            }
        }
        if reduced && words.count - start > 1 { words[start...].sort() }
        guard others > 0 else { return }
        for record in records where number(record.id, record.version) == nil {
            appendOther(record.id, record.version, to: &words)
        }
    }

    /// Appends the standard engine's stored state, whose attempt numbers are already cut off.
    func append(_ state: UpgradeState?, to words: inout [UInt32]) {
        guard let state else {
            words.append(0)
            return
        }
        words.append(1)
        StateKey.append(state.upgradedThrough, to: &words)
        if !reduced { StateKey.append(state.lastLaunched, to: &words) }
        append(state.completed, to: &words)
        append(state.abandoned, to: &words)
        words.append(UInt32(state.attempts.count))
        let start = words.count
        var others = 0
        for entry in state.attempts {
            guard let number = number(entry.id, entry.version) else {
                others += 1
                continue
            }
            words.append(number)
            StateKey.append(count: entry.failed, flag: entry.lastAttemptInterrupted, to: &words)
        }
        if reduced { Self.sortTriples(&words, from: start) }
        if others > 0 {
            for entry in state.attempts where number(entry.id, entry.version) == nil {
                appendOther(entry.id, entry.version, to: &words)
                StateKey.append(count: entry.failed, flag: entry.lastAttemptInterrupted, to: &words)
            }
        }
        if let running = state.inProgress {
            if let number = number(running.id, running.version) {
                words.append(number + 1)
            } else {
                words.append(.max)
                appendOther(running.id, running.version, to: &words)
            }
            StateKey.append(count: running.attempt, to: &words)
        } else {
            words.append(0)
        }
    }

    /// Sorts the entries of three words from `start` to the end by their first word (an insertion
    /// sort: the attempts of a state are a few entries). Run indices are unique among them.
    private static func sortTriples(_ words: inout [UInt32], from start: Int) {
        var entry = start + 3
        while entry < words.count {
            var at = entry
            while at > start && words[at - 3] > words[at] {
                for offset in 0..<3 { words.swapAt(at - 3 + offset, at + offset) }
                at -= 3
            }
            entry += 3
        }
    }

    /// Appends the naive engine's state, whose attempt counts are already cut off: its stored version
    /// as the list of numbers it was written with (`8.8` and `8.8.0` differ there), and its attempt
    /// counts. It keeps nothing the key could leave out.
    func append(_ state: NaiveUpgrader.State, to words: inout [UInt32]) {
        if let stored = state.storedVersion {
            words.append(UInt32(stored.count + 1))
            for component in stored { words.append(UInt32(component)) }
        } else {
            words.append(0)
        }
        for count in state.failedAttempts { StateKey.append(count: count, to: &words) }
    }
}
