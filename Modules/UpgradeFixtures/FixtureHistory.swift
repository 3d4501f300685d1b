import UpgradeCore
import VersionKit

/// The launches one device makes, from a fresh install, and what each is expected to do.
public struct FixtureHistory: Sendable, Hashable {
    /// The history's name, unique in its fixture.
    public var name: String
    /// The app version of each launch, in order; at least one.
    public var launches: [Version]
    /// One expectation per launch, or `nil` when the history only has to replay without error.
    public var expect: [LaunchExpectation]?
    /// The positions in ``launches`` (from 0) of the follower launches, written
    /// `{"version": "2.0", "follower": true}`: an app extension's launch, which reads the state and
    /// never writes it or runs a step (`LaunchRole.follower`). Empty by default.
    public var followers: Set<Int>
    /// The device's condition at some launches, by position in ``launches`` (from 0): `locked`
    /// (`{"version": "2.0", "locked": true}`) or an expiry (`{"version": "2.0", "expire": "ID"}`).
    /// Empty by default.
    public var conditions: [Int: LaunchCondition]
    /// The version the naive pattern left under the legacy key before the first launch
    /// (`"legacyVersion": "9.0.1"`), which the launches read through a `LegacyVersionAdopter`: the
    /// first launch that writes a state adopts it. `nil` (the default): the device has no legacy key.
    public var legacyVersion: Version?

    /// Creates a history.
    ///
    /// - Parameters:
    ///   - name: The history's name.
    ///   - launches: The app version of each launch.
    ///   - expect: One expectation per launch, or `nil`.
    ///   - followers: The positions in `launches` of the follower launches; none by default.
    ///   - conditions: The device's condition at some launches, by position; none by default.
    public init(
        name: String, launches: [Version], expect: [LaunchExpectation]? = nil, followers: Set<Int> = [],
        conditions: [Int: LaunchCondition] = [:]
    ) {
        self.name = name
        self.launches = launches
        self.expect = expect
        self.followers = followers
        self.conditions = conditions
    }

    /// The role of the launch at a position of ``launches``.
    ///
    /// - Parameter position: The launch's position, from 0.
    /// - Returns: `follower` for a follower launch, `app` otherwise.
    package func role(at position: Int) -> LaunchRole { followers.contains(position) ? .follower : .app }

    /// The launch at a position of ``launches`` as the fixture writes it, for reports: `2.0`,
    /// `2.0 (follower)`, `2.0 (locked)`, `2.0 (expire ID)`, `2.0 (follower, locked)`.
    ///
    /// - Parameter position: The launch's position, from 0.
    /// - Returns: The text.
    package func label(at position: Int) -> String {
        LaunchCondition.label(
            launches[position], follower: followers.contains(position), condition: conditions[position])
    }
}
