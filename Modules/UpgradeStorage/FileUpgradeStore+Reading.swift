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
    /// Reads the document's bytes.
    ///
    /// - Returns: The bytes and the file they came from, or `nil` when there is no file: the only
    ///   case that is a fresh install.
    /// - Throws: `UpgradeStoreError`: unreadable for any failure but a missing file, unsafe
    ///   location for a symbolic link or a special file, corrupt for a file too large to be a state
    ///   document (refused by its size, unread).
    func readDocument() throws(UpgradeStoreError) -> FileContents? {
        try readFile(path, maximumSize: StateDocument.maximumSize) { size throws(UpgradeStoreError) in
            throw StateDocument.tooLarge(size, location: path)
        }
    }

    /// Reads a file of the store whole, as ``readOpenFile(_:_:maximumSize:tooLarge:)`` does.
    ///
    /// - Returns: The bytes and the file they came from, or `nil` when there is no file.
    /// - Throws: As ``readDocument()`` does, with the error of `tooLarge` for a file too large.
    func readFile(_ path: String, maximumSize: Int, tooLarge: (Int) throws(UpgradeStoreError) -> Void)
        throws(UpgradeStoreError) -> FileContents?
    {
        try requireFileURL()
        // O_NONBLOCK: a special file put in the file's place does not block the open.
        let descriptor = call(.read) { open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return nil }
            // Named as precisely as examining the path says: a link, a socket, a folder.
            var info = stat()
            if lstat(path, &info) == 0 { try requireRegularFile(info, at: path) }
            throw failure(.unreadable, "cannot be opened", code, at: path)
        }
        defer { close(descriptor) }
        return try readOpenFile(descriptor, path, maximumSize: maximumSize, tooLarge: tooLarge)
    }

    /// Reads an open file of the store (the document, or the history beside it) whole, after
    /// examining it (`fstat`): a special file, or a file larger than `maximumSize` (the error of
    /// `tooLarge`, given its size), is not read. `path` names the file in errors.
    func readOpenFile(
        _ descriptor: Int32, _ path: String, maximumSize: Int, tooLarge: (Int) throws(UpgradeStoreError) -> Void
    ) throws(UpgradeStoreError) -> FileContents {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw failure(.unreadable, "cannot be examined", errno, at: path) }
        try requireRegularFile(info, at: path)
        if Int(info.st_size) > maximumSize { try tooLarge(Int(info.st_size)) }
        // One byte more than the size, so that a file that grew since is still read to its end.
        let (bytes, readFailure) = POSIX.readAll(capacity: Int(info.st_size) + 1, limit: maximumSize) {
            start, room in call(.read) { read(descriptor, start, room) }
        }
        if let code = readFailure { throw failure(.unreadable, "cannot be read", code, at: path) }
        if bytes.count > maximumSize { try tooLarge(bytes.count) }
        return FileContents(bytes: bytes, identity: FileIdentity(info))
    }

    /// Throws unless the document may be replaced: there is none, or it is the valid document this
    /// store last read or wrote, or it reads now as a valid document of a supported format.
    ///
    /// - Returns: The history of a format-1 document, which the caller moves beside the new state.
    func checkReplaceable() throws(UpgradeStoreError) -> [LaunchRecord]? {
        var info = stat()
        if lstat(path, &info) != 0 {
            let code = errno
            // No file, or no folder yet (made by the write).
            if code == ENOENT || code == ENOTDIR { return nil }
            throw failure(.unreadable, "cannot be examined, so it is not replaced", code)
        }
        if POSIX.isSymbolicLink(info.st_mode) { throw symbolicLinkRefused() }
        if POSIX.isRegularFile(info.st_mode), let known = memory.withLock({ $0.verified }),
            known.identity == FileIdentity(info)
        {
            return known.legacyHistory
        }
        guard let document = try readDocument() else { return nil }
        let contents = try StateDocument.decodeReplaced(document.bytes, location: path)
        memory.withLock {
            $0.verified = VerifiedDocument(identity: document.identity, legacyHistory: contents.legacyHistory)
        }
        return contents.legacyHistory
    }

    /// Moves a corrupt document to `NAME.corrupt-TIMESTAMP` beside it.
    ///
    /// - Parameter problem: What is wrong with it, for an error if the move fails.
    /// - Returns: The path it was moved to.
    func moveCorruptDocumentAside(_ problem: UpgradeStoreError) throws(UpgradeStoreError) -> String {
        let time = Date().formatted(.iso8601.dateSeparator(.omitted).timeSeparator(.omitted))
        let base = "\(path).corrupt-\(time)"
        var aside = base
        var number = 1
        var info = stat()
        while lstat(aside, &info) == 0 {
            number += 1
            aside = "\(base)-\(number)"
        }
        guard rename(path, aside) == 0 else {
            throw failure(.writeFailed, "could not be moved aside to \(aside) (\(problem.detail))", errno)
        }
        syncFolder()
        return aside
    }

    func requireFileURL() throws(UpgradeStoreError) {
        guard isFileLocation else {
            throw UpgradeStoreError(
                code: .unsafeLocation, location: url.absoluteString, detail: "is not a file URL")
        }
    }

    func requireRegularFile(_ info: stat, at location: String? = nil) throws(UpgradeStoreError) {
        if POSIX.isRegularFile(info.st_mode) { return }
        if POSIX.isSymbolicLink(info.st_mode) { throw symbolicLinkRefused(at: location) }
        if POSIX.isDirectory(info.st_mode) {
            throw failure(.unreadable, "is a folder, not a file of the store", EISDIR, at: location)
        }
        throw UpgradeStoreError(
            code: .unsafeLocation, location: location ?? path, detail: "is not a regular file; it is left as it is")
    }

    func symbolicLinkRefused(at location: String? = nil) -> UpgradeStoreError {
        UpgradeStoreError(
            code: .unsafeLocation, location: location ?? path,
            detail: "is a symbolic link; the store does not follow links, so as not to read or replace"
                + " a file elsewhere. Point the store at the real file", underlying: POSIX.error(ELOOP))
    }

    /// An error naming the path, what failed and the system's error.
    func failure(
        _ code: UpgradeStoreError.Code, _ what: String, _ number: Int32, at location: String? = nil
    ) -> UpgradeStoreError {
        var detail = "\(what): \(POSIX.describe(number))"
        if code == .unreadable {
            detail += "; only a missing file is a fresh install, so nothing runs until it can be read"
        }
        return UpgradeStoreError(
            code: code, location: location ?? path, detail: detail, underlying: POSIX.error(number))
    }
}

extension FileIdentity {
    init(_ info: stat) {
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        self.init(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: Int64(info.st_size), modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec)
        )
    }
}
