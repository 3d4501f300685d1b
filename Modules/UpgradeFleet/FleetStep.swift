import VersionKit

/// A step in a ``FleetReport``: the devices it concerns and their share of all devices.
public struct FleetStep: Sendable, Hashable {
    /// The step's id.
    public var id: String
    /// The step's version.
    public var version: Version
    /// Whether the step is the floor of the release's build.
    public var isFloor: Bool
    /// The devices: those that run it (``FleetReport/steps``) or never will (lost, late).
    public var devices: DeviceCount
    /// ``devices`` as a fraction of all devices, from 0 to 1.
    public var share: Double

    /// ``share`` as the text and Markdown forms write it: a percentage to 2 decimal places
    /// (`9.62%`, `<0.01%` for a share above 0 that rounds to 0).
    package var shareText: String { FleetNumbers.tableShare(share) }

    /// Creates a step's line of the report.
    ///
    /// - Parameters:
    ///   - id: The step's id.
    ///   - version: The step's version.
    ///   - isFloor: Whether it is the floor.
    ///   - devices: The devices it concerns.
    ///   - share: Their share of all devices.
    package init(id: String, version: Version, isFloor: Bool, devices: DeviceCount, share: Double) {
        self.id = id
        self.version = version
        self.isFloor = isFloor
        self.devices = devices
        self.share = share
    }
}
