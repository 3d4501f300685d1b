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
// (LaunchHistoryLine), appended with a launch's last write. It is outside the store's guarantees:
// never flushed, and a failure to write it is a notice in the launch's report, never a failed launch.
// A torn last line, left by a process that died while appending, is ignored, and cut off by the next
// append.

extension FileUpgradeStore {
    /// The history file is rewritten with its last `LaunchRecord.historyLimit` records once it holds
    /// more than this many.
    static var historyTrimThreshold: Int { 2 * LaunchRecord.historyLimit }

    /// The largest history file read; a larger one was not written by this store.
    private static var maximumHistorySize: Int { 64 << 20 }

    /// Reads the history of launches from `NAME.history.jsonl`, oldest first.
    ///
    /// - Returns: The last 50 launches recorded; empty when there is no history file. A torn last
    ///   line, left by a process that died while appending it, is ignored.
    /// - Throws: `UpgradeStoreError`: `unreadable` or `unsafeLocation` as for the document, and
    ///   `corrupt` for a line that is not a launch record, naming the file, the line and the fault.
    public func history() throws -> [LaunchRecord] {
        guard
            let file = try readFile(
                historyPath, maximumSize: Self.maximumHistorySize, tooLarge: historyTooLarge)
        else { return [] }
        let lines = Self.lines(file.bytes).complete.enumerated().suffix(LaunchRecord.historyLimit)
        return try LaunchHistoryLine.records(
            lines.filter { !$0.element.isEmpty }.map { ("line \($0.offset + 1)", $0.element) }, location: historyPath)
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
            let descriptor = open(historyPath, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
            guard descriptor >= 0 else {
                let code = errno
                if code == ELOOP { throw symbolicLinkRefused(at: historyPath) }
                throw failure(.writeFailed, "could not be opened to append", code, at: historyPath)
            }
            defer { close(descriptor) }
            let lines = Self.lines(
                try readOpenFile(
                    descriptor, historyPath, maximumSize: Self.maximumHistorySize, tooLarge: historyTooLarge
                )
                .bytes)
            if !lines.tornTail && lines.complete.count + records.count <= Self.historyTrimThreshold {
                try setDataProtection(historyPath)
                if let code = POSIX.writeAll(
                    added, { start, count in POSIX.retrying { write(descriptor, start, count) } })
                {
                    throw failure(.writeFailed, "could not be appended to", code, at: historyPath)
                }
                return nil
            }
            let kept = lines.complete.suffix(max(LaunchRecord.historyLimit - records.count, 0))
            try writeAtomically(kept.flatMap { $0 + [UInt8(ascii: "\n")] } + added, to: historyPath, flush: false)
            return nil
        } catch {
            return "the launch history could not be written (\(error)); the state was saved"
        }
    }

    private func historyTooLarge(_ size: Int) throws(UpgradeStoreError) {
        throw UpgradeStoreError(
            code: .corrupt, location: historyPath,
            detail: "is \(size) bytes, more than a launch history can be; it is left as it is")
    }

    /// A history file's lines without their line breaks, and whether it ends with a torn line (text
    /// after the last line break), which is left out.
    private static func lines(_ bytes: [UInt8]) -> (complete: [ArraySlice<UInt8>], tornTail: Bool) {
        var complete = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let tail = complete.removeLast()
        return (complete, !tail.isEmpty)
    }
}
