import Foundation
import UpgradeCore

/// A store that keeps the state as one small JSON document in a file, and the history of launches in a
/// second file beside it: the store for apps.
///
/// The document holds only what the launch rules read (typically a few hundred bytes),
/// pretty-printed with sorted keys so that a person can read it. The store treats it like a small
/// database:
///
/// - **Atomic, durable writes.** ``save(_:)`` writes a temporary file in the same folder (created
///   exclusively, owner-only), flushes it to disk, renames it over the document and flushes the
///   folder. A reader sees the old document or the new one, whatever moment the process dies.
///   Temporary files left by a killed process are removed by a later launch. The flushes make a
///   write survive power loss; with ``Durability/appKill`` they are skipped, and a write survives
///   any death of the app but not a power cut (``durability`` says what each level promises).
/// - **Nothing replaced unseen.** Each write checks that the document is the one this store wrote
///   or read last (one `lstat`), so that a file put there by a writer that does not take the lock
///   is read and judged before it is replaced.
/// - **One launch at a time.** ``lockForLaunch()`` takes an advisory lock (`flock`) on a lock file
///   beside the document, `NAME.lock`, between processes and between store objects in one process.
///   A launch that cannot take it within ``lockTimeout`` reports `UpgradeStoreError.Code.busy`.
/// - **Only a missing file is a fresh install.** Any other failure to read it (permissions, an I/O
///   error, data protection before the first unlock) throws `UpgradeStoreError.Code.unreadable`,
///   so that the launch runs nothing instead of skipping every step forever.
/// - **Never silently overwritten.** A document that does not parse throws
///   `UpgradeStoreError.Code.corrupt` and is left as it is; one of a newer format throws
///   `UpgradeStoreError.Code.unsupportedFormat`, and ``save(_:)`` refuses to
///   replace either. With `recoversCorruptDocuments`, a launch moves a corrupt document aside and
///   starts as a fresh install instead, and says so in its report.
/// - **The history beside it.** Each launch that writes the state appends one line to
///   `NAME.history.jsonl` with its last write (``history()`` reads it); the file is trimmed to the
///   last 50 launches when it grows past 100. It is for diagnostics and outside the guarantees
///   above: it is not flushed to disk, a torn last line is ignored, and a failure to write it never
///   fails a launch (the report carries a notice instead).
/// - **Owner only.** The document and lock file are created with permissions 0600, missing folders
///   with 0700. A symbolic link where the document or lock file belongs is refused with
///   `UpgradeStoreError.Code.unsafeLocation`, never followed. On iOS, tvOS, watchOS and visionOS
///   the files get the data protection class `completeUntilFirstUserAuthentication`, so that a
///   launch in the background after the first unlock can read them.
/// - **Kept running while locked.** On iOS, tvOS, watchOS and visionOS, the system terminates an
///   app that it suspends while it holds a file lock in a shared container such as an app group's
///   (termination reason `0xdead10cc`). So while a launch holds the lock, the store asks for time to
///   run with `ProcessInfo.performExpiringActivity(withReason:using:)`, which works in extensions
///   too. If the system ends that time before the launch ends, the store keeps the lock (giving it
///   up would let an extension run the same steps while this launch is suspended inside one) and
///   leaves a mark, `NAME.lock.expired`, which the launch removes if it still ends normally. If the
///   system terminates the app instead, that is a death of the process like any other: the step
///   that was running counts as interrupted and runs again, and the next launch that takes the
///   lock says in its report's notices that the earlier one was probably terminated there. Keep
///   steps short, and run the upgrader while the app is in the foreground where you can.
///
/// On macOS, iOS, watchOS and visionOS, keep the file in Application Support (not Caches or the
/// temporary folder, which the system may empty). On tvOS, use ``UserDefaultsUpgradeStore`` instead:
/// there the only local storage guaranteed to last is the app's defaults, every file may be purged
/// when space runs low, and a purged state file is a fresh install, which skips every step.
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
    /// What the store remembers between calls (the document last verified,
    /// the launch activity to use, the derived paths), behind one mutex, held only for a short read
    /// or change, never across a system call. Nothing of one launch is kept here: what a launch's
    /// lock knows, it carries itself.
    let memory = Protected(FileStoreMemory())

    /// Creates a store for a document at `url`; nothing is read or created until it is used.
    ///
    /// - Parameters:
    ///   - url: The document's location, a file URL. Its folder is created (0700) at the first save
    ///     or lock if missing. The history `NAME.history.jsonl`, the lock file `NAME.lock` and
    ///     temporary files `.NAME.tmp-*` are kept beside it.
    ///   - durability: What a write survives: ``Durability/powerLoss`` by default (each write flushed
    ///     to stable storage), or ``Durability/appKill`` (no flush: cheaper, but a power cut may undo
    ///     recent writes).
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
        recoversCorruptDocuments: Bool = false, calls: any FileStoreCalls
    ) {
        self.calls = calls
        self.url = url
        self.durability = durability
        self.lockTimeout = lockTimeout
        self.recoversCorruptDocuments = recoversCorruptDocuments
        (path, folder, name, isFileLocation) = Self.resolvedLocation(of: url)
    }

    /// The lock file's path: `NAME.lock` beside the document.
    var lockPath: String { paths.lock }

    /// The paths of the store's other files, made at their first use (a launch with work uses each
    /// several times, and a path made by concatenation costs more than the system call it is for; an
    /// up-to-date launch uses none).
    package var paths: StorePaths {
        memory.withLock { memory in
            if let paths = memory.derivedPaths { return paths }
            let made = StorePaths(folder: folder, name: name)
            memory.derivedPaths = made
            return made
        }
    }

    /// Reads the document.
    ///
    /// - Returns: The state, or `nil` when there is no file at ``url`` (a fresh install).
    /// - Throws: `UpgradeStoreError`: `UpgradeStoreError.Code.unreadable` when the file exists
    ///   but cannot be read, `UpgradeStoreError.Code.unsafeLocation` for a symbolic link,
    ///   `UpgradeStoreError.Code.corrupt` when it does not parse, and
    ///   `UpgradeStoreError.Code.unsupportedFormat` for a newer format. The file
    ///   is left as it is.
    public func load() throws -> UpgradeState? {
        // Read as the plainest read is (open, read, close): every launch makes this read, and a
        // launch with work reads the file again, examined, under the lock.
        guard case .found(let document) = try readDocument(examined: false) else { return nil }
        do {
            return try StateDocument.decode(document.bytes, location: path).state
        } catch {
            // Bytes that do not parse may come from something that is not a document at all: read
            // again, examined, so that a special file is reported as such.
            _ = try readDocument()
            throw error
        }
    }

    /// Reads the document as ``load()`` does, examined, for a launch that holds the lock, and
    /// remembers it as the document this store last verified.
    ///
    /// - Returns: The state, or `nil` when there is no file.
    /// - Throws: As ``load()`` does.
    private func loadHoldingLock() throws -> UpgradeState? {
        guard case .found(let document) = try readDocument() else { return nil }
        let contents = try StateDocument.decode(document.bytes, location: path)
        memory.withLock {
            $0.verified = VerifiedDocument(identity: document.identity, legacyHistory: contents.legacyHistory)
        }
        return contents.state
    }

    /// Reads the document for a launch that holds the lock, moving a corrupt one aside when
    /// `recoversCorruptDocuments` is set.
    ///
    /// - Returns: The state and no notice; or, after moving a corrupt document aside, `nil` (the
    ///   launch is a fresh install) and a notice naming both paths and the problem. The notice also
    ///   says when an earlier launch still held the lock when the system ended its time to run (see
    ///   ``FileUpgradeStore``, "Kept running while locked").
    /// - Throws: As ``load()`` does, except for a corrupt document when recovery is on.
    public func loadForLaunch() throws -> (state: UpgradeState?, notice: String?) {
        do {
            let state = try loadHoldingLock()
            // Holding the lock, with the folder made: the launch's writes need not check it again.
            return (state, nil)
        } catch let error as UpgradeStoreError where error.code == .corrupt && recoversCorruptDocuments {
            let aside = try moveCorruptDocumentAside(error)
            return (
                nil,
                "\(path) was not a valid state document (\(error.problem)); it was moved to \(aside) and this"
                    + " launch started as a fresh install"
            )
        }
    }

    /// Replaces the document atomically and durably.
    ///
    /// Call it while holding the lock of ``lockForLaunch()``, as the upgrader does. It refuses to
    /// replace a document that it cannot read, that does not parse, or that has a newer format. A
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

    /// Reads the history of launches from `NAME.history.jsonl`, oldest first.
    ///
    /// - Returns: The last 50 launches recorded; empty when there is no history file. A torn last
    ///   line, left by a process that died while appending it, is ignored.
    /// - Throws: `UpgradeStoreError`: `unreadable` or `unsafeLocation` as for the document, and
    ///   `corrupt` for a line that is not a launch record, naming the file, the line and the fault.
    public func history() throws -> [LaunchRecord] {
        try readHistory()
    }

    private func write(_ state: UpgradeState, recording records: [LaunchRecord]) throws(UpgradeStoreError)
        -> String?
    {
        let bytes = memory.withLock { StateDocument.bytes(state, reusing: &$0.recordLines) }
        try requireFileURL()
        let legacyHistory = try checkReplaceable()
        let identity: FileIdentity
        do {
            identity = try writeAtomically(bytes, flush: durability == .powerLoss)
        } catch  where [.ENOENT, .ENOTDIR].contains((error.underlying as? POSIXError)?.code) {
            // The folder is missing: made, then written again once.
            try prepareFolder()
            identity = try writeAtomically(bytes, flush: durability == .powerLoss)
        }
        memory.withLock { $0.verified = VerifiedDocument(identity: identity, legacyHistory: nil) }
        let added = (legacyHistory ?? []) + records
        return added.isEmpty ? nil : appendHistory(added)
    }
}

/// The paths of a file store's files beside its document `NAME`.
package struct StorePaths {
    /// The lock file: `NAME.lock`.
    package let lock: String
    /// The mark of a launch whose time to run the system ended: `NAME.lock.expired`.
    package let expiryMark: String
    /// The history: `NAME.history.jsonl`.
    package let history: String
    /// The start of every temporary file's name: `.NAME.tmp-`, followed by `PID-RANDOM`.
    package let temporaryPrefix: String
    /// The start of every temporary file's path: `FOLDER/.NAME.tmp-`.
    package let temporaryStart: String

    init(folder: String, name: String) {
        let base = folder + "/" + name
        lock = base + ".lock"
        expiryMark = lock + ".expired"
        history = base + ".history.jsonl"
        temporaryPrefix = "." + name + ".tmp-"
        temporaryStart = folder + "/" + temporaryPrefix
    }
}

/// The document this store last read or wrote, known to be valid and of a supported format.
struct VerifiedDocument {
    /// The file it is.
    var identity: FileIdentity
    /// The history a format-1 document holds, to move beside the state at the next write.
    var legacyHistory: [LaunchRecord]?
}

/// A file of the store as read, or its absence.
enum FileRead {
    /// There is no file at the path.
    case missing
    /// The file's contents.
    case found(FileContents)
}

/// A file of the store as read: its bytes and which file they came from.
struct FileContents {
    /// The bytes.
    var bytes: [UInt8]
    /// The file they were read from; all zero when it was read without being examined
    /// (``FileUpgradeStore/readDocument(examined:)``).
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
