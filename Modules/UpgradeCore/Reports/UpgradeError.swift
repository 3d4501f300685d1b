/// An error in how the upgrader was set up or asked to act, found before any step runs.
public struct UpgradeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake it is.
    public enum Code: Sendable, Hashable {
        /// Two steps share an id.
        case duplicateStepID
        /// A step name is not a whole, well-formed `appUpgradeTo_A_B[_C]` name.
        case invalidStepName
        /// The policy is out of range, such as `giveUpAfter` below 1.
        case invalidPolicy
        /// A maintenance call named a step that is not registered.
        case unknownStep
        /// A maintenance call needs a stored state and there is none.
        case noStoredState
        /// The floor is misused: a step at or below it, or more than one floor.
        case invalidFloor
        /// The app bundle's `CFBundleShortVersionString` is missing or is not a version.
        case invalidBundleVersion
    }

    /// What kind of mistake it is.
    public let code: Code
    /// A sentence a person can act on.
    public let message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of mistake it is.
    ///   - message: A sentence a person can act on.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
