import Foundation
import Testing
import VersionKit

@Suite("Building versions from components")
struct VersionConstructionTests {
    @Test(
        "init(major:minor:patch:) keeps the values and the component count",
        arguments: [
            (1, 2, nil, "1.2"),
            (1, 2, 0, "1.2.0"),
            (1, 2, 3, "1.2.3"),
            (0, 0, nil, "0.0"),
            (0, 0, 0, "0.0.0"),
            (2_147_483_647, 2_147_483_647, 2_147_483_647, "2147483647.2147483647.2147483647"),
        ] as [(Int, Int, Int?, String)])
    func buildsFromComponents(major: Int, minor: Int, patch: Int?, description: String) throws {
        let version = Version(major: major, minor: minor, patch: patch)
        #expect(version.major == major)
        #expect(version.minor == minor)
        #expect(version.patch == (patch ?? 0))
        #expect(version.componentCount == (patch == nil ? 2 : 3))
        #expect(version.description == description)
        #expect(version == (try Version(parsing: description)))
    }

    @Test("A two-component version reads its patch as zero")
    func missingPatchIsZero() {
        let short = Version(major: 8, minor: 8)
        #expect(short.patch == 0)
        #expect(short == Version(major: 8, minor: 8, patch: 0))
    }

    @Test("componentCount is the written number of components", arguments: ["1.2", "1.2.0", "01.02", "0.0.0"])
    func componentCount(text: String) throws {
        let version = try Version(parsing: text)
        #expect(version.componentCount == text.split(separator: ".").count)
    }

    // Exit tests run the closure in a child process, which only these platforms support.
    #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
        @Test("A malformed string literal stops the program with the parse message")
        func malformedLiteralStops() async throws {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let version: Version = "8.8.x"
                print(version)
            }
            let standardError = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
            #expect(standardError.contains(#""8.8.x": unexpected character "x" at offset 4"#))
        }

        @Test("A literal argument to Version(_:) is literal coercion, so a malformed one stops the program")
        func literalArgumentIsCoerced() async {
            // SE-0213: `Version("...")` with a literal means `"..." as Version`, not the failable init.
            await #expect(processExitsWith: .failure) { _ = Version("1..2") }
        }

        @Test("A component out of range stops init(major:minor:patch:)")
        func outOfRangeComponentStops() async {
            await #expect(processExitsWith: .failure) { print(Version(major: -1, minor: 0)) }
            await #expect(processExitsWith: .failure) { print(Version(major: 0, minor: 2_147_483_648)) }
            await #expect(processExitsWith: .failure) { print(Version(major: 0, minor: 0, patch: -1)) }
        }
    #endif
}

@Suite("Module contract")
struct VersionKitContractTests {
    /// VersionKit depends on nothing but the standard library: no source file imports anything.
    @Test("VersionKit imports nothing")
    func importsNothing() throws {
        let moduleDirectory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // VersionKitTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
            .appendingPathComponent("Modules/VersionKit")
        let files = try FileManager.default.contentsOfDirectory(atPath: moduleDirectory.path)
            .filter { $0.hasSuffix(".swift") }
        #expect(files.contains("Version.swift"))
        for file in files {
            let text = try String(contentsOf: moduleDirectory.appendingPathComponent(file), encoding: .utf8)
            let imports = text.split(separator: "\n").filter {
                $0.contains(/^\s*(@\w+(\([^)]*\))?\s+|(public|package|internal|fileprivate|private)\s+)*import\s/)
            }
            #expect(imports.isEmpty, "\(file) imports \(imports)")
        }
    }
}
