import Foundation
import UpgradeStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The system calls of a pending launch through `FileUpgradeStore`, made one after the other with no
/// engine, no document and no decisions: the floor's lock, read and writes, and the calls that the
/// store's rules add to them. Its time against the floor's is what those rules cost in the kernel;
/// the launch's time against its own is what the engine costs in instructions.
///
/// The calls are the store's, in its order (checked by `Scripts/check-store-calls.sh`, which counts
/// the calls of both under `strace`):
/// - the read without the lock, which lets an up-to-date launch take no lock (open, read, close);
/// - the lock file opened and examined, locked, and the holder's id written into it;
/// - the look for stale temporary files (the folder read) and for the mark of an expired launch;
/// - the read under the lock (open, `fstat`, read, close);
/// - the temporary file's name (`getpid`, `getrandom`);
/// - at each write, an `lstat` of the document (a file put there by someone else is never written
///   over unread), the exclusive create, the write, the flush at the power-loss level, an `fstat`
///   of the new file for its identity, and its replacement of the document as the store makes it;
/// - the history's line (open, `fstat`, a one-byte read of its end, the append, close).
struct StoreCalls: Sendable {
    let folder: String
    let statePath: String
    let lockPath: String
    let expiryMarkPath: String
    let historyPath: String
    /// The size of each document the launch writes, in order.
    let writeSizes: [Int]
    /// The size of the launch's line in the history.
    let historyLineSize: Int
    /// Whether the writes are flushed, as at the power-loss level.
    let flushes: Bool
    /// Spaces, as many as the largest write.
    private let bytes: [UInt8]

    init(statePath: String, writeSizes: [Int], historyLineSize: Int, flushes: Bool) {
        self.statePath = statePath
        folder = (statePath as NSString).deletingLastPathComponent
        lockPath = statePath + ".lock"
        expiryMarkPath = lockPath + ".expired"
        historyPath = statePath + ".history.jsonl"
        self.writeSizes = writeSizes
        self.historyLineSize = historyLineSize
        self.flushes = flushes
        bytes = [UInt8](repeating: UInt8(ascii: " "), count: max(writeSizes.max() ?? 0, historyLineSize, 1024))
    }

    /// Makes the calls of one launch.
    func launch() throws {
        var info = stat()
        try bytes.withUnsafeBytes { buffer in
            let memory = UnsafeMutableRawPointer(mutating: buffer.baseAddress!)
            // The read without the lock.
            var descriptor = open(statePath, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else { throw BenchError("cannot open \(statePath): errno \(errno)") }
            Sink.consume(read(descriptor, memory, 1024))
            close(descriptor)
            // The lock, and the holder's id.
            let lock = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard lock >= 0, fstat(lock, &info) == 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
                throw BenchError("cannot lock \(lockPath): errno \(errno)")
            }
            defer {
                flock(lock, LOCK_UN)
                close(lock)
            }
            Sink.consume(Int(getpid()))
            Sink.consume(pwrite(lock, memory, FileUpgradeStore.holderWidth, 0))
            // The look for stale temporary files, and for the mark of an expired launch.
            if let directory = opendir(folder) {
                while readdir(directory) != nil {}
                closedir(directory)
            }
            Sink.consume(Int(lstat(expiryMarkPath, &info)))
            // The read under the lock.
            descriptor = open(statePath, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0, fstat(descriptor, &info) == 0 else {
                throw BenchError("cannot examine \(statePath): errno \(errno)")
            }
            Sink.consume(read(descriptor, memory, Int(info.st_size) + 1))
            close(descriptor)
            // The temporary file's name.
            let random = UInt64.random(in: .min ... .max)
            let temporary = folder + "/.upgrade-state.json.tmp-\(getpid())-\(String(random, radix: 16))"
            for size in writeSizes {
                Sink.consume(Int(lstat(statePath, &info)))
                let file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                guard file >= 0, write(file, memory, size) == size, !flushes || StableStorage.flush(file) == 0,
                    fstat(file, &info) == 0
                else { throw BenchError("cannot write \(temporary): errno \(errno)") }
                close(file)
                guard StableStorage.replace(temporary, over: statePath, flushed: flushes) == 0 else {
                    throw BenchError("cannot replace \(statePath): errno \(errno)")
                }
                if flushes {
                    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                    guard directory >= 0, StableStorage.flush(directory) == 0 else {
                        throw BenchError("cannot flush \(folder): errno \(errno)")
                    }
                    close(directory)
                }
            }
            // The history's line.
            let history = open(historyPath, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard history >= 0, fstat(history, &info) == 0 else {
                throw BenchError("cannot open \(historyPath): errno \(errno)")
            }
            Sink.consume(pread(history, memory, 1, max(0, info.st_size - 1)))
            Sink.consume(write(history, memory, historyLineSize))
            close(history)
        }
    }
}
