import UpgradeCore
import VersionKit

/// One engine's launches as both explore drivers make them (the search to a fixpoint and the bounded
/// walk, `DepthWalk`): from a state, at a version, to the state after (attempt numbers cut off at
/// the stepper's ``AttemptCutoff``; the bounded walk cuts nothing off), with the state's key and its
/// checks.
protocol ExplorationStepper: Sendable {
    /// What the engine stores between launches.
    associatedtype State: Sendable
    /// What one core needs of its own to launch (the standard engine's launcher keeps buffers).
    associatedtype Worker

    /// The state of a fresh install.
    var initial: State { get }
    /// Whether the key holds the stored state's mark, which the checker's key then folds its own into.
    var foldsMark: Bool { get }

    func makeWorker() -> Worker

    /// Launches at `versions[position]` from `state`, under a device condition.
    ///
    /// - Returns: The state after the launch, attempt numbers cut off; the state the launch wrote
    ///   (`nil` when it wrote none, or the engine writes nothing the checks read); and whether it
    ///   changed what the engine stores.
    func launch(
        _ worker: Worker, from state: State, at position: Int, condition: ExplorationMove.Condition,
        into observation: inout IndexedObservation
    ) throws -> (next: State, written: UpgradeState?, wrote: Bool)

    /// Appends the stored state's part of the key.
    func appendKey(_ state: State, encoder: StateKeyEncoder, to words: inout [UInt32])

    /// The mark of a state, as the key holds it (read only when ``foldsMark``).
    func mark(of state: State) -> Version?

    /// The rules of the state that the launch from `state` at `version`, which wrote `written`, breaks.
    func problems(written: UpgradeState?, from state: State, at version: Version, crashed: Bool, checkEncoding: Bool)
        -> [(Guarantee, String)]
}
