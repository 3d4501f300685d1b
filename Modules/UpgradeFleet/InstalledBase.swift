import Foundation
import UpgradeFixtures
import VersionKit

/// How many devices run each version of an app: the installed base a release meets.
///
/// Each row is the devices whose app last ran a version and upgraded through it. The rows are kept
/// in ascending version order, each version once, with prefix sums of their devices, so that the
/// devices below any version are found by one binary search.
///
/// Read one from a CSV file with ``load(file:)`` or `parse(_:file:)` (the format is in the
/// <doc:FleetView> article).
public struct InstalledBase: Sendable, Hashable {
    /// The file the rows were read from, as its path was given.
    package let file: String
    /// The versions, ascending, each once.
    package let versions: [Version]
    /// The devices of each version, in ``versions`` order, in units of `scale`.
    let units: [UInt64]
    /// `prefix[i]` is the sum of `units[0..<i]`; `prefix.last` is the total.
    let prefix: [UInt64]
    /// The decimal places of every count: the most any row of the file was written with.
    package let scale: Int

    /// Creates an installed base from rows already read and checked.
    ///
    /// - Parameters:
    ///   - file: The file's name.
    ///   - versions: The versions, ascending, each once.
    ///   - units: Each version's devices, times 10 to the power `scale`.
    ///   - prefix: The prefix sums of `units`, starting with 0.
    ///   - scale: The decimal places.
    init(file: String, versions: [Version], units: [UInt64], prefix: [UInt64], scale: Int) {
        self.file = file
        self.versions = versions
        self.units = units
        self.prefix = prefix
        self.scale = scale
    }

    /// The devices at `versions[index]`.
    ///
    /// - Parameter index: An index of ``versions``.
    /// - Returns: The devices whose app last ran that version.
    package func devices(at index: Int) -> DeviceCount { count(units[index]) }

    /// All the devices of the file.
    public var total: DeviceCount { count(prefix[prefix.count - 1]) }

    /// The devices at versions below `version`.
    ///
    /// - Parameter version: A version.
    /// - Returns: The sum of the devices of the rows whose version is less than `version`.
    package func devices(below version: Version) -> DeviceCount { count(units(below: version)) }

    /// The devices at versions from `low` (included) to `high` (excluded); 0 when `high <= low`.
    ///
    /// - Parameters:
    ///   - low: The lowest version counted.
    ///   - high: The first version not counted.
    /// - Returns: The sum of the devices of the rows with `low <= version < high`.
    package func devices(from low: Version, below high: Version) -> DeviceCount {
        count(units(from: low, below: high))
    }

    /// A count of this file's scale.
    func count(_ units: UInt64) -> DeviceCount { DeviceCount(units: units, scale: scale) }

    /// The units at versions below `version`.
    func units(below version: Version) -> UInt64 { prefix[index(below: version)] }

    /// The units at versions in `low..<high`; 0 when `high <= low`.
    func units(from low: Version, below high: Version) -> UInt64 {
        guard low < high else { return 0 }
        return prefix[index(below: high)] - prefix[index(below: low)]
    }

    /// The number of versions less than `version` (binary search).
    func index(below version: Version) -> Int {
        var low = 0
        var high = versions.count
        while low < high {
            let middle = (low + high) / 2
            if versions[middle] < version { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension InstalledBase {
    /// Reads an installed-base file.
    ///
    /// - Parameter file: The file's path; errors name it as given.
    /// - Returns: The installed base.
    /// - Throws: ``InstalledBaseError`` for a file that cannot be read or is not a valid installed base.
    public static func load(file: String) throws(InstalledBaseError) -> InstalledBase {
        let data: Data
        do {
            data = try InputFile.read(file, kind: "installed-base")
        } catch {
            throw InstalledBaseError(file: file, message: error.reason)
        }
        return try parse([UInt8](data), file: file)
    }
}
