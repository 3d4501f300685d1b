import VersionKit

/// A condition of the device that a fixture's launch meets (<doc:/UpgradeCore/LaunchAlgorithm>, "Protected data"
/// and "Interruptions"): written `{"version": "2.0", "locked": true}` or `{"version": "2.0", "expire": "ID"}`.
public enum LaunchCondition: Sendable, Hashable, CustomStringConvertible {
    /// Protected data is unavailable (the device has not been unlocked since it restarted): the launch
    /// decides nothing, runs nothing and writes nothing, and ends `deferred`.
    case locked
    /// The background time expires while step `stepID` runs, and the process is then killed, as iOS
    /// kills a suspended app: the launch ends `cancelled`, its `ran` ends with the step, and the
    /// attempt is counted neither now nor later.
    case expire(stepID: String)

    /// `locked`, or `expire ID`.
    public var description: String {
        switch self {
        case .locked: "locked"
        case .expire(let stepID): "expire \(stepID)"
        }
    }
}

extension LaunchCondition {
    /// A launch as reports write it: `2.0`, `2.0 (follower)`, `2.0 (locked)`, `2.0 (expire ID)`.
    static func label(_ version: Version, follower: Bool = false, condition: LaunchCondition?) -> String {
        let parts = (follower ? ["follower"] : []) + (condition.map { [$0.description] } ?? [])
        return parts.isEmpty ? version.description : "\(version) (\(parts.joined(separator: ", ")))"
    }

    /// Launches as reports write a history: `1.0 -> 2.0 (locked) -> 2.0`.
    package static func history(_ launches: [Version], conditions: [Int: LaunchCondition]) -> String {
        launches.indices.map { label(launches[$0], condition: conditions[$0]) }.joined(separator: " -> ")
    }
}
