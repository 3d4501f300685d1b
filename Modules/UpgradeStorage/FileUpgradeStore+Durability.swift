extension FileUpgradeStore {
    /// What a write of the state survives: the trade-off between the cost of each write and what a
    /// power cut may undo (as SQLite's `synchronous` setting and Apple's own atomic file writes make it).
    ///
    /// Every write is an atomic replacement at both levels: a reader never sees a half-written
    /// document, and any death of the app process leaves the old state or the new one.
    public enum Durability: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A write survives power loss (the default): the new file is flushed to stable storage
        /// before it replaces the old one, and the folder after, with the full flush
        /// (`F_FULLFSYNC`) on Apple platforms. Each write costs two flushes.
        case powerLoss
        /// A write survives any death of the app (a crash, a kill, a watchdog), but not a power cut or
        /// a kernel panic: nothing is flushed, and the system writes the file back when it will.
        ///
        /// On Linux the new file takes the document's place by an exchange of the two names
        /// (`renameat2` with `RENAME_EXCHANGE`), and the old file is then removed: as atomic as a
        /// rename, for readers and for a process that dies at any moment, without the write to disk
        /// that ext4 starts for a rename over an existing file (its `auto_da_alloc` protection of
        /// programs that do not flush), which costs more than the rest of an unflushed write. That
        /// protection is what this level gives up there: after a power cut, an empty document (reported
        /// as unreadable) is more likely than with a rename, which matters most on devices that lose
        /// power without warning.
        ///
        /// After a power cut the state may be an older one (steps that finished since run again,
        /// failed attempts since go uncounted), missing (the next launch is a fresh install), or an
        /// empty or unreadable file, which is reported like any unreadable file (or moved aside, with
        /// `recoversCorruptDocuments`). Choose it when your steps are idempotent and cheap to run
        /// again, and a launch with many pending steps must be fast.
        case appKill

        /// The level's name, as the command line spells it: `power-loss` or `app-kill`.
        public var description: String {
            switch self {
            case .powerLoss: "power-loss"
            case .appKill: "app-kill"
            }
        }

        /// The level named as the command line spells it.
        ///
        /// - Parameter name: `power-loss` or `app-kill`.
        public init?(name: String) {
            guard let level = Self.allCases.first(where: { $0.description == name }) else { return nil }
            self = level
        }
    }
}
