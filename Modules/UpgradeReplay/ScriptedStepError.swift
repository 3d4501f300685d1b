import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

/// The failure a scripted step throws for a `fail` attempt.
package struct ScriptedStepError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step's id.
    package var stepID: String
    /// The attempt that failed.
    package var attempt: Int

    /// `scripted failure of ID (attempt K)`.
    package var description: String { "scripted failure of \(stepID) (attempt \(attempt))" }
}
