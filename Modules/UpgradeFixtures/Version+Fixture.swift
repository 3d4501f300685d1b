import UpgradeCore
import VersionKit

extension Version {
    /// The default id of a floor at this version: `upgradeFloor_` and the canonical text with `_` for
    /// `.`, such as `upgradeFloor_2_0`.
    var floorID: String {
        "upgradeFloor_\(major)_\(minor)" + (componentCount == 3 ? "_\(patch)" : "")
    }

    /// The version just above this one, where a build that ends at this version is followed: the next
    /// patch (`2.0` is followed by `2.0.1`); `nil` at the top of the range.
    var successor: Version? {
        if patch < Version.maximumComponentValue { return Version(major: major, minor: minor, patch: patch + 1) }
        if minor < Version.maximumComponentValue { return Version(major: major, minor: minor + 1, patch: 0) }
        if major < Version.maximumComponentValue { return Version(major: major + 1, minor: 0, patch: 0) }
        return nil
    }
}
