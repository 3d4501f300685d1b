#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// A system call of the file store where a test can inject a failure.
package enum FileStoreOperation: Sendable, Hashable, CaseIterable {
    /// Opening or reading the document.
    case read
    /// Creating the temporary file.
    case create
    /// Writing the temporary file.
    case write
    /// Flushing the temporary file to disk.
    case sync
    /// Renaming the temporary file over the document.
    case rename
    /// Flushing the folder after the rename.
    case syncFolder
    /// Removing the document or the history file, for `removeAll()`.
    case remove
}

/// The failures a test asked for: an error number and how many more calls fail with it.
///
/// A short list rather than a dictionary: a store made at every cold start of an app then makes no
/// dictionary for a plan that only tests fill.
struct FileFaultPlan {
    var pending: [(operation: FileStoreOperation, code: Int32, remaining: Int)] = []

    /// Plans `times` failures of `operation` with `code`, in place of any planned before; none when
    /// `times` is 0.
    mutating func plan(_ code: Int32, at operation: FileStoreOperation, times: Int) {
        pending.removeAll { $0.operation == operation }
        if times > 0 { pending.append((operation, code, times)) }
    }

    /// Takes one failure for `operation`, if any is left.
    mutating func take(_ operation: FileStoreOperation) -> Int32? {
        guard let index = pending.firstIndex(where: { $0.operation == operation }) else { return nil }
        let fault = pending[index]
        if fault.remaining > 1 {
            pending[index].remaining -= 1
        } else {
            pending.remove(at: index)
        }
        return fault.code
    }
}

extension FileUpgradeStore {
    /// Makes the next `times` calls of `operation` fail with the error number `code`, as if the
    /// system had returned it; for tests of how reads and writes fail.
    ///
    /// - Parameters:
    ///   - code: The error number, such as `EIO`.
    ///   - operation: The call that fails.
    ///   - times: How many calls fail; 1 by default.
    package func injectFault(_ code: Int32, at operation: FileStoreOperation, times: Int = 1) {
        memory.withLock { $0.faults.plan(code, at: operation, times: times) }
    }

    /// Runs a system call, unless a fault is injected for `operation`: then it returns -1 with
    /// `errno` set. Calls interrupted by a signal are made again.
    func call<Result: BinaryInteger>(_ operation: FileStoreOperation, _ body: () -> Result) -> Result {
        // No fault planned, the only case outside tests, costs one lock and no lookup.
        if let code = memory.withLock({ $0.faults.pending.isEmpty ? nil : $0.faults.take(operation) }) {
            errno = code
            return -1
        }
        return POSIX.retrying(body)
    }
}
