/// How far a search to a fixpoint has come, as `Explorer.run(reporting:)` reports it now and then.
package struct ExplorationProgress: Sendable, Hashable {
    /// The level of the breadth-first search being expanded: the length of the histories whose last
    /// launch it is making (1 for the launches from a fresh install).
    package let level: Int
    /// The states found so far, over the policies searched so far.
    package let states: Int
    /// The launches simulated so far (transitions between states), over the policies searched so far.
    package let transitions: Int
    /// The policy being searched, counted from 1.
    package let policy: Int
    /// How many policies the exploration searches.
    package let policies: Int

    /// Creates a progress report.
    ///
    /// - Parameters:
    ///   - level: The level being expanded.
    ///   - states: The states found so far.
    ///   - transitions: The transitions simulated so far.
    ///   - policy: The policy being searched, from 1.
    ///   - policies: How many policies the exploration searches.
    package init(level: Int, states: Int, transitions: Int, policy: Int = 1, policies: Int = 1) {
        self.level = level
        self.states = states
        self.transitions = transitions
        self.policy = policy
        self.policies = policies
    }
}
