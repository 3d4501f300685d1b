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

extension FileUpgradeStore {
    /// Removes the history file, then the document, whatever they hold, and flushes the folder, so
    /// that the next launch is a fresh install.
    ///
    /// ``/UpgradeCore/Upgrader/reset()`` calls it holding the lock of ``lockForLaunch()``. The history
    /// goes first, so that a failure leaves the state as it was. The lock file `NAME.lock` stays
    /// (removing it would let two launches lock two different files), and so do documents moved
    /// aside by `recoversCorruptDocuments`. A symbolic link at either path is removed itself, never
    /// followed. A missing file is not an error.
    ///
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.writeFailed` naming the file
    ///   and the system's error when one cannot be removed, or when the folder cannot be flushed to
    ///   disk after the removal.
    public func removeAll() throws {
        try requireFileURL()
        var removed = false
        for target in [historyPath, path] {
            if call(.remove, { unlink(target) }) == 0 {
                removed = true
                continue
            }
            let code = errno
            if code == ENOENT || code == ENOTDIR { continue }
            throw failure(.writeFailed, "could not be removed", code, at: target)
        }
        memory.withLock { $0.verified = nil }
        if removed, durability == .powerLoss, let code = syncFolder() {
            throw failure(
                .writeFailed,
                "the state was removed, but the folder could not be flushed to disk, so the removal may not"
                    + " survive a power loss", code)
        }
    }
}
