/// Builds the list of an ``Upgrader``'s steps from a closure of ``UpgradeStep`` declarations.
@resultBuilder
public enum UpgradeStepsBuilder {
    /// Takes one step.
    public static func buildExpression(_ step: UpgradeStep) -> [UpgradeStep] { [step] }
    /// Takes a list of steps, such as one made by a helper function.
    public static func buildExpression(_ steps: [UpgradeStep]) -> [UpgradeStep] { steps }
    /// Joins the parts of a block in order.
    public static func buildBlock(_ parts: [UpgradeStep]...) -> [UpgradeStep] { parts.flatMap { $0 } }
    /// Starts a block with its first part.
    ///
    /// A block is built a part at a time (``buildPartialBlock(accumulated:next:)``), so that no list of
    /// lists is made: at the first launch of a process, the type of that list alone cost more than the
    /// rest of making an upgrader.
    public static func buildPartialBlock(first: [UpgradeStep]) -> [UpgradeStep] { first }
    /// Adds the next part of a block after the parts before it.
    public static func buildPartialBlock(accumulated: consuming [UpgradeStep], next: [UpgradeStep]) -> [UpgradeStep] {
        accumulated.append(contentsOf: next)
        return accumulated
    }
    /// Takes the steps of an `if` without `else`.
    public static func buildOptional(_ part: [UpgradeStep]?) -> [UpgradeStep] { part ?? [] }
    /// Takes the steps of the first branch of an `if`-`else`.
    public static func buildEither(first part: [UpgradeStep]) -> [UpgradeStep] { part }
    /// Takes the steps of the second branch of an `if`-`else`.
    public static func buildEither(second part: [UpgradeStep]) -> [UpgradeStep] { part }
    /// Takes the steps of a `for` loop.
    public static func buildArray(_ parts: [[UpgradeStep]]) -> [UpgradeStep] { parts.flatMap { $0 } }
    /// Takes the steps of an `if #available` block.
    public static func buildLimitedAvailability(_ part: [UpgradeStep]) -> [UpgradeStep] { part }
}
