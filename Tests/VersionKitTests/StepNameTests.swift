import Testing
import VersionKit

/// A name that is not a step name and the error it must raise.
struct InvalidStepNameCase: Sendable, CustomTestStringConvertible {
    var name: String
    var reason: VersionParseError.Reason
    var offset: Int

    var testDescription: String {
        name.count > 40 ? "\"\(name.prefix(32))…\" (\(name.count) characters)" : "\"\(name)\""
    }
}

@Suite("Step names")
struct StepNameTests {
    static let validNames: [(name: String, version: String)] = [
        ("appUpgradeTo_1_2", "1.2"),
        ("appUpgradeTo_1_2_3", "1.2.3"),
        ("appUpgradeTo_8_8_0", "8.8.0"),
        ("appUpgradeTo_0_0", "0.0"),
        ("APPUPGRADETO_1_2", "1.2"),
        ("appupgradeto_1_2", "1.2"),
        ("AppUpgradeTo_8_8_8", "8.8.8"),
        ("aPpUpGrAdEtO_10_20_30", "10.20.30"),
        ("appUpgradeTo_01_02", "1.2"),
        ("appUpgradeTo_1_2_00", "1.2.0"),
        ("appUpgradeTo_2147483647_2147483647_2147483647", "2147483647.2147483647.2147483647"),
    ]

    static let invalidNames: [InvalidStepNameCase] = [
        .init(name: "", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "1.2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "appUpgradeTo", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "xappUpgradeTo_1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: " appUpgradeTo_1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "_appUpgradeTo_1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "appUpgradeTo-1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "appUpgradeTo 1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "appUpgradeFrom_1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "upgradeTo_1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "appUpgradeTx_1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "appＵpgradeTo_1_2", reason: .missingStepNamePrefix, offset: 0),
        .init(name: "appUpgradeTo_", reason: .tooFewComponents(0), offset: 13),
        .init(name: "appUpgradeTo_1", reason: .tooFewComponents(1), offset: 13),
        .init(name: "appUpgradeTo_1_2_3_4", reason: .tooManyComponents, offset: 18),
        .init(name: "appUpgradeTo_1_2_3_", reason: .tooManyComponents, offset: 18),
        .init(name: "appUpgradeTo__1_2", reason: .emptyComponent, offset: 13),
        .init(name: "appUpgradeTo_1__2", reason: .emptyComponent, offset: 15),
        .init(name: "appUpgradeTo_1_2_", reason: .emptyComponent, offset: 17),
        .init(name: "appUpgradeTo_1_", reason: .emptyComponent, offset: 15),
        .init(name: "appUpgradeTo_1_2 ", reason: .unexpectedCharacter(" "), offset: 16),
        .init(name: "appUpgradeTo_1_2\n", reason: .unexpectedCharacter("\n"), offset: 16),
        .init(name: "appUpgradeTo_1.2", reason: .unexpectedCharacter("."), offset: 14),
        .init(name: "appUpgradeTo_1_2.3", reason: .unexpectedCharacter("."), offset: 16),
        .init(name: "appUpgradeTo_v1_2", reason: .unexpectedCharacter("v"), offset: 13),
        .init(name: "appUpgradeTo_1_2()", reason: .unexpectedCharacter("("), offset: 16),
        .init(name: "appUpgradeTo_1_2x", reason: .unexpectedCharacter("x"), offset: 16),
        .init(name: "appUpgradeTo_1_-2", reason: .unexpectedCharacter("-"), offset: 15),
        .init(name: "appUpgradeTo_١_٢", reason: .unexpectedCharacter("١"), offset: 13),
        .init(name: "appUpgradeTo_2147483648_0", reason: .componentTooLarge, offset: 13),
        .init(name: "appUpgradeTo_1_2_2147483648", reason: .componentTooLarge, offset: 17),
        .init(
            name: "appUpgradeTo_" + Array(repeating: "1", count: 5_000).joined(separator: "_"),
            reason: .tooManyComponents, offset: 18),
        .init(
            name: "appUpgradeTo_" + String(repeating: "9", count: 10_000) + "_1",
            reason: .componentTooLarge, offset: 13),
    ]

    @Test("Whole, well-formed step names read as versions", arguments: validNames)
    func readsStepNames(name: String, versionText: String) throws {
        let expected = try Version(parsing: versionText)
        let version = try #require(Version(stepName: name))
        #expect(version == expected)
        #expect(version.componentCount == expected.componentCount)
        #expect(version.description == expected.description)
        let thrown = try Version(parsingStepName: name)
        #expect(thrown == expected)
        #expect(thrown.componentCount == expected.componentCount)
    }

    @Test("Any other name is not a step name", arguments: invalidNames)
    func rejectsOtherNames(_ example: InvalidStepNameCase) {
        #expect(Version(stepName: example.name) == nil)
        let expected = VersionParseError(
            input: example.name, form: .stepName, offset: example.offset, reason: example.reason)
        #expect(throws: expected) { try Version(parsingStepName: example.name) }
    }

    @Test("Step-name errors name the input and what is wrong", arguments: invalidNames)
    func stepNameMessages(_ example: InvalidStepNameCase) throws {
        let error = try #require(throws: VersionParseError.self) { try Version(parsingStepName: example.name) }
        #expect(error.form == .stepName)
        #expect(error.input == example.name)
        #expect(error.description.hasPrefix(quotedInput(example.name) + ": "))
    }

    @Test(
        "Step-name messages read as documented",
        arguments: [
            (
                "xappUpgradeTo_1_2",
                #""xappUpgradeTo_1_2": does not start with appUpgradeTo_; a step name is appUpgradeTo_ and 2 or 3 numbers separated by "_", such as appUpgradeTo_1_2_3"#
            ),
            (
                "appUpgradeTo_1",
                #""appUpgradeTo_1": 1 component; a step name is appUpgradeTo_ and 2 or 3 numbers separated by "_", such as appUpgradeTo_1_2_3"#
            ),
            ("appUpgradeTo__1_2", #""appUpgradeTo__1_2": empty component at offset 13"#),
            (
                "appUpgradeTo_1.2",
                #""appUpgradeTo_1.2": unexpected character "." at offset 14; only ASCII digits 0-9 and "_" may appear"#
            ),
        ])
    func exactStepNameMessages(name: String, message: String) throws {
        let error = try #require(throws: VersionParseError.self) { try Version(parsingStepName: name) }
        #expect(error.description == message)
    }

    @Test(
        "A version renders to its step name, keeping the written component count",
        arguments: [
            ("1.2.3", "appUpgradeTo_1_2_3"),
            ("1.2", "appUpgradeTo_1_2"),
            ("2.0", "appUpgradeTo_2_0"),
            ("8.8", "appUpgradeTo_8_8"),
            ("8.8.0", "appUpgradeTo_8_8_0"),
            ("01.02.003", "appUpgradeTo_1_2_3"),
            ("0.0", "appUpgradeTo_0_0"),
            ("2147483647.0.2147483647", "appUpgradeTo_2147483647_0_2147483647"),
        ])
    func rendersStepName(versionText: String, stepName: String) throws {
        let version = try Version(parsing: versionText)
        #expect(version.stepName == stepName)
        let again = try #require(Version(stepName: version.stepName))
        #expect(again == version)
        #expect(again.componentCount == version.componentCount)
        #expect(again.stepName == stepName)
        #expect(again.description == version.description)
    }

    @Test("Built versions render step names by their component count")
    func builtVersionStepNames() {
        #expect(Version(major: 1, minor: 2).stepName == "appUpgradeTo_1_2")
        #expect(Version(major: 1, minor: 2, patch: 0).stepName == "appUpgradeTo_1_2_0")
    }

    @Test("The step-name prefix is appUpgradeTo_")
    func prefix() throws {
        #expect(Version.stepNamePrefix == "appUpgradeTo_")
        let version = try Version(parsing: "3.4.5")
        #expect(version.stepName.hasPrefix(Version.stepNamePrefix))
    }

    @Test("A substring is read as a step name on its own")
    func substringStepName() throws {
        let selector = "appUpgradeTo_1_2_3()"
        let version = try #require(Version(stepName: selector.dropLast(2)))
        #expect(version == Version(major: 1, minor: 2, patch: 3))
        #expect(Version(stepName: selector) == nil)
    }
}

/// The step name is the version's text with `_` for `.` after the prefix, for every component value.
@Suite("Step names written")
struct StepNameWritingTests {
    @Test("a version's step name is its description with _ for ., after appUpgradeTo_", arguments: 0..<4)
    func stepNameIsTheDescription(seed: Int) {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let edges = [0, 1, 9, 10, 99, 100, 999_999_999, 1_000_000_000, Version.maximumComponentValue]
        for index in 0..<2_000 {
            func component() -> Int {
                index < 200 ? edges[Int(next() % UInt64(edges.count))] : Int(next() % 2_147_483_648)
            }
            for version in [
                Version(major: component(), minor: component()),
                Version(major: component(), minor: component(), patch: component()),
            ] {
                let expected = "appUpgradeTo_" + version.description.replacingUnderscores()
                #expect(version.stepName == expected)
                #expect(Version(stepName: version.stepName) == version)
            }
        }
    }
}

extension String {
    /// The text with each `.` made `_`.
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "." ? "_" : $0 })
    }
}
