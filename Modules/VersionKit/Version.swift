/// An app version of two or three numeric components, such as `1.2` or `8.8.8`.
///
/// A version is read from text with ``init(parsing:)``, which accepts exactly two or three
/// components of ASCII digits separated by `.`, each at most 2,147,483,647. Leading zeros are read by
/// value, so `1.02` is `1.2`.
///
/// Versions compare component by component. A missing third component counts as zero, so `8.8` and
/// `8.8.0` are equal and hash alike; the ``description`` still keeps the number of components that was
/// written, without leading zeros.
///
/// ```swift
/// let installed = try Version(parsing: "8.8")
/// installed == "8.8.0"          // true
/// installed < "8.10"            // true: numeric, not textual
/// installed.stepName            // "appUpgradeTo_8_8"
/// ```
public struct Version: Sendable {
    let storedMajor: UInt32
    let storedMinor: UInt32
    let storedPatch: UInt32
    let storedComponentCount: UInt8

    /// The largest value a component may have: 2,147,483,647.
    public static let maximumComponentValue = Int(Int32.max)

    /// The first component.
    public var major: Int { Int(storedMajor) }

    /// The second component.
    public var minor: Int { Int(storedMinor) }

    /// The third component, or zero when the version was written with two components.
    public var patch: Int { Int(storedPatch) }

    /// How many components the version was written with: 2 or 3.
    ///
    /// The count shapes ``description`` and ``stepName`` but not equality or order.
    public var componentCount: Int { Int(storedComponentCount) }

    /// Creates a version from its components.
    ///
    /// - Parameters:
    ///   - major: The first component, from 0 to ``maximumComponentValue``.
    ///   - minor: The second component, from 0 to ``maximumComponentValue``.
    ///   - patch: The third component, from 0 to ``maximumComponentValue``, or `nil` for a
    ///     two-component version.
    /// - Precondition: Every component lies in `0...maximumComponentValue`. To build a version from
    ///   untrusted text, use ``init(parsing:)``, which reports a bad value as an error instead.
    public init(major: Int, minor: Int, patch: Int? = nil) {
        let range = 0...Version.maximumComponentValue
        precondition(range.contains(major), "Version major component \(major) is outside \(range)")
        precondition(range.contains(minor), "Version minor component \(minor) is outside \(range)")
        precondition(patch.map(range.contains) ?? true, "Version patch component \(patch!) is outside \(range)")
        self.init(
            uncheckedMajor: UInt32(major), minor: UInt32(minor), patch: UInt32(patch ?? 0),
            componentCount: patch == nil ? 2 : 3)
    }

    init(uncheckedMajor major: UInt32, minor: UInt32, patch: UInt32, componentCount: UInt8) {
        storedMajor = major
        storedMinor = minor
        storedPatch = patch
        storedComponentCount = componentCount
    }
}

extension Version: Hashable {
    /// Whether two versions have the same value; `8.8 == 8.8.0`.
    public static func == (lhs: Version, rhs: Version) -> Bool {
        lhs.storedMajor == rhs.storedMajor && lhs.storedMinor == rhs.storedMinor && lhs.storedPatch == rhs.storedPatch
    }

    /// Hashes the value of the version, so that `8.8` and `8.8.0` hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storedMajor)
        hasher.combine(storedMinor)
        hasher.combine(storedPatch)
    }
}

extension Version: Comparable {
    /// Whether `lhs` comes before `rhs`, comparing the components numerically from the first.
    public static func < (lhs: Version, rhs: Version) -> Bool {
        if lhs.storedMajor != rhs.storedMajor { return lhs.storedMajor < rhs.storedMajor }
        if lhs.storedMinor != rhs.storedMinor { return lhs.storedMinor < rhs.storedMinor }
        return lhs.storedPatch < rhs.storedPatch
    }
}

extension Version: CustomStringConvertible {
    /// The canonical text: the written number of components, without leading zeros (`1.02` prints `1.2`).
    public var description: String {
        storedComponentCount == 3
            ? "\(storedMajor).\(storedMinor).\(storedPatch)"
            : "\(storedMajor).\(storedMinor)"
    }
}
