import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import UpgradeStorage
import VersionKit

/// What one launch did, by run index in an ``ExplorationCatalog``: the walk's own form of a
/// ``LaunchObservation``, made into one only when a violation is reported.
struct IndexedObservation {
    var outcome: SimulatedOutcome
    /// The run indices of the steps started, in order.
    var ran: [Int]
    /// The run indices of the steps abandoned, in order.
    var abandoned: [Int]
    /// The run indices of the steps that finished, in order.
    var finished: [Int]
    var upgradedThrough: Version?

    init(
        outcome: SimulatedOutcome, ran: [Int] = [], abandoned: [Int] = [], finished: [Int] = [],
        upgradedThrough: Version?
    ) {
        self.outcome = outcome
        self.ran = ran
        self.abandoned = abandoned
        self.finished = finished
        self.upgradedThrough = upgradedThrough
    }

    /// The observation by index; ids the catalog does not know are left out.
    init(_ observation: LaunchObservation, catalog: ExplorationCatalog) {
        self.init(
            outcome: observation.outcome, ran: observation.ran.compactMap(catalog.index(of:)),
            abandoned: observation.abandoned.compactMap(catalog.index(of:)),
            finished: observation.finished.compactMap(catalog.index(of:)), upgradedThrough: observation.upgradedThrough)
    }

    /// The public observation, with step ids.
    func observation(catalog: ExplorationCatalog) -> LaunchObservation {
        LaunchObservation(
            outcome: outcome, ran: ran.map { catalog.ids[$0] }, abandoned: abandoned.map { catalog.ids[$0] },
            upgradedThrough: upgradedThrough, finished: finished.map { catalog.ids[$0] })
    }
}
