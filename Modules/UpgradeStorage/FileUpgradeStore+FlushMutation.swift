// A test hook for one test only: the power-cut tests' mutation check (Scripts/power-cut-tests.sh,
// CONTRIBUTING.md "Power-cut tests"). With a flush of `writeAtomically` removed, the power-loss checks
// must fail; this hook removes it without a second build of the library. Nothing in the package sets
// it but `upgrade-sim launch`, and that only when the environment variable
// UPGRADE_SIM_TEST_SKIP_FLUSH is set; an app cannot reach it (`package` access).

/// The flushes skipped in this process: none, unless the power-cut tests' mutation check asked.
private let flushesSkippedForPowerCutTest = Protected(Set<FileUpgradeStore.PowerCutTestFlush>())

extension FileUpgradeStore {
    /// A flush that `writeAtomically` makes at the power-loss level.
    package enum PowerCutTestFlush: String, Sendable, Hashable, CaseIterable {
        /// The temporary file's flush, before the rename.
        case file
        /// The folder's flush, after the rename.
        case folder
    }

    /// For the power-cut tests' mutation check only: makes every file store in this process skip
    /// these flushes, so that its writes at the power-loss level no longer survive a power cut.
    ///
    /// Called only by `upgrade-sim launch` when UPGRADE_SIM_TEST_SKIP_FLUSH is set; never by the
    /// library, an app or a test in this process (it is process-wide).
    ///
    /// - Parameter flushes: The flushes to skip; empty to skip none again.
    package static func skipFlushesForPowerCutTest(_ flushes: Set<PowerCutTestFlush>) {
        flushesSkippedForPowerCutTest.withLock { $0 = flushes }
    }

    /// Whether the power-cut tests' mutation check removed `flush`: `false` outside that check.
    func skipsForPowerCutTest(_ flush: PowerCutTestFlush) -> Bool {
        flushesSkippedForPowerCutTest.withLock { $0.contains(flush) }
    }
}
