import VersionKit

extension Array where Element == Version {
    /// In versions sorted ascending, the index of the first one above `version`, by binary search
    /// (`count` when none is).
    ///
    /// - Parameter version: The version to search past.
    /// - Returns: The index of the first element `> version`.
    package func firstIndex(above version: Version) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] <= version { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
