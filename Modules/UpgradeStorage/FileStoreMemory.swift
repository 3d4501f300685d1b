/// What a ``FileUpgradeStore`` remembers between calls, behind its one mutex
/// (``FileUpgradeStore/memory``).
struct FileStoreMemory {
    /// The file last read or written as a valid document of a supported format, so that a save need
    /// not read it again to know that it may be replaced.
    var verified: VerifiedDocument?
    /// The activity that keeps the process running while a launch holds the lock
    /// (FileUpgradeStore+SharedContainer.swift).
    var launchActivity = LaunchActivity.system
    /// The lines of the `completed` records of the last document written, which the next write
    /// reuses for the records it still holds.
    var recordLines = StateDocument.RecordLines()
    /// The paths of the store's other files, once made (``FileUpgradeStore/paths``).
    var derivedPaths: StorePaths?
}
