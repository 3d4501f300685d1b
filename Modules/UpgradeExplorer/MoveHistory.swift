import UpgradeFixtures
import VersionKit

/// A history of moves as the reports want it: the versions, and the conditions by position.
struct MoveHistory {
    var launches: [Version]
    var conditions: [Int: LaunchCondition]

    init(_ moves: [ExplorationMove], versions: [Version], catalog: ExplorationCatalog) {
        launches = moves.map { versions[$0.position] }
        var conditions: [Int: LaunchCondition] = [:]
        for (index, move) in moves.enumerated() {
            if let condition = move.launchCondition(catalog: catalog) { conditions[index] = condition }
        }
        self.conditions = conditions
    }
}
