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

/// The temporary files this process is writing now, which a clean-up must leave alone.
private let temporariesInFlight = Protected(Set<String>())

extension FileUpgradeStore {
    /// Writes `bytes` to a new temporary file, flushes it, puts it in the target's place and flushes
    /// the folder. Before it takes the target's place, any failure removes the temporary file and
    /// leaves the target as it was.
    ///
    /// - Parameters:
    ///   - bytes: The new contents.
    ///   - target: The file to replace; the document by default.
    ///   - flush: Whether the file and the folder are flushed to disk, so that the new contents
    ///     survive a power loss; without it they survive any death of the process but not a power cut.
    /// - Returns: The identity of the file now at the target's path.
    @discardableResult
    func writeAtomically(_ bytes: [UInt8], to target: String? = nil, flush: Bool = true) throws(UpgradeStoreError)
        -> FileIdentity
    {
        let (temporary, descriptor) = try createTemporaryFile()
        var isOpen = true
        var replaced = false
        defer {
            if isOpen { close(descriptor) }
            if !replaced { unlink(temporary) }
            temporariesInFlight.withLock { _ = $0.remove(temporary) }
        }
        try setDataProtection(temporary)
        if let code = POSIX.writeAll(bytes, { start, count in call(.write) { write(descriptor, start, count) } }) {
            throw failure(.writeFailed, "could not be written (\(temporary))", code)
        }
        if flush, call(.sync, { StableStorage.flush(descriptor) }) != 0 {
            throw failure(.writeFailed, "could not be flushed to disk (\(temporary))", errno)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw failure(.writeFailed, "could not be examined after writing (\(temporary))", errno)
        }
        // The mode given to open is narrowed by the umask; owner read and write are needed.
        if info.st_mode & 0o777 != 0o600 { _ = fchmod(descriptor, 0o600) }
        isOpen = false
        if close(descriptor) != 0 { throw failure(.writeFailed, "could not be closed (\(temporary))", errno) }
        if call(.rename, { StableStorage.replace(temporary, over: target ?? path) }) != 0 {
            throw failure(.writeFailed, "could not be replaced by \(temporary)", errno)
        }
        replaced = true
        if flush, let code = syncFolder() {
            throw failure(
                .writeFailed,
                "the new state is in place, but the folder could not be flushed to disk, so it may not survive"
                    + " a power loss", code)
        }
        return FileIdentity(info)
    }

    /// A new temporary file path beside the document: `.NAME.tmp-PID-RANDOM`, the process id in
    /// decimal and 64 random bits in hexadecimal.
    func temporaryPath() -> String {
        "\(folder)/\(temporaryPrefix)\(getpid())-\(String(UInt64.random(in: .min ... .max), radix: 16))"
    }

    /// Creates a uniquely named temporary file beside the document, exclusively, owner-only, and
    /// registers it as in flight; the caller removes it from `temporariesInFlight` when done.
    private func createTemporaryFile() throws(UpgradeStoreError) -> (path: String, descriptor: Int32) {
        var attempts = 0
        while true {
            let temporary = temporaryPath()
            // Registered before it exists, so that a clean-up in this process never takes it for stale.
            temporariesInFlight.withLock { _ = $0.insert(temporary) }
            let descriptor = call(.create) {
                open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
            }
            if descriptor >= 0 { return (temporary, descriptor) }
            let code = errno
            temporariesInFlight.withLock { _ = $0.remove(temporary) }
            attempts += 1
            if code != EEXIST || attempts >= 8 {
                throw failure(.writeFailed, "could not be written: creating \(temporary) failed", code)
            }
        }
    }

    /// Creates the document's folder, and any missing folder above it, with permissions 0700.
    func prepareFolder() throws(UpgradeStoreError) {
        try requireFileURL()
        var missing: [String] = []
        var current = folder
        var info = stat()
        while stat(current, &info) != 0 {
            let code = errno
            guard code == ENOENT else {
                throw failure(.writeFailed, "the folder \(current) cannot be examined", code, at: path)
            }
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        if missing.isEmpty, !POSIX.isDirectory(info.st_mode) {
            throw UpgradeStoreError(
                code: .unsafeLocation, location: path, detail: "\(folder) is not a folder",
                underlying: POSIX.error(ENOTDIR))
        }
        for created in missing.reversed() {
            if mkdir(created, 0o700) != 0 {
                let code = errno
                if code == EEXIST { continue }
                throw failure(.writeFailed, "the folder \(created) could not be created", code, at: path)
            }
            _ = chmod(created, 0o700)
            try setDataProtection(created)
            syncFolder((created as NSString).deletingLastPathComponent)
        }
    }

    /// Flushes a folder, the document's by default, so that a rename or a new entry in it survives a
    /// power loss.
    ///
    /// - Returns: The error number of a failure that matters; file systems that cannot flush a
    ///   folder (`EINVAL`, `ENOTSUP`) are not a failure.
    @discardableResult
    func syncFolder(_ target: String? = nil) -> Int32? {
        let target = target ?? folder
        let descriptor = POSIX.retrying { open(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        guard call(.syncFolder, { StableStorage.flush(descriptor) }) != 0 else { return nil }
        let code = errno
        return code == EINVAL || code == ENOTSUP ? nil : code
    }

    /// Removes temporary files left by writers that are gone: a process that no longer exists, this
    /// process when the file is not one it is writing, or any writer at all for a file older than
    /// 15 minutes (a write takes milliseconds). Called holding the lock.
    func removeStaleTemporaryFiles() {
        let prefix = temporaryPrefix
        let stale = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasPrefix(prefix) && $0.count > prefix.count
        }
        guard !stale.isEmpty else { return }
        let me = getpid()
        let now = Date().timeIntervalSince1970
        for entry in stale {
            let temporary = folder + "/" + entry
            var info = stat()
            guard lstat(temporary, &info) == 0, POSIX.isRegularFile(info.st_mode) else { continue }
            let writer = entry.dropFirst(prefix.count).split(separator: "-").first.flatMap { pid_t($0) }
            let age = now - Double(FileIdentity(info).modifiedSeconds)
            let isStale: Bool
            if let writer, writer == me {
                isStale = !temporariesInFlight.withLock { $0.contains(temporary) }
            } else if let writer, POSIX.processIsGone(writer) {
                isStale = true
            } else {
                isStale = age > 15 * 60
            }
            if isStale { unlink(temporary) }
        }
    }

    /// Removes the history file, then the document, then the journals (`NAME.journal-0` and
    /// `NAME.journal-1`), whatever they hold, and flushes the folder, so that the next launch is a
    /// fresh install.
    ///
    /// ``/UpgradeCore/Upgrader/reset()`` calls it holding the lock of ``lockForLaunch()``. The history
    /// goes first and the journal that holds the state last, so that a failure leaves the state as
    /// it was (while a journal holds it, the document is only its copy). The lock file `NAME.lock` stays
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
        // The journals last, the older generation first, so that a failure never leaves an older
        // state current: the state is as it was, or gone.
        let current = (try? readJournals())?.current?.index ?? 0
        for target in [historyPath, path, journalPath(1 - current), journalPath(current)] {
            if call(.remove, { unlink(target) }) == 0 {
                removed = true
                continue
            }
            let code = errno
            if code == ENOENT || code == ENOTDIR { continue }
            throw failure(.writeFailed, "could not be removed", code, at: target)
        }
        memory.withLock {
            $0.verified = nil
            $0.openJournal = nil
            $0.verifiedJournal = nil
            $0.journalsMayExist = false
        }
        if removed, durability == .powerLoss, let code = syncFolder() {
            throw failure(
                .writeFailed,
                "the state was removed, but the folder could not be flushed to disk, so the removal may not"
                    + " survive a power loss", code)
        }
    }

    /// Gives a new file or folder the data protection class `completeUntilFirstUserAuthentication`
    /// (Apple's "Encrypting Your App's Files") on the platforms that have data protection, so that it
    /// can be read in the background after the first unlock.
    func setDataProtection(_ target: String) throws(UpgradeStoreError) {
        #if (os(iOS) && !targetEnvironment(macCatalyst)) || os(tvOS) || os(watchOS) || os(visionOS)
            do {
                try FileManager.default.setAttributes(
                    [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: target)
            } catch {
                throw UpgradeStoreError(
                    code: .writeFailed, location: path,
                    detail: "could not give \(target) the data protection class"
                        + " completeUntilFirstUserAuthentication: \(error)", underlying: error)
            }
        #else
            // macOS (Mac Catalyst included) and Linux: no data protection classes to set; the files
            // are owner-only (0600, folders 0700) as everywhere.
        #endif
    }
}
