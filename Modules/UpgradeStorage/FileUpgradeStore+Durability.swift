extension FileUpgradeStore {
    /// What a write of the state survives: the trade-off between the cost of each write and what a
    /// power cut may undo (as SQLite's `synchronous` setting makes it).
    ///
    /// At both levels a write is a record of the whole state appended to a journal beside the
    /// document, checked by its length and checksum when read: a reader never sees a half-written
    /// state, and any death of the app process leaves the old state or the new one.
    /// <doc:FileStoreGuarantees> says how each level writes.
    public enum Durability: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A write survives power loss (the default): its journal record is flushed to stable
        /// storage before the write returns (`F_FULLFSYNC` on Apple platforms, `fdatasync`
        /// elsewhere). Each write costs one flush, and a launch that makes a journal one more, for
        /// its folder: at most k + 2 for a launch of k steps.
        case powerLoss
        /// A write survives any death of the app (a crash, a kill, a watchdog), but not a power cut or
        /// a kernel panic: nothing is flushed.
        ///
        /// After a power cut the state may be an older one (steps that finished since run again),
        /// missing (a fresh install), or an empty or unreadable file. Choose it when your steps are
        /// idempotent and cheap to run again, and a launch with many pending steps must be fast.
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
