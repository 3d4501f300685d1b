/// The failure recorded when a `Bool`-returning step action returns `false`.
public struct UpgradeStepReturnedFalse: Error, Sendable, Hashable, CustomStringConvertible {
    /// The id of the step whose action returned `false`.
    public let stepID: String

    /// Creates the failure for a step.
    ///
    /// - Parameter stepID: The id of the step whose action returned `false`.
    public init(stepID: String) { self.stepID = stepID }

    /// A sentence naming the step.
    public var description: String { "step \(stepID) returned false" }
}
