import Foundation
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// What one launch records as its scripted steps run, and how a crash ends it.
///
/// The steps of a ``SimulatedApp`` are made once; their actions find the running launch's probe in a
/// task-local value, so that a launch costs one probe rather than a new set of steps. A probe is used
/// by one launch on one task, one step at a time.
final class LaunchProbe: @unchecked Sendable {
    @TaskLocal static var current: LaunchProbe?

    let mode: CrashMode
    let memoryStore: InMemoryUpgradeStore?
    private(set) var ran: [String] = []
    private(set) var finished: [String] = []
    private(set) var abandoned: [String] = []
    private(set) var crashed = false
    /// The step whose background time expires while it runs (an `expire` launch), if any.
    let expiring: String?
    /// Interrupts the running launch as an expiry handler does (`Upgrader.interruptLaunch()`).
    let interrupt: @Sendable () -> Bool
    /// Set when the expiry happened: the launch ends `cancelled`, its process killed.
    private(set) var expired = false
    /// Set when the expiry found no launch running (a fault of the simulation).
    private(set) var expiryMissed = false
    private let journal: Int32
    private let trace: Int32

    init(
        mode: CrashMode, memoryStore: InMemoryUpgradeStore?, expiring: String? = nil,
        interrupt: @escaping @Sendable () -> Bool = { false }
    ) throws(SimulationError) {
        self.mode = mode
        self.memoryStore = memoryStore
        self.expiring = expiring
        self.interrupt = interrupt
        if case .realProcess(let journalURL, let traceURL) = mode {
            journal = try Self.openForAppending(journalURL, what: "journal")
            do {
                trace = try Self.openForAppending(traceURL, what: "trace")
            } catch {
                if journal >= 0 { close(journal) }
                throw error
            }
        } else {
            journal = -1
            trace = -1
        }
    }

    deinit {
        if journal >= 0 { close(journal) }
        if trace >= 0 { close(trace) }
    }

    /// The engine's observer: records the steps abandoned.
    static let observe: UpgradeObserver = { event in
        // After a crash the process is dead: what the engine decides then never happened.
        if case .stepAbandoned(let id, _, _) = event, let probe = current, !probe.crashed, !probe.expired {
            probe.abandoned.append(id)
            probe.appendTrace("abandoned", attempt: 0, id: id)
        }
    }

    /// The action of a scripted step.
    static func perform(_ step: ScriptedStep, _ context: UpgradeContext) async throws {
        let result = step.behavior.result(forAttempt: context.attempt)
        guard let probe = current else {
            // Run outside a simulated launch (say, by hand): no recording, no real crash.
            switch result {
            case .ok: return
            case .fail: throw ScriptedStepError(stepID: step.id, attempt: context.attempt)
            case .crash: throw SimulatedCrashError(stepID: step.id, attempt: context.attempt)
            }
        }
        try await probe.perform(step, attempt: context.attempt, result: result)
    }

    private func perform(_ step: ScriptedStep, attempt: Int, result: AttemptResult) async throws {
        ran.append(step.id)
        appendTrace("ran", attempt: attempt, id: step.id)
        if case .realProcess = mode, let duration = step.durationMs, duration > 0 {
            try await Task.sleep(for: .milliseconds(duration))
        }
        if step.id == expiring {
            try await expire(step, attempt: attempt)
        }
        switch result {
        case .ok:
            finished.append(step.id)
            if journal >= 0 {
                Self.writeAll(journal, "\(step.id) \(attempt)\n")
                Self.flushToDisk(journal)
            }
            appendTrace("finished", attempt: attempt, id: step.id)
        case .fail:
            throw ScriptedStepError(stepID: step.id, attempt: attempt)
        case .crash:
            crashed = true
            guard case .simulated = mode else { Self.dieNow() }
            memoryStore?.simulateProcessDeath()
            throw SimulatedCrashError(stepID: step.id, attempt: attempt)
        }
    }

    /// The background time expires while the step runs: the launch is interrupted as the system's
    /// expiry handler would (it writes the attempt as interrupted and not counted, and gives the lock
    /// up, before it returns), then the process is killed, as iOS kills a suspended app: for real
    /// (`SIGKILL`, nothing more written or printed), or in memory by the store's simulated death.
    private func expire(_ step: ScriptedStep, attempt: Int) async throws {
        // The engine registers its launch as interruptible before any step runs, so the launch
        // running this step is always found.
        guard interrupt() else {
            expiryMissed = true
            if case .realProcess = mode {
                Self.writeAll(2, "upgrade-sim: the expiry of \(step.id) found no launch running\n")
                exit(3)
            }
            throw SimulationError("the expiry of \(step.id) found no launch running")
        }
        expired = true
        appendTrace("expired", attempt: attempt, id: step.id)
        guard case .simulated = mode else { Self.dieNow() }
        memoryStore?.simulateProcessDeath()
        throw CancellationError()
    }

    private func appendTrace(_ event: String, attempt: Int, id: String) {
        // A plain write reaches the kernel before the process can be killed; a crash of the
        // process, unlike one of the machine, cannot lose it, so no flush to disk is needed.
        if trace >= 0 { Self.writeAll(trace, "\(event)\t\(attempt)\t\(id)\n") }
    }

    /// Ends the process at once, as a crash would: no clean-up, no further write.
    private static func dieNow() -> Never {
        fflush(nil)
        kill(getpid(), SIGKILL)
        while true { pause() }
    }

    private static func openForAppending(_ url: URL?, what: String) throws(SimulationError) -> Int32 {
        guard let url else { return -1 }
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SimulationError("cannot open the \(what) \(url.path): \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    private static func writeAll(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }

    private static func flushToDisk(_ descriptor: Int32) {
        _ = StableStorage.flush(descriptor)  // F_FULLFSYNC on Apple platforms, as the file store flushes
    }
}
