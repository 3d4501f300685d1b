import Foundation
import UpgradeCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

// The power-loss level's writes: one flush per write (<doc:FileStoreGuarantees>, "One flush per
// write"). Two journals beside the document, `NAME.journal-0` and `NAME.journal-1`, take turns: the
// first write of a launch starts a new generation in the journal that does not hold the current
// state (its header and a record of the whole state, flushed once), and each later write of the
// launch appends a record to it (flushed once). The current state is the last valid record of the
// journal of the highest generation that has one; the other journal, one generation older, is
// never touched while it may be the only durable copy. The document is rewritten, unflushed, at
// the launch's last write: a copy for people and for earlier versions of the package, read as the
// state only when no journal holds one.

/// What a file store found in its journals.
struct JournalReading {
    /// The journal that holds the current state, if one does.
    var current: FoundJournal?
    /// The highest generation of a valid header, whether or not a record follows it.
    var highestGeneration: UInt64 = 0
    /// Which journals exist (0 and 1).
    var present: [Int] = []
}

/// The journal that holds the current state, and that state's document bytes.
struct FoundJournal: Equatable {
    var index: Int
    var generation: UInt64
    /// The journal's size when it was read.
    var size: Int
    /// The last valid record's payload: the state's document.
    var payload: [UInt8]
}

/// The journal a launch is writing to: which, its generation, and its size after the last record.
struct OpenJournal {
    var index: Int
    var generation: UInt64
    var size: Int
}

extension FileUpgradeStore {
    /// A journal: `NAME.journal-0` or `NAME.journal-1` beside the document.
    func journalPath(_ index: Int) -> String { path + ".journal-\(index)" }

    /// Whether the torn-record check is off: the power-cut tests' mutation check only.
    private var skipsTornRecordCheck: Bool {
        (calls as? SkippingFlushes)?.flushes.contains(.tornCheck) ?? false
    }

    // MARK: Reading

    /// Reads the state: the current journal's, or the document's when no journal holds one, and
    /// establishes that protected data is readable when there is neither (<doc:ProtectedData>).
    ///
    /// - Returns: The state's bytes, where they were read from (for errors), and the document's
    ///   file when they are the document's; `nil` when there is neither (a fresh install).
    /// - Throws: As ``readDocument()`` does; `protectedDataUnavailable` when a journal or the
    ///   document cannot be opened with `EPERM`, or when there is no state and the probe cannot be read.
    func readStateBytes() throws(UpgradeStoreError)
        -> (bytes: [UInt8], location: String, document: FileContents?)?
    {
        do {
            let journals = try readJournals()
            if let current = journals.current {
                memory.withLock { $0.verifiedJournal = current.identity }
                return (current.payload, current.location(self), nil)
            }
            if let document = try readDocument() { return (document.bytes, path, document) }
        } catch  where error.code == .unreadable && (error.underlying as? POSIXError)?.code == .EPERM {
            throw UpgradeStoreError(
                code: .protectedDataUnavailable, location: error.location,
                detail: "protected data is unavailable (\(error.problem)), as on a device locked since its"
                    + " restart; nothing was decided", underlying: error.underlying)
        }
        // No state: a fresh install only when protected data is known to be readable.
        try probe.requireReadable(for: path)
        return nil
    }

    /// Reads both journals' headers and the last valid record of the one of the highest generation.
    func readJournals() throws(UpgradeStoreError) -> JournalReading {
        var reading = JournalReading()
        var found: [FoundJournal] = []
        for index in 0..<2 {
            guard let journal = try readJournal(index) else { continue }
            reading.present.append(index)
            if let generation = journal.generation {
                reading.highestGeneration = max(reading.highestGeneration, generation)
            }
            if let current = journal.found { found.append(current) }
        }
        reading.current = found.max { $0.generation < $1.generation }
        memory.withLock { $0.journalsMayExist = !reading.present.isEmpty }
        return reading
    }

    /// Reads one journal: its header's generation, and its last valid record, read from its end
    /// (or, when the last record is torn, from its start).
    private func readJournal(_ index: Int) throws(UpgradeStoreError)
        -> (generation: UInt64?, found: FoundJournal?)?
    {
        let location = journalPath(index)
        let descriptor = call(.read) { open(location, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        if descriptor < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            var info = stat()
            if lstat(location, &info) == 0 { try requireRegularFile(info, at: location) }
            throw failure(.unreadable, "cannot be opened", code, at: location)
        }
        defer { close(descriptor) }
        func bytes(at offset: Int, count: Int) throws(UpgradeStoreError) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let got = bytes.withUnsafeMutableBytes { raw in
                    call(.read) { pread(descriptor, raw.baseAddress! + done, count - done, off_t(offset + done)) }
                }
                if got < 0 { throw failure(.unreadable, "cannot be read", errno, at: location) }
                if got == 0 { break }
                done += got
            }
            bytes.removeSubrange(done...)
            return bytes
        }
        let checked = !skipsTornRecordCheck
        func last(in file: [UInt8], size: Int) -> (generation: UInt64?, found: FoundJournal?) {
            // A header that is not whole and valid is a first write that never finished: nothing in it.
            guard let generation = StateJournal.generation(ofHeader: file) else { return (nil, nil) }
            guard let last = StateJournal.payloads(in: file, generation: generation, checked: checked).last else {
                return (generation, nil)
            }
            return (
                generation, FoundJournal(index: index, generation: generation, size: size, payload: Array(file[last]))
            )
        }
        // A journal that fits in one small read (a launch of a few steps) is read whole, with no more
        // system calls than the document: an up-to-date launch reads both journals.
        let small = 8192
        let start = try bytes(at: 0, count: small)
        if start.count < small { return last(in: start, size: start.count) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw failure(.unreadable, "cannot be examined", errno, at: location)
        }
        try requireRegularFile(info, at: location)
        let size = Int(info.st_size)
        if size > StateJournal.maximumSize {
            throw UpgradeStoreError(
                code: .corrupt, location: location,
                detail: "is \(size) bytes, more than a journal of the state can be; it is left as it is")
        }
        guard let generation = StateJournal.generation(ofHeader: start) else { return (nil, nil) }
        // A larger one: its last record, read from its end.
        if checked, size - StateJournal.headerSize >= StateJournal.recordOverhead {
            let length = StateJournal.length(ofRecordEndingWith: try bytes(at: size - 12, count: 12))
            if length <= size - StateJournal.headerSize {
                let record = try bytes(at: size - length, count: length)
                if let payload = StateJournal.payload(ofRecord: record, generation: generation) {
                    return (
                        generation,
                        FoundJournal(
                            index: index, generation: generation, size: size, payload: Array(record[payload]))
                    )
                }
            }
        }
        // The last record is torn (or, for the mutation check, not checked): read from the start.
        return last(in: try bytes(at: 0, count: size), size: size)
    }

    // MARK: Writing

    /// Writes a state: a record in the launch's journal, flushed once at the power-loss level and not
    /// at all at the app-kill level.
    ///
    /// - Parameters:
    ///   - bytes: The state's document.
    ///   - records: The launch's history records; not empty for a launch's last write, which also
    ///     rewrites the document (unflushed) as a copy of the state and ends the launch's journal. A
    ///     write outside a launch (no ``loadForLaunch()`` before it) is a last write too.
    /// - Returns: A notice for the launch's report: the history, or the document's copy, could not be
    ///   written (the state was saved all the same).
    func writeThroughJournal(_ bytes: [UInt8], recording records: [LaunchRecord]) throws(UpgradeStoreError)
        -> String?
    {
        var legacyHistory: [LaunchRecord]?
        let (knowsDocument, last) = memory.withLock { ($0.verified != nil, !records.isEmpty || !$0.inLaunch) }
        // A document this store wrote or read, replaced since by another writer (one that does not
        // take the lock, or an earlier version of the package), is read and judged, as at the
        // app-kill level: one of a newer format, or one that does not parse, is not written over.
        if knowsDocument { legacyHistory = try checkDocument() }
        var notices: [String] = []
        let open = memory.withLock { $0.openJournal }
        // The launch's last write: the document's copy is written before the journal's record while
        // the journal holds the launch's earlier writes, so that a cut while the copy is written
        // leaves a state that the next launch has work to do from (and its temporary file is removed
        // by that launch's lock).
        let copiesFirst = last && open != nil
        if copiesFirst { copyDocument(bytes, notices: &notices) }
        if let open, open.size < StateJournal.generationSize, try append(bytes, to: open) {
            // Appended to the launch's journal.
        } else {
            let journals = try readJournals()
            if let current = journals.current {
                // Never superseded unseen: the state it holds must be one this code reads.
                if memory.withLock({ $0.verifiedJournal }) != current.identity {
                    _ = try StateDocument.decodeReplaced(current.payload, location: current.location(self))
                    memory.withLock { $0.verifiedJournal = current.identity }
                }
            } else if !knowsDocument {
                legacyHistory = try checkDocument()
            }
            try startJournal(
                journals.current.map { 1 - $0.index } ?? 0, generation: journals.highestGeneration + 1, with: bytes)
        }
        guard last else { return nil }
        memory.withLock {
            $0.openJournal = nil
            $0.inLaunch = false
        }
        if !copiesFirst { copyDocument(bytes, notices: &notices) }
        if let notice = appendHistory((legacyHistory ?? []) + records) { notices.append(notice) }
        return notices.isEmpty ? nil : notices.joined(separator: "; ")
    }

    /// Rewrites the document, unflushed, as a copy of the state; a failure is a notice.
    private func copyDocument(_ bytes: [UInt8], notices: inout [String]) {
        do {
            let identity = try writeAtomically(bytes, flush: false)
            memory.withLock { $0.verified = VerifiedDocument(identity: identity, legacyHistory: nil) }
        } catch {
            notices.append(
                "the state was saved in its journal, but its copy \(path) could not be written (\(error.detail))")
        }
    }

    /// Checks that the document may be replaced, as ``checkReplaceable()`` does, and remembers a
    /// missing one as missing, so that a document that appears later is read and judged too.
    private func checkDocument() throws(UpgradeStoreError) -> [LaunchRecord]? {
        let legacyHistory = try checkReplaceable()
        var info = stat()
        if memory.withLock({ $0.verified }) == nil, lstat(path, &info) != 0 {
            memory.withLock { $0.verified = VerifiedDocument(identity: .absent, legacyHistory: nil) }
        }
        return legacyHistory
    }

    /// Starts a generation in a journal: its header and one record, written over whatever it held,
    /// and flushed; the folder too when the journal is new.
    private func startJournal(_ index: Int, generation: UInt64, with bytes: [UInt8]) throws(UpgradeStoreError) {
        let location = journalPath(index)
        var created = false
        func openJournal() -> Int32 {
            var descriptor = call(.create) { open(location, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) }
            if descriptor < 0, errno == ENOENT {
                descriptor = call(.create) {
                    open(location, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
                }
                created = descriptor >= 0
            }
            return descriptor
        }
        var descriptor = openJournal()
        if descriptor < 0, errno == ENOENT || errno == ENOTDIR {
            try prepareFolder()
            descriptor = openJournal()
        }
        if descriptor < 0 {
            let code = errno
            if code == ELOOP { throw symbolicLinkRefused(at: location) }
            throw failure(.writeFailed, "could not be opened to write", code, at: location)
        }
        var finished = false
        var madeOther = false
        defer {
            close(descriptor)
            // A new journal that failed is removed, so that the next write makes it (and flushes its
            // folder) again.
            if created && !finished { unlink(location) }
            if madeOther && !finished { unlink(journalPath(1 - index)) }
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw failure(.writeFailed, "could not be examined", errno, at: location)
        }
        try requireRegularFile(info, at: location)
        if info.st_mode & 0o777 != 0o600 { _ = fchmod(descriptor, 0o600) }
        if created {
            try setDataProtection(location)
            // The other journal too, empty, so that the one flush of the folder below makes both
            // names durable, and a later generation never pays another.
            let other = journalPath(1 - index)
            let made = open(other, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
            if made >= 0 {
                close(made)
                madeOther = true
                try setDataProtection(other)
            }
        }
        memory.withLock {
            $0.journalsMayExist = true
            $0.openJournal = nil
        }
        let written = StateJournal.header(generation: generation) + StateJournal.record(bytes, generation: generation)
        if call(.write, { ftruncate(descriptor, 0) }) != 0 {
            throw failure(.writeFailed, "could not be emptied for a new generation", errno, at: location)
        }
        try writeRecord(written, at: 0, to: descriptor, location)
        if created, durability == .powerLoss, let code = syncFolder() {
            throw failure(
                .writeFailed,
                "its folder could not be flushed to disk, so the new journal might not survive a power loss; it was"
                    + " removed and the state is as it was", code, at: location)
        }
        finished = true
        memory.withLock { $0.openJournal = OpenJournal(index: index, generation: generation, size: written.count) }
    }

    /// Appends a record to the launch's journal, if it is still as the launch left it.
    ///
    /// - Returns: `false`, having written nothing, when the journal is not as the launch left it
    ///   (the caller starts a new generation instead).
    private func append(_ bytes: [UInt8], to journal: OpenJournal) throws(UpgradeStoreError) -> Bool {
        let location = journalPath(journal.index)
        let descriptor = call(.create) { open(location, O_WRONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, POSIX.isRegularFile(info.st_mode), Int(info.st_size) == journal.size
        else { return false }
        let record = StateJournal.record(bytes, generation: journal.generation)
        memory.withLock { $0.openJournal = nil }
        try writeRecord(record, at: journal.size, to: descriptor, location)
        memory.withLock {
            $0.openJournal = OpenJournal(
                index: journal.index, generation: journal.generation, size: journal.size + record.count)
        }
        return true
    }

    /// Writes bytes at an offset of a journal and, at the power-loss level, flushes it: the write's
    /// one flush (the app-kill level flushes nothing). When either
    /// fails, the journal is cut back to `offset`, so that the failed write leaves the state as it was.
    private func writeRecord(_ bytes: [UInt8], at offset: Int, to descriptor: Int32, _ location: String)
        throws(UpgradeStoreError)
    {
        func cutBack(_ error: UpgradeStoreError) -> UpgradeStoreError {
            _ = POSIX.retrying { ftruncate(descriptor, off_t(offset)) }
            return error
        }
        var written = 0
        let failed = POSIX.writeAll(bytes) { start, count in
            defer { written += max(count, 0) }
            return call(.write) { pwrite(descriptor, start, count, off_t(offset + written)) }
        }
        if let code = failed { throw cutBack(failure(.writeFailed, "could not be written", code, at: location)) }
        if durability == .powerLoss, call(.syncJournal, { StableStorage.flushData(descriptor) }) != 0 {
            throw cutBack(failure(.writeFailed, "could not be flushed to disk", errno, at: location))
        }
    }

    /// Removes the journals, the older generation first, so that a death between the two never
    /// leaves the older one as the current state; for a write at the app-kill level, which then
    /// writes the document alone, and for ``removeAll()``.
    ///
    /// - Returns: Whether a journal was removed.
    /// - Throws: `UpgradeStoreError` with code `writeFailed` naming the journal that could not be
    ///   removed.
    @discardableResult
    func removeJournals() throws(UpgradeStoreError) -> Bool {
        guard memory.withLock({ $0.journalsMayExist }) else { return false }
        let journals = try readJournals()
        let order = journals.current.map { [1 - $0.index, $0.index] } ?? [0, 1]
        var removed = false
        for index in order where journals.present.contains(index) {
            if call(.remove, { unlink(journalPath(index)) }) == 0 {
                removed = true
            } else if errno != ENOENT {
                throw failure(.writeFailed, "could not be removed", errno, at: journalPath(index))
            }
        }
        memory.withLock {
            $0.journalsMayExist = false
            $0.openJournal = nil
            $0.verifiedJournal = nil
        }
        return removed
    }
}

extension FoundJournal {
    /// What tells that the current journal is still the one read: which, its generation, its size.
    var identity: JournalIdentity { JournalIdentity(index: index, generation: generation, size: size) }

    /// The journal and its record, for errors.
    func location(_ store: FileUpgradeStore) -> String {
        store.journalPath(index) + " (its last record, generation \(generation))"
    }
}

extension FileIdentity {
    /// No file: what a store remembers of a document it found missing.
    static let absent = FileIdentity(device: 0, inode: 0, size: -1, modifiedSeconds: 0, modifiedNanoseconds: 0)
}

/// Which journal, generation and size a state was read from.
struct JournalIdentity: Hashable {
    var index: Int
    var generation: UInt64
    var size: Int
}
