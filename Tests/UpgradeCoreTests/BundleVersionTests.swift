import Foundation
import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// `Upgrader.run(bundle:)` and `Upgrader.version(of:)`: the running version from a real bundle,
/// a temporary folder with an Info.plist, which Foundation reads on Linux as on Apple platforms.
@Suite("Running version from the bundle")
struct BundleVersionTests {
    /// A bundle whose Info.plist holds `entries`; a folder of its own each time, since Foundation
    /// keeps the bundles it has opened.
    final class TestBundle {
        let directory: TemporaryDirectory
        let bundle: Bundle

        init(_ entries: [String: Any]) throws {
            directory = try TemporaryDirectory("bundle")
            let plist = try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0)
            try plist.write(to: directory.file("Info.plist"))
            bundle = try #require(Bundle(url: directory.url))
        }

        var path: String { bundle.bundlePath }
    }

    @Test(
        "a version of two or three numbers is read as it is, and a single number N as N.0",
        arguments: [("9.0.1", "9.0.1"), ("2.1", "2.1"), ("7", "7.0"), ("12", "12.0")] as [(String, Version)])
    func wellFormed(text: String, expected: Version) throws {
        let bundle = try TestBundle(["CFBundleShortVersionString": text, "CFBundleIdentifier": "com.example.t"])
        let version = try Upgrader.version(of: bundle.bundle)
        #expect(version == expected)
        #expect(version.description == expected.description)
    }

    @Test(
        "anything else is an error naming the key, the bundle and the fault",
        arguments: ["7.0b2", "1.2.3.4", " 7.1", "", "v7", "7.", "7.x", "99999999999"])
    func malformed(text: String) throws {
        let bundle = try TestBundle(["CFBundleShortVersionString": text])
        let error = #expect(throws: UpgradeError.self) { try Upgrader.version(of: bundle.bundle) }
        #expect(error?.code == .invalidBundleVersion)
        #expect(error?.message.contains("CFBundleShortVersionString") == true)
        #expect(error?.message.contains(bundle.path) == true)
        #expect(error?.message.contains("is not a version") == true)
    }

    @Test("VersionKit itself stays strict: a single number is not a version")
    func versionKitStaysStrict() {
        #expect(throws: VersionParseError.self) { try Version(parsing: "7") }
    }

    @Test("a missing key is an error that names it")
    func missing() throws {
        let bundle = try TestBundle(["CFBundleIdentifier": "com.example.t"])
        let error = #expect(throws: UpgradeError.self) { try Upgrader.version(of: bundle.bundle) }
        #expect(error?.code == .invalidBundleVersion)
        #expect(error?.message.contains("CFBundleShortVersionString") == true)
        #expect(error?.message.contains("is missing") == true)
        #expect(error?.message.contains(bundle.path) == true)
    }

    @Test("a value that is not a string is an error that names the key")
    func notAString() throws {
        let bundle = try TestBundle(["CFBundleShortVersionString": 7])
        let error = #expect(throws: UpgradeError.self) { try Upgrader.version(of: bundle.bundle) }
        #expect(error?.code == .invalidBundleVersion)
        #expect(error?.message.contains("CFBundleShortVersionString") == true)
        #expect(error?.message.contains("not a version string") == true)
    }

    @Test("run(bundle:) runs a launch at the bundle's version")
    func runAtBundleVersion() async throws {
        let bundle = try TestBundle(["CFBundleShortVersionString": "2"])
        let journal = Journal()
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(
            store: store,
            steps: [journal.step("1.1", id: "a"), journal.step("2.0.0", id: "b"), journal.step("2.1", id: "c")])

        let report = try await upgrader.run(bundle: bundle.bundle)

        #expect(report.currentVersion == "2.0")
        #expect(report.outcome == .upgraded)
        #expect(journal.ids == ["a", "b"])
        #expect(store.state?.upgradedThrough == "2.0")
    }

    @Test("run(bundle:) with no usable version reads and runs nothing")
    func runWithoutVersion() async throws {
        let bundle = try TestBundle([:])
        let store = RecordingStore(settledState(at: "1.0"))
        let upgrader = makeUpgrader(store: store, steps: [UpgradeStep("1.1") {}])
        let error = await #expect(throws: UpgradeError.self) { _ = try await upgrader.run(bundle: bundle.bundle) }
        #expect(error?.code == .invalidBundleVersion)
        #expect(store.loadCount == 0)
        #expect(store.lockCount == 0)
    }
}
