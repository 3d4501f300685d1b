import UpgradeCore
import UpgradeReplay
import VersionKit

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
