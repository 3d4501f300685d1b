import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

/// How a scripted crash ends a launch.
package enum CrashMode: Sendable, Hashable {
    /// In memory: the crashing action calls `InMemoryUpgradeStore.simulateProcessDeath()` on the
    /// launch's store and throws, so the engine's next write fails and the stored state stays exactly
    /// as the process left it. The store must be an `InMemoryUpgradeStore`. `durationMs` is ignored.
    case simulated
    /// In a real process: the crashing action flushes standard output and sends `SIGKILL` to its own
    /// process, which ends at once. Each action first sleeps for its step's `durationMs`.
    ///
    /// With a `journal`, each step that finishes appends the line `ID ATTEMPT` to that file and
    /// flushes it to disk before the step returns. With a `trace` (used by `run --processes` to see
    /// inside a launch that dies), each step appends `ran ATTEMPT ID` when it starts and
    /// `finished ATTEMPT ID` when it finishes, each abandoned step `abandoned 0 ID`, and a step whose
    /// background time expired `expired ATTEMPT ID` before the process is killed, tab-separated.
    case realProcess(journal: URL? = nil, trace: URL? = nil)
}
