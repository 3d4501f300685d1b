import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// What only the defaults store does: suites, stored types, adopting the naive pattern's key.
@Suite("UserDefaults store")
struct DefaultsStoreTests {
    static let legacyKey = "localAppVersion"

    @Test("a suite that cannot be used is refused", arguments: ["", "NSGlobalDomain"])
    func unusableSuite(name: String) {
        let error = #expect(throws: UpgradeStoreError.self) { _ = try UserDefaultsUpgradeStore(suiteName: name) }
        #expect(error?.code == .unsafeLocation)
    }

    @Test("a document stored as data reads as well as one stored as a string")
    func documentAsData() throws {
        let fixture = try StoreFixture(.defaults)
        UserDefaults(suiteName: fixture.suite)!.set(
            StateDocument.encode(richState), forKey: StoreFixture.defaultsKey)
        #expect(try fixture.store().load() == richState)
    }

    @Test("a value of another type under the key is an error naming the suite and key")
    func valueOfAnotherType() throws {
        let fixture = try StoreFixture(.defaults)
        UserDefaults(suiteName: fixture.suite)!.set(42, forKey: StoreFixture.defaultsKey)
        let store = try fixture.store()
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .corrupt)
        #expect(error?.description.contains(fixture.suite) == true)
        #expect(error?.description.contains(StoreFixture.defaultsKey) == true)
        #expect(throws: UpgradeStoreError.self) { try store.save(richState) }
        #expect(UserDefaults(suiteName: fixture.suite)!.integer(forKey: StoreFixture.defaultsKey) == 42)
    }

    @Test("a custom key keeps the document apart from the default key")
    func customKey() throws {
        let fixture = try StoreFixture(.defaults)
        let store = try UserDefaultsUpgradeStore(suiteName: fixture.suite, key: "custom.state")
        try store.save(richState)
        #expect(try UserDefaultsUpgradeStore(suiteName: fixture.suite, key: "custom.state").load() == richState)
        #expect(try fixture.store().load() == nil)
    }

    @Test("the naive pattern's version is adopted as upgradeFrom while no state is stored")
    func legacyAdoption() async throws {
        let fixture = try StoreFixture(.defaults)
        let defaults = UserDefaults(suiteName: fixture.suite)!
        defaults.set("8.8", forKey: Self.legacyKey)
        let store = try UserDefaultsUpgradeStore(suiteName: fixture.suite, legacyVersionKey: Self.legacyKey)
        #expect(try store.load() == UpgradeState(upgradedThrough: "8.8", lastLaunched: "8.8"))
        let (state, notice) = try store.loadForLaunch()
        #expect(state?.upgradedThrough == "8.8")
        #expect(notice?.contains(Self.legacyKey) == true)
        #expect(notice?.contains("8.8") == true)

        let upgrader = Upgrader(store: store) {
            UpgradeStep("8.7") {}
            UpgradeStep("8.8.0") {}  // equal to 8.8: already done by the naive pattern
            UpgradeStep("8.8.1") {}
            UpgradeStep("9.0") {}
            UpgradeStep("9.1") {}
        }
        let report = try await upgrader.run(currentVersion: "9.0")
        #expect(report.outcome == .upgraded)
        #expect(report.ranStepIDs == ["appUpgradeTo_8_8_1", "appUpgradeTo_9_0"])
        #expect(report.notices == [notice!])
        #expect(try store.load()?.upgradedThrough == "9.0")

        // Once a state is stored the legacy key is no longer read, and it was left as it was.
        defaults.set("1.0", forKey: Self.legacyKey)
        #expect(try store.loadForLaunch().notice == nil)
        #expect(try store.load()?.upgradedThrough == "9.0")
        #expect(defaults.string(forKey: Self.legacyKey) == "1.0")
    }

    @Test(
        "a malformed legacy version is an error naming the key and the problem, never 0",
        arguments: ["8.8.x", "", "v1.2", "1", "1.2.3.4", " 1.2"])
    func malformedLegacyVersion(text: String) async throws {
        let fixture = try StoreFixture(.defaults)
        UserDefaults(suiteName: fixture.suite)!.set(text, forKey: Self.legacyKey)
        let store = try UserDefaultsUpgradeStore(suiteName: fixture.suite, legacyVersionKey: Self.legacyKey)
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .corrupt)
        #expect(error?.description.contains(Self.legacyKey) == true)
        let parseError = #expect(throws: VersionParseError.self) { try Version(parsing: text) }
        #expect(error?.description.contains(parseError?.description ?? "?") == true)
        let ran = Locked(0)
        let upgrader = Upgrader(store: store) { UpgradeStep("0.1") { ran.increment() } }
        await #expect(throws: UpgradeStoreError.self) { _ = try await upgrader.run(currentVersion: "0.1") }
        #expect(ran.value == 0)
        #expect(UserDefaults(suiteName: fixture.suite)!.object(forKey: StoreFixture.defaultsKey) == nil)
    }

    @Test("a legacy value that is not a string is an error")
    func legacyOfAnotherType() throws {
        let fixture = try StoreFixture(.defaults)
        UserDefaults(suiteName: fixture.suite)!.set(3, forKey: Self.legacyKey)
        let store = try UserDefaultsUpgradeStore(suiteName: fixture.suite, legacyVersionKey: Self.legacyKey)
        let error = #expect(throws: UpgradeStoreError.self) { try store.load() }
        #expect(error?.code == .corrupt)
        #expect(error?.description.contains(Self.legacyKey) == true)
    }

    @Test("the legacy key may live in another suite, such as the one the naive pattern wrote to")
    func legacyInAnotherSuite() async throws {
        let fixture = try StoreFixture(.defaults)
        let legacySuite = try StoreFixture(.defaults)
        UserDefaults(suiteName: legacySuite.suite)!.set("8.8", forKey: Self.legacyKey)
        let store = try UserDefaultsUpgradeStore(
            suiteName: fixture.suite, legacyVersionKey: Self.legacyKey, legacyDefaults: .suite(legacySuite.suite))
        #expect(try store.load() == UpgradeState(upgradedThrough: "8.8", lastLaunched: "8.8"))
        let (_, notice) = try store.loadForLaunch()
        #expect(notice?.contains(legacySuite.suite) == true)
        // The store's own suite holds no legacy key: with the default source nothing is adopted.
        #expect(try UserDefaultsUpgradeStore(suiteName: fixture.suite, legacyVersionKey: Self.legacyKey).load() == nil)
    }

    @Test("without a legacy key configured, nothing is adopted")
    func noLegacyKey() throws {
        let fixture = try StoreFixture(.defaults)
        UserDefaults(suiteName: fixture.suite)!.set("8.8", forKey: Self.legacyKey)
        #expect(try fixture.store().load() == nil)
    }

    @Test("store objects on the same suite and key share one lock in the process")
    func sharedLock() async throws {
        let fixture = try StoreFixture(.defaults)
        let lock = try await fixture.store().lockForLaunch()
        let other = try UserDefaultsUpgradeStore(suiteName: fixture.suite, key: "other.key", lockTimeout: .zero)
        try await other.lockForLaunch().unlock()
        await #expect(throws: UpgradeStoreError.self) {
            _ = try await fixture.store(lockTimeout: .zero).lockForLaunch()
        }
        lock.unlock()
    }

    #if os(Linux)
        /// Where Foundation on Linux keeps a suite: `SUITE.plist` under `$XDG_CONFIG_HOME`, or
        /// `~/.config` without it.
        static func suiteFile(_ suite: String) -> URL {
            let environment = ProcessInfo.processInfo.environment
            let configuration =
                environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".config")
            return configuration.appendingPathComponent(suite + ".plist")
        }

        @Test(
            "a damaged or truncated defaults file reads as empty: a fresh install, so runAll runs every step again",
            arguments: ["garbage", "truncated"])
        func lostStateIsAFreshInstall(damage: String) async throws {
            let fixture = try StoreFixture(.defaults)
            let file = Self.suiteFile(fixture.suite)
            defer { try? FileManager.default.removeItem(at: file) }
            let ran = Locked(0)
            let upgrader = { (store: any UpgradeStore) in
                Upgrader(store: store, policy: UpgradePolicy(freshInstall: .runAll)) {
                    UpgradeStep("1.0") { ran.increment() }
                    UpgradeStep("1.1") { ran.increment() }
                    UpgradeStep("1.2") { ran.increment() }
                }
            }
            let first = try await upgrader(fixture.store()).run(currentVersion: "1.2")
            #expect(first.outcome == .upgraded)
            #expect(ran.value == 3)

            // Foundation's file for the suite, damaged as a full disk or a crash mid-write leaves it.
            let bytes = try Data(contentsOf: file)
            #expect(String(decoding: bytes, as: UTF8.self).contains(StoreFixture.defaultsKey))
            let damaged = damage == "garbage" ? Data("not a property list".utf8) : bytes.prefix(bytes.count / 2)
            try damaged.write(to: file)
            // Foundation reloads a suite whose file changed after it last read it; a new process would
            // read it afresh.
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: file.path)
            UserDefaults(suiteName: fixture.suite)!.synchronize()

            // No error anywhere: the store sees nothing stored, as after a fresh install.
            let store = try fixture.store()
            #expect(try store.load() == nil)
            #expect(try store.history().isEmpty)
            let second = try await upgrader(store).run(currentVersion: "1.2")
            #expect(second.outcome == .upgraded)
            #expect(second.previousVersion == nil)
            #expect(second.ranStepIDs == ["appUpgradeTo_1_0", "appUpgradeTo_1_1", "appUpgradeTo_1_2"])
            #expect(ran.value == 6)
        }
    #endif
}
