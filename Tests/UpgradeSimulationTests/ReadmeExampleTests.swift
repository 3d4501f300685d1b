import Foundation
import Testing

@testable import UpgradeFixtures

/// Keeps the README true: its example fixture reads and every expectation in it holds.
@Suite("README example")
struct ReadmeExampleTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    @Test("the fixture in the README replays with every expectation held")
    func readmeFixture() async throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: "```json\n"))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        let fixture = try FixtureLoader.decode(String(text[start.upperBound..<end.lowerBound]), file: "README.md")
        let result = try await fixture.replay()
        #expect(result.histories.allSatisfy { $0.mismatches.isEmpty }, "\(result.histories.flatMap(\.mismatches))")
        #expect(result.histories.first?.launches.count == 4)
    }
}
