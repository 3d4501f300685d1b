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

// The history of launches, `NAME.history.jsonl` beside the document: one launch record a line
// (LaunchHistoryLine), appended by each launch that writes the state, with its last write. It is for
// diagnostics, not part of the store's guarantees: never flushed to disk, and a failure to write it is
// a notice in the launch's report, never a failed launch. A process that dies while appending can
// leave a torn last line: reading ignores it, and the next append cuts it off first.

extension FileUpgradeStore {
    /// The history file's path: `NAME.history.jsonl` beside the document.
    var historyPath: String { paths.history }

    /// The history file is rewritten with its last `LaunchRecord.historyLimit` records once it holds
    /// more than this many.
    static var historyTrimThreshold: Int { 2 * LaunchRecord.historyLimit }

    /// The largest history file read; a larger one was not written by this store.
    private static var maximumHistorySize: Int { 64 << 20 }

    /// Reads the history file.
    ///
    /// - Returns: The last `LaunchRecord.historyLimit` records, oldest first; empty without a file.
    /// - Throws: `UpgradeStoreError` naming the file, and the line for a line that is not a record.
    func readHistory() throws(UpgradeStoreError) -> [LaunchRecord] {
        guard case .found(let file) = try readHistoryFile() else { return [] }
        let lines = Self.lines(file.bytes)
        var records: [LaunchRecord] = []
        records.reserveCapacity(min(lines.complete.count, LaunchRecord.historyLimit))
        for (index, line) in lines.complete.enumerated().suffix(LaunchRecord.historyLimit) where !line.isEmpty {
            do {
                records.append(try LaunchHistoryLine.decode(line))
            } catch {
                throw UpgradeStoreError(
                    code: .corrupt, location: historyPath,
                    detail: "line \(index + 1) is not a launch record: \(error); the history is left as it is",
                    underlying: error)
            }
        }
        return records
    }

    /// Adds records to the history file: appended, or the file rewritten without its torn tail and
    /// trimmed to the last `LaunchRecord.historyLimit` records once it grows past
    /// ``historyTrimThreshold``.
    ///
    /// - Parameter records: The records, oldest first.
    /// - Returns: A notice for the launch's report when the history could not be written; `nil` when
    ///   it was.
    func appendHistory(_ records: [LaunchRecord]) -> String? {
        let added = LaunchHistoryLine.lines(records)
        do {
            if try appendToShortHistory(added, adding: records.count) { return nil }
            let lines =
                switch try readHistoryFile() {
                case .found(let existing): Self.lines(existing.bytes)
                case .missing: (complete: [ArraySlice<UInt8>](), tornTail: false)
                }
            let kept = lines.complete.count
            if !lines.tornTail && kept + records.count <= Self.historyTrimThreshold {
                try appendToHistoryFile(added)
                return nil
            }
            let keep = max(LaunchRecord.historyLimit - records.count, 0)
            var text: [UInt8] = []
            for line in lines.complete.suffix(keep) {
                text.append(contentsOf: line)
                text.append(UInt8(ascii: "\n"))
            }
            text.append(contentsOf: added)
            try writeAtomically(text, to: historyPath, flush: false)
            return nil
        } catch {
            return "the launch history could not be written (\(error)); the state was saved"
        }
    }

    /// No line of the history is shorter than this, with its line break: the shortest record
    /// (`{"from": null, "outcome": "failed", "steps": [], "time": 0.0, "to": "0.0"}`) takes 74 bytes.
    package static var shortestLine: Int { 64 }

    /// Appends to a history file short enough that it cannot hold more than
    /// ``historyTrimThreshold`` lines after the append, and that ends with a whole line: the common
    /// case, told from its size and last byte without reading it.
    ///
    /// - Returns: Whether the bytes were appended; `false` when the file must be read (it may need
    ///   trimming, or its last line is torn), and nothing was written.
    private func appendToShortHistory(_ bytes: [UInt8], adding count: Int) throws(UpgradeStoreError) -> Bool {
        let target = historyPath
        let descriptor = try openHistoryForAppending(readable: true)
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw failure(.writeFailed, "could not be examined", errno, at: target)
        }
        try requireRegularFile(info, at: target)
        let size = Int(info.st_size)
        guard size / Self.shortestLine + count <= Self.historyTrimThreshold else { return false }
        if size > 0 {
            var last: UInt8 = 0
            guard POSIX.retrying({ pread(descriptor, &last, 1, off_t(size - 1)) }) == 1, last == UInt8(ascii: "\n")
            else { return false }
        }
        try setDataProtection(target)
        try append(bytes, to: descriptor)
        return true
    }

    private func readHistoryFile() throws(UpgradeStoreError) -> FileRead {
        try readFile(historyPath, maximumSize: Self.maximumHistorySize) { size throws(UpgradeStoreError) in
            throw UpgradeStoreError(
                code: .corrupt, location: historyPath,
                detail: "is \(size) bytes, more than a launch history can be; it is left as it is")
        }
    }

    /// Appends to the history file, creating it owner-only if missing; never follows a link.
    private func appendToHistoryFile(_ bytes: [UInt8]) throws(UpgradeStoreError) {
        let descriptor = try openHistoryForAppending()
        defer { close(descriptor) }
        try setDataProtection(historyPath)
        try append(bytes, to: descriptor)
    }

    /// Opens the history file for appending, creating it owner-only if missing; never follows a link.
    ///
    /// - Parameter readable: Whether it is opened for reading too.
    private func openHistoryForAppending(readable: Bool = false) throws(UpgradeStoreError) -> Int32 {
        let target = historyPath
        let access = readable ? O_RDWR : O_WRONLY
        let descriptor = POSIX.retrying {
            POSIX.openPath(target, access | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
        }
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { throw symbolicLinkRefused(at: target) }
            throw failure(.writeFailed, "could not be opened to append", code, at: target)
        }
        return descriptor
    }

    /// Writes all of `bytes` to the history file open for appending.
    private func append(_ bytes: [UInt8], to descriptor: Int32) throws(UpgradeStoreError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                POSIX.retrying { write(descriptor, raw.baseAddress! + written, raw.count - written) }
            }
            if count < 0 { throw failure(.writeFailed, "could not be appended to", errno, at: historyPath) }
            written += count
        }
    }

    /// A history file's lines without their line breaks, and whether it ends with a torn line (text
    /// after the last line break), which is left out.
    ///
    /// A launch that writes reads a history longer than a short one to count its lines (a full
    /// history of 50 to 100 records always is), so the line breaks are found
    /// with `memchr` in the file's bytes (`Data.split` goes through `Data`'s indices a byte at a time,
    /// which took most of a one-step launch's own time with a full history).
    private static func lines(_ bytes: [UInt8]) -> (complete: [ArraySlice<UInt8>], tornTail: Bool) {
        var complete = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let tail = complete.removeLast()
        // The text after the last line break: empty for a whole file, a torn line otherwise.
        return (complete, !tail.isEmpty)
    }
}
