/// The system's calls, counted: how many flushes a file store made (a file, a folder or a journal
/// flushed to stable storage), for the tests and the benchmark that count a launch's flushes.
package final class CountingCalls: FileStoreCalls {
    private let counts = Protected([FileStoreOperation: Int]())
    private let calls: any FileStoreCalls

    /// Counts the calls made through `calls`, the system's by default.
    package init(_ calls: any FileStoreCalls = SystemCalls()) {
        self.calls = calls
    }

    /// How many flushes were made since the last ``reset()``: files, folders and journals.
    package var flushes: Int {
        counts.withLock { $0[.sync, default: 0] + $0[.syncFolder, default: 0] + $0[.syncJournal, default: 0] }
    }

    /// How many calls of `operation` were made since the last ``reset()``.
    package func count(of operation: FileStoreOperation) -> Int {
        counts.withLock { $0[operation, default: 0] }
    }

    /// Starts counting from zero.
    package func reset() {
        counts.withLock { $0.removeAll() }
    }

    package func perform<Result: BinaryInteger>(_ operation: FileStoreOperation, _ call: () -> Result) -> Result {
        counts.withLock { $0[operation, default: 0] += 1 }
        return calls.perform(operation, call)
    }
}
