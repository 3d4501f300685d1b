import UpgradeCore
import VersionKit

/// The naive engine (`NaiveUpgrader`): a pure function of its state, so a core needs nothing of its own.
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
