import Foundation
import StrictJSON
import UpgradeCore
import UpgradeStorage
import VersionKit

/// How a replay performs each launch.
public enum ReplayMode: Sendable, Hashable {
    /// In this process, with an `InMemoryUpgradeStore` per history and simulated crashes.
    case inMemory
    /// One child process per launch running `executable launch ...` against a state file in a
    /// temporary folder, so that crashes are real process deaths. `executable` is an `upgrade-sim`.
    /// Available on macOS and Linux; elsewhere a replay in this mode throws `SimulationError`.
    /// The launches' file stores write at `durability` (power loss, the default, or app kill).
    case processes(executable: URL, durability: FileUpgradeStore.Durability = .powerLoss)
}
