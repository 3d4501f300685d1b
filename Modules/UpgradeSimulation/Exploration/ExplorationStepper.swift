import UpgradeCore
import VersionKit

/// One engine's launches as both explore drivers make them (the search to a fixpoint and the bounded
/// walk, ``DepthWalk``): from a state, at a version, to the state after (attempt numbers cut off at
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

/// The standard engine: UpgradeCore's own launch, through an ``ExplorationLauncher`` per core.
struct StandardStepper: ExplorationStepper {
    let app: SimulatedApp
    let catalog: ExplorationCatalog
    let fault: PlantedFault?
    let cutoff: AttemptCutoff
    let versions: [Version]
    /// The build of each version, by its index in `versions`.
    let buildOfVersion: [Int]

    var initial: UpgradeState? { nil }
    var foldsMark: Bool { true }

    func makeWorker() -> ExplorationLauncher { ExplorationLauncher(app: app, catalog: catalog, fault: fault) }

    func launch(
        _ worker: ExplorationLauncher, from state: UpgradeState?, at position: Int,
        condition: ExplorationMove.Condition, into observation: inout IndexedObservation
    ) throws -> (next: UpgradeState?, written: UpgradeState?, wrote: Bool) {
        let written = try worker.launch(
            at: versions[position], build: buildOfVersion[position], from: state, into: &observation,
            condition: condition)
        var next = written ?? state
        if next != nil { cutoff.apply(to: &next!) }
        return (next, written, written != nil)
    }

    func appendKey(_ state: UpgradeState?, encoder: StateKeyEncoder, to words: inout [UInt32]) {
        encoder.append(state, to: &words)
    }

    func mark(of state: UpgradeState?) -> Version? { state?.upgradedThrough }

    func problems(
        written: UpgradeState?, from state: UpgradeState?, at version: Version, crashed: Bool, checkEncoding: Bool
    ) -> [(Guarantee, String)] {
        FixpointSearch.stateProblems(
            written: written, from: state, at: version, crashed: crashed, checkEncoding: checkEncoding)
    }
}

/// The naive engine (``NaiveUpgrader``): a pure function of its state, so a core needs nothing of its own.
struct NaiveStepper: ExplorationStepper {
    let naive: NaiveUpgrader
    let catalog: ExplorationCatalog
    let cutoff: AttemptCutoff
    let versions: [Version]
    /// The naive upgrader's declaration index of each step, by run index.
    let naiveIndex: [Int]

    init(naive: NaiveUpgrader, catalog: ExplorationCatalog, cutoff: AttemptCutoff, versions: [Version]) {
        self.naive = naive
        self.catalog = catalog
        self.cutoff = cutoff
        self.versions = versions
        naiveIndex = catalog.ids.map { id in naive.steps.firstIndex { $0.id == id } ?? -1 }
    }

    var initial: NaiveUpgrader.State { .initial(stepCount: naive.steps.count) }
    var foldsMark: Bool { false }

    func makeWorker() {}

    func launch(
        _ worker: Void, from state: NaiveUpgrader.State, at position: Int, condition: ExplorationMove.Condition,
        into observation: inout IndexedObservation
    ) -> (next: NaiveUpgrader.State, written: UpgradeState?, wrote: Bool) {
        var expiring = -1
        if case .expire(let index) = condition { expiring = naiveIndex[index] }
        var (launch, next) = naive.launch(
            at: versions[position], from: state, locked: condition == .locked, expiring: expiring)
        observation = IndexedObservation(launch, catalog: catalog)
        let wrote = next.storedVersion != state.storedVersion
        cutoff.apply(to: &next)
        return (next, nil, wrote)
    }

    func appendKey(_ state: NaiveUpgrader.State, encoder: StateKeyEncoder, to words: inout [UInt32]) {
        encoder.append(state, to: &words)
    }

    func mark(of state: NaiveUpgrader.State) -> Version? { nil }

    func problems(
        written: UpgradeState?, from state: NaiveUpgrader.State, at version: Version, crashed: Bool,
        checkEncoding: Bool
    ) -> [(Guarantee, String)] { [] }
}
