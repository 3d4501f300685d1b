import UpgradeFixtures

/// How a fixture's steps differ from an app's registered steps: thrown by
/// ``UpgradeFixtures/Fixture/checkSteps(against:at:)``.
///
/// Its ``description`` names the fixture and lists each difference on a line of its own, such as
/// `the app registers "move-settings" (9.0), which the fixture does not list`.
public struct StepListMismatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The fixture: its file as the path was given, or its name for a fixture made in code.
    public var fixture: String
    /// The differences, one sentence each: steps only one side has, versions that differ, and steps
    /// of one version in a different order.
    public var differences: [String]

    /// Creates a mismatch.
    ///
    /// - Parameters:
    ///   - fixture: The fixture's file or name.
    ///   - differences: The differences, one sentence each.
    package init(fixture: String, differences: [String]) {
        self.fixture = fixture
        self.differences = differences
    }

    /// `FIXTURE: the steps differ from the app's:` and one line a difference.
    public var description: String {
        (["\(fixture): the steps differ from the app's:"] + differences.map { "  - " + $0 }).joined(separator: "\n")
    }
}
