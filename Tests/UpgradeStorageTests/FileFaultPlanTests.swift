import Testing

@testable import UpgradeStorage

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The faults a test plans for a file store: counted per operation, replaced when planned again.
@Suite("File fault plan")
struct FileFaultPlanTests {
    @Test("a planned fault is taken as many times as asked, for its operation only")
    func counted() {
        var plan = FileFaultPlan()
        plan.plan(EIO, at: .write, times: 2)
        plan.plan(ENOSPC, at: .sync, times: 1)
        #expect(plan.take(.rename) == nil)
        #expect(plan.take(.write) == EIO)
        #expect(plan.take(.sync) == ENOSPC)
        #expect(plan.take(.sync) == nil)
        #expect(plan.take(.write) == EIO)
        #expect(plan.take(.write) == nil)
        #expect(plan.pending.isEmpty)
    }

    @Test("planning an operation again replaces its fault, and zero times removes it")
    func replaced() {
        var plan = FileFaultPlan()
        plan.plan(EIO, at: .write, times: 3)
        plan.plan(ENOSPC, at: .write, times: 1)
        #expect(plan.take(.write) == ENOSPC)
        #expect(plan.take(.write) == nil)
        plan.plan(EIO, at: .rename, times: 2)
        plan.plan(EIO, at: .rename, times: 0)
        #expect(plan.take(.rename) == nil)
        #expect(plan.pending.isEmpty)
    }
}
