import StrictJSON
import UpgradeCore
import VersionKit

/// A simulation could not be carried out: an unusable combination of arguments, a launch process
/// that did not behave, a store that could not be read.
package struct SimulationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, in words a person can act on.
    package var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What went wrong.
    package init(_ message: String) { self.message = message }

    /// The message.
    package var description: String { message }
}
