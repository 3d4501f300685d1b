import UpgradeFixtures
import VersionKit

/// One launch the explorer can make from a state: at one of its versions, plainly, with protected
/// data unavailable (`locked`), or with the background time expiring inside a step the plain launch
/// runs, after which the process is killed (<doc:ExploringToAFixpoint>, "The device's conditions").
struct ExplorationMove: Hashable, Sendable {
    /// The device's condition at the launch.
    enum Condition: Hashable, Sendable {
        /// Nothing special: the launch runs as the steps' behaviours say.
        case plain
        /// Protected data is unavailable.
        case locked
        /// The background time expires while the step at this run index (of the explorer's catalog)
        /// runs, and the process is then killed.
        case expire(Int)
    }

    /// The version's position in the explored versions.
    var position: Int
    var condition: Condition

    /// The move as one number, for the search's parent links: `position * (steps + 2) + c`, with c 0
    /// for a plain launch, 1 for a locked one, and 2 + the run index for an expiry.
    func code(steps: Int) -> Int32 {
        let kind =
            switch condition {
            case .plain: 0
            case .locked: 1
            case .expire(let index): 2 + index
            }
        return Int32(position * (steps + 2) + kind)
    }

    /// The move a number stands for (see ``code(steps:)``).
    init(code: Int32, steps: Int) {
        let code = Int(code)
        position = code / (steps + 2)
        switch code % (steps + 2) {
        case 0: condition = .plain
        case 1: condition = .locked
        case let kind: condition = .expire(kind - 2)
        }
    }

    init(position: Int, condition: Condition = .plain) {
        self.position = position
        self.condition = condition
    }

    /// The fixture's form of the condition, naming an expiring step by id.
    func launchCondition(catalog: ExplorationCatalog) -> LaunchCondition? {
        switch condition {
        case .plain: nil
        case .locked: .locked
        case .expire(let index): .expire(stepID: catalog.ids[index])
        }
    }
}
