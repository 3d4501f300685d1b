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
    /// The start of every temporary file's name: `.NAME.tmp-`, followed by `PID-RANDOM`.
    var temporaryPrefix: String { paths.temporaryPrefix }

    /// Writes `bytes` to a new temporary file, flushes it, puts it in the document's place and flushes
    /// the folder. Before it takes the document's place, any failure removes the temporary file and
    /// leaves the document as it was.
    ///
    /// - Parameters:
    ///   - bytes: The new contents.
    ///   - target: The file to replace; the document by default.
    ///   - flush: Whether the file and the folder are flushed to disk, so that the new contents
    ///     survive a power loss; without it they survive any death of the process but not a power cut.
    ///   - temporary: The temporary file's path: the name of the launch that holds the lock, for one
    ///     write at a time (not registered as in flight: the clean-up runs only when a launch takes the
    ///     lock); `nil` for a new, random name registered as in flight.
    /// - Returns: The identity of the file now at the target's path.
    @discardableResult
    func writeAtomically(
        _ bytes: some ContiguousBytes, to target: String? = nil, flush: Bool = true, through temporary: String? = nil
    ) throws(UpgradeStoreError) -> FileIdentity {
        // `withUnsafeBytes` rethrows untyped errors: the write's error is carried out beside it.
        var failure: UpgradeStoreError?
        let identity = bytes.withUnsafeBytes { raw -> FileIdentity? in
            let none = UnsafeRawBufferPointer(start: nil, count: 0)
            do throws(UpgradeStoreError) {
                return try writeAtomically(
                    StateDocument.Pieces(head: raw, records: none, tail: none), to: target, flush: flush,
                    through: temporary)
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return identity!
    }

    /// Writes a document given in pieces as ``writeAtomically(_:to:flush:through:)`` writes bytes: the
    /// pieces in order, with one `writev`.
    ///
    /// - Parameters:
    ///   - pieces: The new contents, in order.
    ///   - target: The file to replace; the document by default.
    ///   - flush: Whether the file and the folder are flushed to disk.
    ///   - temporary: The launch's temporary file path, or `nil` for a new, random name.
    /// - Returns: The identity of the file now at the target's path.
    @discardableResult
    func writeAtomically(
        _ pieces: StateDocument.Pieces, to target: String? = nil, flush: Bool = true, through temporary: String? = nil
    ) throws(UpgradeStoreError) -> FileIdentity {
        let (temporary, descriptor, registered) =
            if let temporary { (temporary, try createTemporaryFile(at: temporary), false) } else {
                try createTemporaryFile()
            }
        defer { if registered { temporariesInFlight.withLock { _ = $0.remove(temporary) } } }
        var info = stat()
        try replace(target ?? path, with: pieces, through: temporary, descriptor, flush: flush) {
            descriptor throws(UpgradeStoreError) in
            guard fstat(descriptor, &info) == 0 else {
                throw failure(.writeFailed, "could not be examined after writing (\(temporary))", errno)
            }
            // The mode given to open is narrowed by the umask; owner read and write are needed. Changed
            // only when the umask took them (one call less a write), before the file takes the
            // document's name; the identity is not the mode.
            if info.st_mode & 0o777 != 0o600 { _ = fchmod(descriptor, 0o600) }
        }
        return FileIdentity(info)
    }

    /// Replaces `target` with `pieces`: writes them to the open temporary file, flushes it, lets
    /// `examine` look at it, closes it, puts it in the target's place and flushes the folder; removes
    /// the temporary file on any failure before it takes the target's place.
    private func replace(
        _ target: String, with pieces: StateDocument.Pieces, through temporary: String, _ descriptor: Int32,
        flush: Bool, examine: (Int32) throws(UpgradeStoreError) -> Void
    ) throws(UpgradeStoreError) {
        var isOpen = true
        var replaced = false
        defer {
            if isOpen { close(descriptor) }
            if !replaced { POSIX.unlinkPath(temporary) }
        }
        try setDataProtection(temporary)
        if let code = writeAll(pieces, to: descriptor) {
            throw failure(.writeFailed, "could not be written (\(temporary))", code)
        }
        if flush, !skipsForPowerCutTest(.file), call(.sync, { StableStorage.flush(descriptor) }) != 0 {
            throw failure(.writeFailed, "could not be flushed to disk (\(temporary))", errno)
        }
        try examine(descriptor)
        isOpen = false
        if close(descriptor) != 0 { throw failure(.writeFailed, "could not be closed (\(temporary))", errno) }
        if call(.rename, { StableStorage.replace(temporary, over: target, flushed: flush) }) != 0 {
            throw failure(.writeFailed, "could not be replaced by \(temporary)", errno)
        }
        replaced = true
        if flush, !skipsForPowerCutTest(.folder), let code = syncFolder() {
            throw failure(
                .writeFailed,
                "the new state is in place, but the folder could not be flushed to disk, so it may not survive"
                    + " a power loss", code)
        }
    }

    /// Writes the pieces to `descriptor` in order, with `writev` (``POSIX/writeAll(_:_:)``).
    ///
    /// - Returns: `nil`, or the error number of the write that failed.
    private func writeAll(_ pieces: StateDocument.Pieces, to descriptor: Int32) -> Int32? {
        POSIX.writeAll(pieces) { vectors, count in call(.write) { writev(descriptor, vectors, count) } }
    }

    /// A new temporary file path beside the document: `.NAME.tmp-PID-RANDOM`, the process id in
    /// decimal and 64 random bits in hexadecimal.
    ///
    /// Written byte by byte into the new string: an interpolation of the two numbers took some
    /// 8,000 instructions, at every launch that writes.
    func temporaryPath() -> String {
        let start = paths.temporaryStart
        let (pid, random) = (UInt64(getpid()), UInt64.random(in: .min ... .max))
        let length = start.utf8.count + 2 * Digits.maximumCount + 1
        return String(unsafeUninitializedCapacity: length) { text in
            var count = text.initialize(fromContentsOf: start.utf8)
            count += Digits.write(pid, into: text, at: count)
            text[count] = UInt8(ascii: "-")
            count += 1
            count += Digits.write(random, radix: 16, into: text, at: count)
            return count
        }
    }

    /// Creates the temporary file at `temporary`, exclusively and owner-only.
    private func createTemporaryFile(at temporary: String) throws(UpgradeStoreError) -> Int32 {
        var descriptor: Int32 = -1
        for attempt in 1...2 {
            descriptor = call(.create) {
                POSIX.openPath(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
            }
            if descriptor >= 0 { return descriptor }
            // Left by an earlier write of this launch whose clean-up failed (the name is this
            // launch's own): removed, and made again once.
            guard errno == EEXIST, attempt == 1 else { break }
            POSIX.unlinkPath(temporary)
        }
        throw failure(.writeFailed, "could not be written: creating \(temporary) failed", errno)
    }

    /// Creates a uniquely named temporary file beside the document, exclusively, owner-only, and
    /// registers it as in flight; the caller removes it from `temporariesInFlight` when done.
    private func createTemporaryFile() throws(UpgradeStoreError) -> (
        path: String, descriptor: Int32, registered: Bool
    ) {
        var attempts = 0
        while true {
            let temporary = temporaryPath()
            // Registered before it exists, so that a clean-up in this process never takes it for stale.
            temporariesInFlight.withLock { _ = $0.insert(temporary) }
            let descriptor = call(.create) {
                POSIX.openPath(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
            }
            if descriptor >= 0 { return (temporary, descriptor, true) }
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
        let descriptor = POSIX.retrying { POSIX.openPath(target, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
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
        // Read with readdir, the names compared as bytes: a launch that finds no temporary file (the
        // usual case) makes no string of the folder's entries.
        guard let directory = opendir(folder) else { return }
        var stale: [String] = []
        let prefix = Array(temporaryPrefix.utf8)
        while let entry = readdir(directory) {
            let name: String? = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                guard raw.starts(with: prefix) else { return nil }
                let bytes = raw.prefix(while: { $0 != 0 })
                return bytes.count > prefix.count ? String(decoding: bytes, as: UTF8.self) : nil
            }
            if let name { stale.append(name) }
        }
        closedir(directory)
        guard !stale.isEmpty else { return }
        let me = getpid()
        let now = Date().timeIntervalSince1970
        for entry in stale {
            let temporary = folder + "/" + entry
            var info = stat()
            guard lstat(temporary, &info) == 0, POSIX.isRegularFile(info.st_mode) else { continue }
            let writer = entry.utf8.dropFirst(prefix.count).split(separator: UInt8(ascii: "-")).first
                .flatMap { pid_t(String(decoding: $0, as: UTF8.self)) }
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
}
