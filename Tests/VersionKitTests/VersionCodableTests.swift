import Foundation
import Testing
import VersionKit

@Suite("Codable as a JSON string")
struct VersionCodableTests {
    private struct Record: Codable, Equatable {
        var from: Version
        var to: Version?
    }

    private func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    @Test(
        "A version encodes as its canonical text",
        arguments: [
            ("1.2", #""1.2""#),
            ("1.2.3", #""1.2.3""#),
            ("8.8.0", #""8.8.0""#),
            ("01.02", #""1.2""#),
            ("2147483647.0.1", #""2147483647.0.1""#),
        ])
    func encodesAsString(versionText: String, encoded: String) throws {
        let version = try Version(parsing: versionText)
        #expect(try json(version) == encoded)
    }

    @Test(
        "A version round-trips through JSON, keeping its component count",
        arguments: ["0.0", "1.2", "1.2.0", "8.8", "8.8.0", "10.20.30", "2147483647.2147483647.2147483647"])
    func roundTrips(versionText: String) throws {
        let version = try Version(parsing: versionText)
        let decoded = try decode(Version.self, from: try json(version))
        #expect(decoded == version)
        #expect(decoded.componentCount == version.componentCount)
        #expect(decoded.description == version.description)
    }

    @Test("Versions nest inside other Codable values")
    func nested() throws {
        let record = Record(from: try Version(parsing: "8.8"), to: try Version(parsing: "8.10.1"))
        let text = try json(record)
        #expect(text == #"{"from":"8.8","to":"8.10.1"}"#)
        #expect(try decode(Record.self, from: text) == record)
        #expect(try decode([Version].self, from: #"["1.2","01.2.0"]"#).map(\.description) == ["1.2", "1.2.0"])
    }

    @Test(
        "A malformed string is dataCorrupted carrying the parse message",
        arguments: ["1..2", "", "v1.2", "1", "1.2.3.4", "2147483648.0", " 1.2", "١.٢", "appUpgradeTo_1_2"])
    func badStringIsDataCorrupted(text: String) throws {
        let parseError = try #require(throws: VersionParseError.self) { try Version(parsing: text) }
        let literal = String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
        let error = try #require(throws: DecodingError.self) { try decode(Version.self, from: literal) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.debugDescription == parseError.description)
        #expect(context.codingPath.isEmpty)
    }

    @Test("The exact message of a malformed string reaches the decoding error")
    func documentedMessage() throws {
        let error = try #require(throws: DecodingError.self) { try decode(Version.self, from: #""1..2""#) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.debugDescription == #""1..2": empty component at offset 2"#)
    }

    @Test("A malformed nested string reports where it is")
    func nestedBadString() throws {
        let error = try #require(throws: DecodingError.self) {
            try decode(Record.self, from: #"{"from":"1.2","to":"1.2-beta"}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["to"])
        #expect(context.debugDescription.hasPrefix(#""1.2-beta": unexpected character "-" at offset 3"#))
    }

    @Test(
        "A value that is not a string is a DecodingError",
        arguments: ["1.2", "12", "null", "true", "[1, 2]", #"{"major": 1, "minor": 2}"#, #"["1.2"]"#])
    func nonStringIsDecodingError(literal: String) {
        #expect(throws: DecodingError.self) { try decode(Version.self, from: literal) }
    }

    @Test("A number where a version belongs is a type mismatch")
    func numberIsTypeMismatch() throws {
        let error = try #require(throws: DecodingError.self) { try decode(Version.self, from: "1.2") }
        guard case .typeMismatch = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
    }
}
