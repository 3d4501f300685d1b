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
/// engine, no document and no decisions: the lock, the reads and the writes, with the calls that the
/// store's rules add to what the floor makes. Its time against the floor's is what those rules cost in the kernel;
/// the launch's time against its own is what the engine costs in instructions.
///
/// The calls are the store's, in its order (`Scripts/check-store-calls.sh` checks that a launch and
/// this replay make as many calls of each kind, counted under `strace`):
/// - the read without the lock, which lets an up-to-date launch take no lock (open, read, close);
/// - the lock file opened and examined, locked, and the holder's id written into it;
/// - the look for stale temporary files (the folder read) and for the mark of an expired launch;
/// - the read under the lock (open, `fstat`, read, close);
/// - the temporary file's name (`getpid`, `getrandom`);
/// - at each write, an `lstat` of the document (a file put there by someone else is never written
///   over unread), the exclusive create, the write, the flush at the power-loss level, an `fstat`
///   of the new file for its identity, and its replacement of the document as the store makes it;
/// - the history's line (open, `fstat`, a one-byte read of its end, the append, close).
struct StoreCalls: @unchecked Sendable {
    let folder: String
    let statePath: String
    let lockPath: String
    let expiryMarkPath: String
    let historyPath: String
    /// The start of the temporary file's path, as the store names it: `FOLDER/.NAME.tmp-`.
    let temporaryStart: String
    /// The size of each document the launch writes, in order.
    let writeSizes: [Int]
    /// The size of the launch's line in the history.
    let historyLineSize: Int
    /// Whether the writes are flushed, as at the power-loss level.
    let flushes: Bool
    /// What is written: spaces, as many as the largest write.
    private let bytes: [UInt8]
    /// Where the reads go (the launch makes one at a time, on one thread).
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)

    /// The calls of a launch through `store`, on the store's own paths.
    init(store: FileUpgradeStore, writeSizes: [Int], historyLineSize: Int) {
        let paths = store.paths
        (statePath, folder) = (store.path, store.folder)
        (lockPath, expiryMarkPath, historyPath) = (paths.lock, paths.expiryMark, paths.history)
        temporaryStart = paths.temporaryStart
        self.writeSizes = writeSizes
        self.historyLineSize = historyLineSize
        flushes = store.durability == .powerLoss
        bytes = [UInt8](repeating: UInt8(ascii: " "), count: max(writeSizes.max() ?? 0, historyLineSize))
    }

    /// Reads up to `count` bytes of `descriptor` at `offset` (or at its position) into the read buffer.
    private func readSome(_ descriptor: Int32, count: Int, at offset: off_t? = nil) {
        let count = min(count, readBuffer.count)
        if let offset {
            Sink.consume(pread(descriptor, readBuffer.baseAddress, count, offset))
        } else {
            Sink.consume(read(descriptor, readBuffer.baseAddress, count))
        }
    }

    /// Makes the calls of one launch.
    func launch() throws {
        var info = stat()
        // The read without the lock.
        var descriptor = open(statePath, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchError("cannot open \(statePath): errno \(errno)") }
        readSome(descriptor, count: 1024)
        close(descriptor)
        // The lock, as the store takes it, and the holder's id.
        let lock = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw BenchError("cannot open \(lockPath): errno \(errno)") }
        defer { close(lock) }
        guard fstat(lock, &info) == 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            throw BenchError("cannot lock \(lockPath): errno \(errno)")
        }
        defer { flock(lock, LOCK_UN) }
        Sink.consume(Int(getpid()))
        Sink.consume(bytes.withUnsafeBytes { pwrite(lock, $0.baseAddress, FileUpgradeStore.holderWidth, 0) })
        // The look for stale temporary files, and for the mark of an expired launch.
        if let directory = opendir(folder) {
            while readdir(directory) != nil {}
            closedir(directory)
        }
        Sink.consume(Int(lstat(expiryMarkPath, &info)))
        // The read under the lock.
        descriptor = open(statePath, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchError("cannot open \(statePath): errno \(errno)") }
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            throw BenchError("cannot examine \(statePath): errno \(errno)")
        }
        readSome(descriptor, count: Int(info.st_size) + 1)
        close(descriptor)
        // The temporary file's name.
        let temporary = temporaryStart + "\(getpid())-\(String(UInt64.random(in: .min ... .max), radix: 16))"
        try bytes.withUnsafeBytes { buffer in
            for size in writeSizes {
                Sink.consume(Int(lstat(statePath, &info)))
                let file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                guard file >= 0 else { throw BenchError("cannot create \(temporary): errno \(errno)") }
                let wrote =
                    write(file, buffer.baseAddress, size) == size && (!flushes || StableStorage.flush(file) == 0)
                    && fstat(file, &info) == 0
                close(file)
                guard wrote, StableStorage.replace(temporary, over: statePath, flushed: flushes) == 0 else {
                    throw BenchError("cannot write \(temporary) over \(statePath): errno \(errno)")
                }
                if flushes {
                    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                    guard directory >= 0 else { throw BenchError("cannot open \(folder): errno \(errno)") }
                    defer { close(directory) }
                    guard StableStorage.flush(directory) == 0 else {
                        throw BenchError("cannot flush \(folder): errno \(errno)")
                    }
                }
            }
            // The history's line: its last byte is read when it has one.
            let history = open(historyPath, O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard history >= 0 else { throw BenchError("cannot open \(historyPath): errno \(errno)") }
            defer { close(history) }
            guard fstat(history, &info) == 0 else { throw BenchError("cannot examine \(historyPath): errno \(errno)") }
            if info.st_size > 0 { readSome(history, count: 1, at: info.st_size - 1) }
            Sink.consume(write(history, buffer.baseAddress, historyLineSize))
        }
    }
}
