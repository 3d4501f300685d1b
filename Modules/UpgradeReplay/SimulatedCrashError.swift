import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

/// The error a scripted step throws for a `crash` attempt in simulated mode, after the store was
/// told that the process died.
package struct SimulatedCrashError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step's id.
    package var stepID: String
    /// The attempt that crashed.
    package var attempt: Int

    /// `simulated crash in ID (attempt K)`.
    package var description: String { "simulated crash in \(stepID) (attempt \(attempt))" }
}
