import UpgradeCore
import UpgradeFixtures
import VersionKit

extension Violation {
    /// The history as a fixture that `upgrade-sim run` reads: the steps and policy explored, one
    /// history with these launches, and what each launch did as its expectations.
    ///
    /// Replayed with `run`, a history of the standard engine matches exactly; one found with the naive
    /// engine shows, as mismatches, where the standard engine does otherwise.
    ///
    /// - Parameters:
    ///   - fixture: The fixture explored.
    ///   - engine: The engine that produced the history.
    /// - Returns: The fixture.
    public func fixture(from fixture: Fixture, engine: ExplorationOptions.Engine) -> Fixture {
        let launchList = historyText
        let summary =
            "Found by upgrade-sim explore (\(engine) engine): \(guarantee) — broken at launch \(launches.count):"
            + " \(detail). The expectations are what the \(engine) engine did."
        return Fixture(
            name: "\(fixture.name)-\(guarantee.rawValue)", summary: summary, policy: policy, steps: fixture.steps,
            floor: fixture.floor,
            histories: [
                FixtureHistory(
                    name: launchList, launches: launches, expect: observations.map(LaunchExpectation.init(exactly:)),
                    conditions: conditions)
            ])
    }
}
