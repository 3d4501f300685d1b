import Testing

@testable import UpgradeStorage

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The calls of a file store under test fail as planned: counted per operation, replaced when
/// planned again; the calls of the power-cut tests' mutation check skip the flushes asked for.
@Suite("File store calls")
struct FileFaultPlanTests {
    /// What a call through `calls` gives: `nil` when it was made, the error number when it failed.
    func take(_ calls: any FileStoreCalls, _ operation: FileStoreOperation) -> Int32? {
        calls.perform(operation) { Int32(0) } == -1 ? errno : nil
    }

    @Test("a planned fault is taken as many times as asked, for its operation only")
    func counted() {
        let calls = FaultInjectingCalls()
        calls.inject(EIO, at: .write, times: 2)
        calls.inject(ENOSPC, at: .sync, times: 1)
        #expect(take(calls, .rename) == nil)
        #expect(take(calls, .write) == EIO)
        #expect(take(calls, .sync) == ENOSPC)
        #expect(take(calls, .sync) == nil)
        #expect(take(calls, .write) == EIO)
        #expect(take(calls, .write) == nil)
    }

    @Test("planning an operation again replaces its fault, and zero times removes it")
    func replaced() {
        let calls = FaultInjectingCalls()
        calls.inject(EIO, at: .write, times: 3)
        calls.inject(ENOSPC, at: .write, times: 1)
        #expect(take(calls, .write) == ENOSPC)
        #expect(take(calls, .write) == nil)
        calls.inject(EIO, at: .rename, times: 2)
        calls.inject(EIO, at: .rename, times: 0)
        #expect(take(calls, .rename) == nil)
    }

    @Test("the mutation check's calls skip the flushes asked for, and make every other call")
    func skippedFlushes() {
        for flushes in [[], [SkippingFlushes.Flush.file], [.folder], [.file, .folder]] as [Set<SkippingFlushes.Flush>] {
            let calls = SkippingFlushes(flushes)
            for operation in FileStoreOperation.allCases {
                var made = false
                _ = calls.perform(operation) { () -> Int32 in
                    made = true
                    return 0
                }
                let skipped =
                    operation == .sync && flushes.contains(.file)
                    || operation == .syncFolder && flushes.contains(.folder)
                #expect(made == !skipped, "\(operation) with \(flushes)")
            }
        }
    }
}
