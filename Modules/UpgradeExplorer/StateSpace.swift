import UpgradeCore
import VersionKit

/// What a search to a fixpoint covered: the states histories reach and the launches between them.
package struct StateSpace: Sendable, Hashable {
    /// The distinct states reachable from a fresh install (the fresh install's "no state" included),
    /// summed over the policies searched.
    package let states: Int
    /// The launches simulated: one from each reachable state at each version.
    package let transitions: Int
    /// The longest of the shortest histories that reach each state, in launches, over the policies
    /// searched: the depth a bounded search would have needed to reach every state (every history
    /// beyond it only revisits states).
    package let longestShortestPath: Int

    /// Creates the figures of a search.
    ///
    /// - Parameters:
    ///   - states: The reachable states.
    ///   - transitions: The launches simulated.
    ///   - longestShortestPath: The longest shortest history to a state, in launches.
    package init(states: Int, transitions: Int, longestShortestPath: Int) {
        self.states = states
        self.transitions = transitions
        self.longestShortestPath = longestShortestPath
    }
}
