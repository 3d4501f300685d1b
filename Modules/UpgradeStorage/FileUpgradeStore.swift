import Foundation
import UpgradeCore

/// A store that keeps the state as one small JSON document in a file, and the history of launches in a
/// second file beside it: the store for apps.
///
/// Writes are atomic and, by default, survive power loss at one flush each (a record appended to a
/// journal beside the document, which is rewritten as a copy at the end of a launch); a write never
/// replaces a state it has not seen as valid; only a missing file is a fresh install; one launch at a time holds the lock
/// `NAME.lock` beside the document, between processes too. <doc:FileStoreGuarantees> says what each
/// of these means, and where to keep the file.
///
/// ```swift
/// let folder = try FileManager.default.url(
///     for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
/// let store = FileUpgradeStore(url: folder.appending(path: "AppUpgrade/upgrade-state.json"))
/// ```
public final class FileUpgradeStore: UpgradeStore, Sendable {
    /// The document's location.
    public let url: URL
    /// How long ``lockForLaunch()`` waits for another launch before it throws
    /// `UpgradeStoreError.Code.busy`.
    public let lockTimeout: Duration
    /// Whether a launch moves a corrupt document aside and starts as a fresh install.
    public let recoversCorruptDocuments: Bool
    /// What a write of the state survives: power loss (the default) or any death of the app.
    public let durability: Durability

    /// The document's path.
    package let path: String
    /// The folder that holds the document, its lock file and its temporary files.
    package let folder: String
    /// The document's file name.
    let name: String
    /// Whether ``url`` is a file URL; a store with another URL refuses every use.
    let isFileLocation: Bool
    /// The system calls it makes: the system's own, or a test's (``FileStoreCalls``).
    let calls: any FileStoreCalls
    /// What the store remembers between calls, held only for a short read or change, never across a
    /// system call. Nothing of one launch is kept here: a launch's lock carries what it knows.
    let memory = Protected(Memory())

    /// What a file store remembers between calls.
    struct Memory {
        /// The file last read or written as a valid document of a supported format, so that a save
        /// need not read it again to know that it may be replaced.
        var verified: VerifiedDocument?
        /// The activity that keeps the process running while a launch holds the lock.
        var launchActivity = LaunchActivity.system
        /// The lines of the `completed` records of the last document written, for the next write.
        var recordLines = StateDocument.RecordLines()
        /// The journal the current launch writes to, from its first write at the power-loss level to
        /// its last.
        var openJournal: OpenJournal?
        /// The journal last read or written as holding a valid state.
        var verifiedJournal: JournalIdentity?
        /// Whether a journal may exist beside the document; `false` once a read found none.
        var journalsMayExist = true
        /// Whether a launch is under way: from ``loadForLaunch()`` to its last write. A write outside a
        /// launch is a launch's last write too: it leaves the document a copy of the state.
        var inLaunch = false
    }

    /// How a write at the power-loss level is made: through the journals (one flush per write), or,
    /// for the benchmark's comparison only, as a temporary file renamed over the document with the
    /// file and the folder flushed (two per write).
    package enum PowerLossWrites: Sendable, Hashable {
        /// A record appended to a journal, flushed once.
        case journal
        /// A temporary file flushed, renamed over the document, and the folder flushed.
        case flushedRename
    }

    /// How a write at the power-loss level is made.
    package let powerLossWrites: PowerLossWrites

    /// Creates a store for a document at `url`; nothing is read or created until it is used.
    ///
    /// - Parameters:
    ///   - url: The document's location, a file URL. Its folder is created (0700) at the first save
    ///     or lock if missing. The history `NAME.history.jsonl`, the lock file `NAME.lock` and
    ///     temporary files `.NAME.tmp-*` are kept beside it.
    ///   - durability: What a write survives: ``Durability/powerLoss`` by default (each write flushed
    ///     to stable storage, once), or ``Durability/appKill`` (no flush: cheaper, but a power cut may
    ///     undo recent writes). The journals `NAME.journal-0` and `NAME.journal-1` are kept beside
    ///     the document at both levels.
    ///   - lockTimeout: How long a launch waits for another launch (in this process or another) to
    ///     give up the lock before it reports `UpgradeStoreError.Code.busy`; 10 seconds by default.
    ///   - recoversCorruptDocuments: When `true`, ``loadForLaunch()`` moves a document that does not
    ///     parse aside, to `NAME.corrupt-TIMESTAMP`, and the launch starts as a fresh install (its
    ///     report says so). When `false` (the default), such a document is an error and stays as it is.
    public convenience init(
        url: URL, durability: Durability = .powerLoss, lockTimeout: Duration = .seconds(10),
        recoversCorruptDocuments: Bool = false
    ) {
        self.init(
            url: url, durability: durability, lockTimeout: lockTimeout,
            recoversCorruptDocuments: recoversCorruptDocuments, calls: SystemCalls())
    }

    /// Creates a store as the public initializer does, whose system calls go through `calls`: for
    /// tests (faults, the power-cut tests' mutation check).
    package init(
        url: URL, durability: Durability = .powerLoss, lockTimeout: Duration = .seconds(10),
        recoversCorruptDocuments: Bool = false, calls: any FileStoreCalls, powerLossWrites: PowerLossWrites = .journal
    ) {
        self.calls = calls
        self.powerLossWrites = powerLossWrites
        self.url = url
        self.durability = durability
        self.lockTimeout = lockTimeout
        self.recoversCorruptDocuments = recoversCorruptDocuments
        (path, folder, name) = Self.location(of: url)
        isFileLocation = url.isFileURL
    }

    /// Where the document of a store made with `url` is: its path, its folder and its file name, as
    /// `url.standardizedFileURL`, its `deletingLastPathComponent().path` and its `lastPathComponent`
    /// give them.
    package static func location(of url: URL) -> (path: String, folder: String, name: String) {
        let standardized = url.standardizedFileURL
        return (standardized.path, standardized.deletingLastPathComponent().path, standardized.lastPathComponent)
    }

    /// The lock file: `NAME.lock` beside the document.
    var lockPath: String { path + ".lock" }
    /// The mark of a launch whose activity expired while it held the lock: `NAME.lock.expired`.
    package var expiryMarkPath: String { path + ".lock.expired" }
    /// The history file: `NAME.history.jsonl` beside the document.
    var historyPath: String { path + ".history.jsonl" }
    /// The probe that tells whether protected data is readable: `NAME.probe` beside the document,
    /// with its data protection class (<doc:ProtectedData>).
    var probe: ProtectedDataProbe { ProtectedDataProbe(url: URL(fileURLWithPath: path + ".probe"), calls: calls) }
    /// The start of every temporary file's name: `.NAME.tmp-`, followed by `PID-RANDOM`.
    var temporaryPrefix: String { "." + name + ".tmp-" }

    /// `file PATH`, with the document's standardized path: every file store on the same path (the
    /// same document, its lock and its history) is the same state, so that concurrent launches
    /// through them in one process are one launch rather than two that meet on the file's lock.
    /// Symbolic links in the folder's path are not resolved: two stores that reach one document by
    /// different paths still serialize on its lock, as two processes do.
    public var stateIdentity: String? { "file " + path }

    /// Reads the state: the last whole record of the current journal, or the document when no
    /// journal holds one.
    ///
    /// - Returns: The state, or `nil` when there is no file at ``url`` and no journal (a fresh install).
    /// - Throws: `UpgradeStoreError`: `UpgradeStoreError.Code.unreadable` when the file exists
    ///   but cannot be read, `UpgradeStoreError.Code.unsafeLocation` for a symbolic link,
    ///   `UpgradeStoreError.Code.corrupt` when it does not parse, and
    ///   `UpgradeStoreError.Code.unsupportedFormat` for a newer format. The file
    ///   is left as it is. `UpgradeStoreError.Code.protectedDataUnavailable` when a journal or the
    ///   document cannot be opened for lack of permission (`EPERM`, as a protected file before the device's
    ///   first unlock), or when there is no state and the probe beside it (`NAME.probe`) cannot be read:
    ///   a missing file is a fresh install only when protected data is known to be readable
    ///   (<doc:ProtectedData>).
    public func load() throws -> UpgradeState? {
        guard let read = try readStateBytes() else { return nil }
        return try StateDocument.decode(read.bytes, location: read.location).state
    }

    /// Reads the document for a launch that holds the lock, and remembers it as the document this
    /// store last verified; moves a corrupt one aside when `recoversCorruptDocuments` is set.
    ///
    /// - Returns: The state and no notice; or, after moving a corrupt document aside, `nil` (the
    ///   launch is a fresh install) and a notice naming both paths and the problem.
    /// - Throws: As ``load()`` does, except for a corrupt document when recovery is on.
    public func loadForLaunch() throws -> (state: UpgradeState?, notice: String?) {
        do {
            return (try loadVerified(), nil)
        } catch {
            // A journal's record that passed its checksum and does not parse is not moved aside.
            guard error.code == .corrupt && recoversCorruptDocuments && error.location == path else { throw error }
            let aside = try moveCorruptDocumentAside(error)
            return (
                nil,
                "\(path) was not a valid state document (\(error.problem)); it was moved to \(aside) and this"
                    + " launch started as a fresh install"
            )
        }
    }

    private func loadVerified() throws(UpgradeStoreError) -> UpgradeState? {
        memory.withLock {
            $0.openJournal = nil
            $0.inLaunch = true
        }
        guard let read = try readStateBytes() else { return nil }
        let contents = try StateDocument.decode(read.bytes, location: read.location)
        if let document = read.document {
            memory.withLock {
                $0.verified = VerifiedDocument(identity: document.identity, legacyHistory: contents.legacyHistory)
            }
        }
        return contents.state
    }

    /// Writes the state atomically and, at the power-loss level, durably: a record appended to a
    /// journal beside the document, flushed once; at a launch's last write (or a write outside a
    /// launch) the document is rewritten as its copy. <doc:FileStoreGuarantees> says how.
    ///
    /// Call it while holding the lock of ``lockForLaunch()``, as the upgrader does. It refuses to
    /// replace a state that it cannot read, that does not parse, or that has a newer format. A
    /// format-1 document's history moves to the history file.
    ///
    /// - Parameter state: The state to keep.
    /// - Throws: `UpgradeStoreError`: `UpgradeStoreError.Code.writeFailed` naming the path and the
    ///   system's error (the previous document is then unchanged, and no temporary file is left),
    ///   `UpgradeStoreError.Code.unsafeLocation` for a symbolic link or a folder in the way, or the
    ///   error reading the document it would replace.
    public func save(_ state: UpgradeState) throws {
        _ = try write(state, recording: [])
    }

    /// Replaces the document as ``save(_:)`` does, then appends the launch's record to the history
    /// file, `NAME.history.jsonl`.
    ///
    /// - Parameters:
    ///   - state: The state to keep.
    ///   - record: The launch's record.
    /// - Returns: A notice naming the history file and the system's error when the record could not
    ///   be kept; the state is saved all the same.
    /// - Throws: As ``save(_:)`` does, for the state.
    public func save(_ state: UpgradeState, recording record: LaunchRecord) throws -> String? {
        try write(state, recording: [record])
    }

    private func write(_ state: UpgradeState, recording records: [LaunchRecord]) throws(UpgradeStoreError)
        -> String?
    {
        let bytes = memory.withLock { StateDocument.bytes(state, reusing: &$0.recordLines) }
        try requireFileURL()
        if durability == .appKill || powerLossWrites == .journal {
            return try writeThroughJournal(bytes, recording: records)
        }
        // The benchmark's two-flush write: the document alone holds the state from now on, and
        // journals left by other writes would be read before it. Removed after the document is written (below), a death
        // between the two would leave the journal's older state; removed before, the document's
        // copy, which may be older still.
        let journalsMayExist = memory.withLock { $0.journalsMayExist }
        // While a journal holds the state, the document is its copy, and is replaced as such.
        var journalHoldsState = false
        if journalsMayExist { journalHoldsState = try readJournals().current != nil }
        let legacyHistory = journalHoldsState ? nil : try checkReplaceable()
        let identity: FileIdentity
        do {
            identity = try writeAtomically(bytes, flush: durability == .powerLoss)
        } catch  where [.ENOENT, .ENOTDIR].contains((error.underlying as? POSIXError)?.code) {
            // The folder is missing: made, then written again once.
            try prepareFolder()
            identity = try writeAtomically(bytes, flush: durability == .powerLoss)
        }
        memory.withLock { $0.verified = VerifiedDocument(identity: identity, legacyHistory: nil) }
        if journalsMayExist { try removeJournals() }
        let added = (legacyHistory ?? []) + records
        return added.isEmpty ? nil : appendHistory(added)
    }
}

/// The document this store last read or wrote, known to be valid and of a supported format.
struct VerifiedDocument {
    /// The file it is.
    var identity: FileIdentity
    /// The history a format-1 document holds, to move beside the state at the next write.
    var legacyHistory: [LaunchRecord]?
}

/// A file of the store as read: its bytes and which file they came from.
struct FileContents {
    var bytes: [UInt8]
    var identity: FileIdentity
}

/// Which file a document was read from or written to: enough to tell that it is still the same file.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
}
