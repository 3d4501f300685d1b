import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

/// The adoption of a legacy version shows in the report's description and in the lines of
/// `UpgradeEvent.lineObserver`, once: on the launch that adopted it and stored the state.
@Suite("An adoption is logged once")
struct AdoptionLogTests {
    static let legacyKey = "localAppVersion"

    static func upgrader(_ store: any UpgradeStore, lines: Locked<[String]>) -> Upgrader {
        var upgrader = Upgrader(store: store) {
            UpgradeStep("8.8.1") {}
            UpgradeStep("9.0") {}
            UpgradeStep("9.1") {}
        }
        upgrader.observer = UpgradeEvent.lineObserver { lines.append($0) }
        return upgrader
    }

    @Test(
        "the launch that adopts says so in its description and its log lines; later launches do not",
        arguments: StoreKind.allCases.map(Optional.some) + [nil])
    func adoptionLoggedOnce(kind: StoreKind?) async throws {
        // `nil`: the defaults store adopting the key of its own suite.
        let state = try StoreFixture(kind ?? .defaults)
        let legacy = try StoreFixture(.defaults)
        let suite = kind == nil ? state.suite : legacy.suite
        UserDefaults(suiteName: suite)!.set("8.8", forKey: Self.legacyKey)
        func store() throws -> any UpgradeStore {
            if kind == nil {
                return try UserDefaultsUpgradeStore(suiteName: state.suite, legacyVersionKey: Self.legacyKey)
            }
            return try LegacyVersionAdopter(state.relaunched(), key: Self.legacyKey, suiteName: suite)
        }
        let lines = Locked<[String]>([])

        // A first launch at exactly the legacy version has nothing to do and stores nothing: no
        // adoption yet, and nothing said about one.
        let atLegacy = try await Self.upgrader(store(), lines: lines).run(currentVersion: "8.8")
        #expect(atLegacy.outcome == .upToDate)
        #expect(!atLegacy.description.contains("adopted"))
        #expect(lines.exchange([]).allSatisfy { !$0.contains("adopted") })

        let adopting = try await Self.upgrader(store(), lines: lines).run(currentVersion: "9.0")
        let notice = try #require(adopting.notices.first)
        #expect(notice.contains("adopted version 8.8 from the legacy key \"\(Self.legacyKey)\""))
        // The notice has a line of its own, after the summary (<doc:GettingStarted>, "Read the report").
        #expect(
            adopting.description == "upgraded 8.8 -> 9.0: ran appUpgradeTo_8_8_1, appUpgradeTo_9_0\n  notice: \(notice)"
        )
        let logged = lines.exchange([])
        #expect(logged.filter { $0.contains("adopted version 8.8") } == ["  notice: \(notice)"])
        #expect(
            logged.suffix(2) == [
                "launch finished: upgraded 8.8 -> 9.0: ran appUpgradeTo_8_8_1, appUpgradeTo_9_0", "  notice: \(notice)",
            ])
        #expect(logged.allSatisfy { !$0.contains { $0.isNewline } })

        for version: Version in ["9.0", "9.1"] {
            let later = try await Self.upgrader(store(), lines: lines).run(currentVersion: version)
            #expect(!later.description.contains("adopted"))
        }
        #expect(lines.value.allSatisfy { !$0.contains("adopted") })
    }
}
