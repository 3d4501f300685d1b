// Bundle is not part of FoundationEssentials: this file alone imports the whole of Foundation.
import Foundation
import VersionKit

/// The running version from the app's bundle, for a one-line launch.
extension Upgrader {
    /// The key of the app's version in a bundle's information property list.
    static let bundleVersionKey = "CFBundleShortVersionString"

    /// Runs one launch at the version of `bundle`, as ``run(currentVersion:)`` does.
    ///
    /// The version is the bundle's `CFBundleShortVersionString`, read as ``version(of:)`` reads it:
    /// `"9.0.1"`, or a one-component `"7"` as `7.0`.
    ///
    /// ```swift
    /// let report = try await upgrader.run(bundle: .main)
    /// ```
    ///
    /// - Parameter bundle: The app's bundle, usually `Bundle.main`.
    /// - Returns: What the launch did.
    /// - Throws: ``UpgradeError`` with code ``UpgradeError/Code-swift.enum/invalidBundleVersion``,
    ///   naming the key and the bundle, when the bundle has no version or one that is not a
    ///   version (nothing is read or run then); otherwise whatever ``run(currentVersion:)`` throws.
    nonisolated(nonsending) public func run(bundle: Bundle) async throws -> UpgradeReport {
        try await run(currentVersion: Self.version(of: bundle))
    }

    /// Runs one launch at the version of `bundle` in the given role, as
    /// ``run(currentVersion:role:)`` does; an app extension passes `.main`, its own bundle, whose
    /// version is the app's.
    ///
    /// ```swift
    /// let report = try await upgrader.run(bundle: .main, role: .follower)
    /// ```
    ///
    /// - Parameters:
    ///   - bundle: The running bundle, usually `Bundle.main`.
    ///   - role: ``LaunchRole/app`` for the app's own launch, ``LaunchRole/follower`` for an extension.
    /// - Returns: What the launch did.
    /// - Throws: As ``run(bundle:)`` does for the version; otherwise whatever
    ///   ``run(currentVersion:role:)`` throws.
    nonisolated(nonsending) public func run(bundle: Bundle, role: LaunchRole) async throws -> UpgradeReport {
        try await run(currentVersion: Self.version(of: bundle), role: role)
    }

    /// Reads the app version of a bundle: its `CFBundleShortVersionString`.
    ///
    /// The value must be a version as `Version(parsing:)` reads it (two or three numbers, such as
    /// `"9.0.1"`), with one exception that this convenience alone makes: a single number, such as
    /// `"7"`, which App Store Connect accepts as a marketing version, reads as `7.0`. Everything else
    /// is an error, never a guess: `"7.0b2"`, `"1.2.3.4"`, `" 7.1"` and an empty string included.
    ///
    /// - Parameter bundle: The bundle, usually `Bundle.main`.
    /// - Returns: The version.
    /// - Throws: ``UpgradeError`` with code ``UpgradeError/Code-swift.enum/invalidBundleVersion`` naming
    ///   `CFBundleShortVersionString` and the bundle when the key is missing, is not a string, or
    ///   does not hold a version (with the parse error).
    public static func version(of bundle: Bundle) throws(UpgradeError) -> Version {
        try version(fromInfoValue: bundle.object(forInfoDictionaryKey: bundleVersionKey), bundle: bundle.bundlePath)
    }

    /// Reads a version from the value of `CFBundleShortVersionString`; the seam of ``version(of:)``.
    ///
    /// - Parameters:
    ///   - value: The value in the information property list; `nil` when the key is missing.
    ///   - bundle: The bundle's path, for the error.
    /// - Returns: The version.
    /// - Throws: ``UpgradeError`` with code ``UpgradeError/Code-swift.enum/invalidBundleVersion``.
    static func version(fromInfoValue value: Any?, bundle: String) throws(UpgradeError) -> Version {
        let place = "\(bundleVersionKey) of the bundle at \(bundle)"
        guard let value else {
            throw UpgradeError(
                code: .invalidBundleVersion,
                message: "\(place) is missing; set the app's version (MARKETING_VERSION) in its Info.plist,"
                    + " or pass it to run(currentVersion:)")
        }
        guard let text = value as? String else {
            throw UpgradeError(
                code: .invalidBundleVersion, message: "\(place) holds \(type(of: value)), not a version string")
        }
        // One number, as App Store Connect allows, reads as NUMBER.0; VersionKit itself stays strict.
        let isOneNumber = !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        do {
            return try Version(parsing: isOneNumber ? text + ".0" : text)
        } catch {
            throw UpgradeError(code: .invalidBundleVersion, message: "\(place) is not a version: \(error)")
        }
    }
}
