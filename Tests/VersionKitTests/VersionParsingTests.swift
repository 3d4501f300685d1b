import Testing
import VersionKit

/// A well-formed version text and what it must read as.
struct ValidVersionCase: Sendable, CustomTestStringConvertible {
    var input: String
    var major: Int
    var minor: Int
    var patch: Int
    var componentCount: Int
    var canonical: String

    var testDescription: String { "\"\(input)\"" }
}

/// A malformed version text and the error it must raise.
struct InvalidVersionCase: Sendable, CustomTestStringConvertible {
    var input: String
    var reason: VersionParseError.Reason
    var offset: Int
    var note: String

    var testDescription: String {
        let shown = input.count > 24 ? "\(input.prefix(16))… (\(input.count) characters)" : input
        return "\(note): \"\(shown)\""
    }
}

/// The message prefix an error must start with: the input in quotes, shortened when very long.
func quotedInput(_ input: String) -> String {
    input.count > 80 ? "\"\(input.prefix(60))…\" (\(input.count) characters)" : "\"\(input)\""
}

@Suite("Parsing version text")
struct VersionParsingTests {
    static let validCases: [ValidVersionCase] = [
        .init(input: "0.0", major: 0, minor: 0, patch: 0, componentCount: 2, canonical: "0.0"),
        .init(input: "0.0.0", major: 0, minor: 0, patch: 0, componentCount: 3, canonical: "0.0.0"),
        .init(input: "1.2", major: 1, minor: 2, patch: 0, componentCount: 2, canonical: "1.2"),
        .init(input: "1.2.3", major: 1, minor: 2, patch: 3, componentCount: 3, canonical: "1.2.3"),
        .init(input: "1.2.0", major: 1, minor: 2, patch: 0, componentCount: 3, canonical: "1.2.0"),
        .init(input: "8.8.0", major: 8, minor: 8, patch: 0, componentCount: 3, canonical: "8.8.0"),
        .init(input: "10.20.30", major: 10, minor: 20, patch: 30, componentCount: 3, canonical: "10.20.30"),
        .init(input: "1.02", major: 1, minor: 2, patch: 0, componentCount: 2, canonical: "1.2"),
        .init(input: "01.002.0003", major: 1, minor: 2, patch: 3, componentCount: 3, canonical: "1.2.3"),
        .init(input: "000.000", major: 0, minor: 0, patch: 0, componentCount: 2, canonical: "0.0"),
        .init(input: "1.2.00", major: 1, minor: 2, patch: 0, componentCount: 3, canonical: "1.2.0"),
        .init(input: "10.0", major: 10, minor: 0, patch: 0, componentCount: 2, canonical: "10.0"),
        .init(
            input: "2147483647.2147483647", major: 2_147_483_647, minor: 2_147_483_647, patch: 0,
            componentCount: 2, canonical: "2147483647.2147483647"),
        .init(
            input: "2147483647.2147483647.2147483647", major: 2_147_483_647, minor: 2_147_483_647,
            patch: 2_147_483_647, componentCount: 3, canonical: "2147483647.2147483647.2147483647"),
        .init(
            input: "0.0.2147483647", major: 0, minor: 0, patch: 2_147_483_647, componentCount: 3,
            canonical: "0.0.2147483647"),
        .init(
            input: "0002147483647.1", major: 2_147_483_647, minor: 1, patch: 0, componentCount: 2,
            canonical: "2147483647.1"),
        .init(
            input: String(repeating: "0", count: 10_000) + "1.2", major: 1, minor: 2, patch: 0,
            componentCount: 2, canonical: "1.2"),
        .init(
            input: "1." + String(repeating: "0", count: 10_000) + "7", major: 1, minor: 7, patch: 0,
            componentCount: 2, canonical: "1.7"),
    ]

    static let invalidCases: [InvalidVersionCase] = [
        // Shape: empty text, too few or too many components, empty components.
        .init(input: "", reason: .empty, offset: 0, note: "empty"),
        .init(input: "1", reason: .tooFewComponents(1), offset: 0, note: "one component"),
        .init(input: "12345", reason: .tooFewComponents(1), offset: 0, note: "one component"),
        .init(input: "1.2.3.4", reason: .tooManyComponents, offset: 5, note: "four components"),
        .init(input: "1.2.3.4.5", reason: .tooManyComponents, offset: 5, note: "five components"),
        .init(input: "1.2.3.", reason: .tooManyComponents, offset: 5, note: "trailing dot after three"),
        .init(input: "1..2", reason: .emptyComponent, offset: 2, note: "empty middle component"),
        .init(input: "1.2..3", reason: .emptyComponent, offset: 4, note: "empty component"),
        .init(input: "1.", reason: .emptyComponent, offset: 2, note: "trailing dot"),
        .init(input: "1.2.", reason: .emptyComponent, offset: 4, note: "trailing dot"),
        .init(input: ".1.2", reason: .emptyComponent, offset: 0, note: "leading dot"),
        .init(input: ".1", reason: .emptyComponent, offset: 0, note: "leading dot"),
        .init(input: ".", reason: .emptyComponent, offset: 0, note: "only a dot"),
        .init(input: "..", reason: .emptyComponent, offset: 0, note: "only dots"),
        // Characters that are not ASCII digits or the separator.
        .init(input: " 1.2", reason: .unexpectedCharacter(" "), offset: 0, note: "leading space"),
        .init(input: "1.2 ", reason: .unexpectedCharacter(" "), offset: 3, note: "trailing space"),
        .init(input: "1 .2", reason: .unexpectedCharacter(" "), offset: 1, note: "inner space"),
        .init(input: "1.2\n", reason: .unexpectedCharacter("\n"), offset: 3, note: "trailing newline"),
        .init(input: "1.2\r\n", reason: .unexpectedCharacter("\r\n"), offset: 3, note: "trailing CR LF"),
        .init(input: "\t1.2", reason: .unexpectedCharacter("\t"), offset: 0, note: "leading tab"),
        .init(input: "+1.2", reason: .unexpectedCharacter("+"), offset: 0, note: "plus sign"),
        .init(input: "-1.2", reason: .unexpectedCharacter("-"), offset: 0, note: "minus sign"),
        .init(input: "1.-2", reason: .unexpectedCharacter("-"), offset: 2, note: "minus sign"),
        .init(input: "1.2.+3", reason: .unexpectedCharacter("+"), offset: 4, note: "plus sign"),
        .init(input: "v1.2", reason: .unexpectedCharacter("v"), offset: 0, note: "v prefix"),
        .init(input: "V1.2", reason: .unexpectedCharacter("V"), offset: 0, note: "V prefix"),
        .init(input: "1.2-beta", reason: .unexpectedCharacter("-"), offset: 3, note: "suffix"),
        .init(input: "1.2.3-rc.1", reason: .unexpectedCharacter("-"), offset: 5, note: "suffix"),
        .init(input: "1.2.3+build", reason: .unexpectedCharacter("+"), offset: 5, note: "build metadata"),
        .init(input: "1.2b", reason: .unexpectedCharacter("b"), offset: 3, note: "letter suffix"),
        .init(input: "1,2", reason: .unexpectedCharacter(","), offset: 1, note: "comma separator"),
        .init(input: "1_2", reason: .unexpectedCharacter("_"), offset: 1, note: "step-name separator"),
        .init(input: "0x1.2", reason: .unexpectedCharacter("x"), offset: 1, note: "hexadecimal"),
        .init(input: "1e3.2", reason: .unexpectedCharacter("e"), offset: 1, note: "exponent"),
        .init(input: "1.2\u{0}", reason: .unexpectedCharacter("\u{0}"), offset: 3, note: "NUL"),
        .init(input: "\u{FEFF}1.2", reason: .unexpectedCharacter("\u{FEFF}"), offset: 0, note: "byte-order mark"),
        // Digits that are not ASCII.
        .init(input: "١.٢", reason: .unexpectedCharacter("١"), offset: 0, note: "Arabic-Indic digits"),
        .init(input: "1.٢", reason: .unexpectedCharacter("٢"), offset: 2, note: "Arabic-Indic digit"),
        .init(input: "１.２", reason: .unexpectedCharacter("１"), offset: 0, note: "full-width digits"),
        .init(input: "1.2.३", reason: .unexpectedCharacter("३"), offset: 4, note: "Devanagari digit"),
        .init(input: "1.2²", reason: .unexpectedCharacter("²"), offset: 3, note: "superscript digit"),
        .init(input: "1.2😀", reason: .unexpectedCharacter("😀"), offset: 3, note: "emoji"),
        // A combining mark joins the digit before it into one character, which is then not a digit.
        .init(input: "1.2\u{301}", reason: .unexpectedCharacter("2\u{301}"), offset: 2, note: "combining mark"),
        // Values above 2147483647.
        .init(input: "2147483648.0", reason: .componentTooLarge, offset: 0, note: "major overflow"),
        .init(input: "0.2147483648", reason: .componentTooLarge, offset: 2, note: "minor overflow"),
        .init(input: "1.2.2147483648", reason: .componentTooLarge, offset: 4, note: "patch overflow"),
        .init(input: "1.2.0002147483648", reason: .componentTooLarge, offset: 4, note: "overflow with zeros"),
        .init(input: "4294967296.0", reason: .componentTooLarge, offset: 0, note: "UInt32 wrap-around"),
        .init(input: "4294967297.0", reason: .componentTooLarge, offset: 0, note: "UInt32 wrap-around"),
        .init(input: "18446744073709551616.1", reason: .componentTooLarge, offset: 0, note: "UInt64 wrap-around"),
        .init(input: "99999999999999999999999.1", reason: .componentTooLarge, offset: 0, note: "huge"),
        .init(input: "2147483648", reason: .componentTooLarge, offset: 0, note: "overflow before count"),
        // Very long input.
        .init(
            input: String(repeating: "1", count: 10_000), reason: .componentTooLarge, offset: 0,
            note: "10,000 digits"),
        .init(
            input: "1." + String(repeating: "9", count: 10_000), reason: .componentTooLarge, offset: 2,
            note: "10,000-digit minor"),
        .init(
            input: Array(repeating: "1", count: 5_000).joined(separator: "."), reason: .tooManyComponents,
            offset: 5, note: "5,000 components"),
        .init(
            input: String(repeating: "0", count: 10_000) + ".1x", reason: .unexpectedCharacter("x"),
            offset: 10_002, note: "fault far in"),
        .init(
            input: String(repeating: ".", count: 10_000), reason: .emptyComponent, offset: 0,
            note: "10,000 dots"),
    ]

    @Test("Well-formed text reads as its components", arguments: validCases)
    func readsValidText(_ example: ValidVersionCase) throws {
        let version = try Version(parsing: example.input)
        #expect(version.major == example.major)
        #expect(version.minor == example.minor)
        #expect(version.patch == example.patch)
        #expect(version.componentCount == example.componentCount)
        #expect(version.description == example.canonical)
        #expect("\(version)" == example.canonical)
    }

    @Test("Well-formed text reads the same through every initializer", arguments: validCases)
    func initializersAgree(_ example: ValidVersionCase) throws {
        let parsed = try Version(parsing: example.input)
        let failable = try #require(Version(example.input))
        let fromSubstring = try Version(parsing: example.input[...])
        let patch = example.componentCount == 3 ? example.patch : nil
        let built = Version(major: example.major, minor: example.minor, patch: patch)
        for other in [failable, fromSubstring, built] {
            #expect(other == parsed)
            #expect(other.componentCount == parsed.componentCount)
            #expect(other.description == parsed.description)
        }
    }

    @Test("Canonical text reads back to the same version", arguments: validCases)
    func descriptionRoundTrips(_ example: ValidVersionCase) throws {
        let version = try Version(parsing: example.input)
        let again = try Version(parsing: version.description)
        #expect(again == version)
        #expect(again.componentCount == version.componentCount)
        #expect(again.description == version.description)
    }

    @Test("Malformed text throws the exact reason and offset", arguments: invalidCases)
    func rejectsInvalidText(_ example: InvalidVersionCase) {
        let expected = VersionParseError(
            input: example.input, form: .version, offset: example.offset, reason: example.reason)
        #expect(throws: expected) { try Version(parsing: example.input) }
    }

    @Test("Malformed text gives nil from the failable initializer", arguments: invalidCases)
    func failableInitializerRejects(_ example: InvalidVersionCase) {
        #expect(Version(example.input) == nil)
    }

    @Test("Every error message names the input and what is wrong", arguments: invalidCases)
    func messageNamesInputAndFault(_ example: InvalidVersionCase) throws {
        let error = try #require(throws: VersionParseError.self) { try Version(parsing: example.input) }
        let message = error.description
        #expect(message.hasPrefix(quotedInput(example.input) + ": "))
        let fault: String
        switch example.reason {
        case .empty: fault = "empty text"
        case .unexpectedCharacter(let character): fault = "unexpected character \"\(character)\""
        case .emptyComponent: fault = "empty component at offset \(example.offset)"
        case .tooFewComponents(let count): fault = "\(count) component"
        case .tooManyComponents: fault = "more than 3 components (the 4th starts at offset \(example.offset + 1))"
        case .componentTooLarge: fault = "component at offset \(example.offset) is larger than 2147483647"
        case .missingStepNamePrefix: fault = "does not start with appUpgradeTo_"
        }
        #expect(message.contains(fault))
        if case .unexpectedCharacter = example.reason {
            #expect(message.contains("at offset \(example.offset);"))
        }
    }

    @Test(
        "Messages read as documented",
        arguments: [
            ("1..2", #""1..2": empty component at offset 2"#),
            ("", #""": empty text; a version is 2 or 3 numbers separated by ".", such as 1.2 or 1.2.3"#),
            ("1", #""1": 1 component; a version is 2 or 3 numbers separated by ".", such as 1.2 or 1.2.3"#),
            (
                "v1.2",
                #""v1.2": unexpected character "v" at offset 0; only ASCII digits 0-9 and "." may appear"#
            ),
            (
                "١.٢",
                #""١.٢": unexpected character "١" (U+661) at offset 0; only ASCII digits 0-9 and "." may appear"#
            ),
            ("2147483648.0", #""2147483648.0": component at offset 0 is larger than 2147483647"#),
            (
                "1.2.3.4",
                #""1.2.3.4": more than 3 components (the 4th starts at offset 6); a version is 2 or 3 numbers separated by ".", such as 1.2 or 1.2.3"#
            ),
        ])
    func exactMessages(input: String, message: String) throws {
        let error = try #require(throws: VersionParseError.self) { try Version(parsing: input) }
        #expect(error.description == message)
        #expect(error.form == .version)
        #expect(error.input == input)
    }

    @Test("A very long input is shortened in the message, keeping its length")
    func longInputIsShortened() throws {
        let input = String(repeating: "0", count: 10_000) + ".1x"
        let error = try #require(throws: VersionParseError.self) { try Version(parsing: input) }
        #expect(error.input == input)
        let head = String(repeating: "0", count: 60)
        #expect(
            error.description
                == "\"\(head)…\" (10003 characters): unexpected character \"x\" at offset 10002; "
                + "only ASCII digits 0-9 and \".\" may appear")
        #expect(error.description.count < 200)
    }

    @Test("Inputs of up to 80 characters are shown whole, longer ones shortened")
    func shorteningThreshold() throws {
        let eighty = String(repeating: "0", count: 78) + ".x"
        let eightyOne = String(repeating: "0", count: 79) + ".x"
        let whole = try #require(throws: VersionParseError.self) { try Version(parsing: eighty) }
        #expect(whole.description.hasPrefix("\"\(eighty)\": "))
        let shortened = try #require(throws: VersionParseError.self) { try Version(parsing: eightyOne) }
        #expect(shortened.description.hasPrefix("\"\(eightyOne.prefix(60))…\" (81 characters): "))
        #expect(!shortened.description.contains(eightyOne))
    }

    @Test("A substring is read on its own, with offsets from its start")
    func readsSubstrings() throws {
        let text = "version=1.02;"
        let slice = text.dropFirst(8).dropLast()
        let version = try Version(parsing: slice)
        #expect(version == Version(major: 1, minor: 2))
        #expect(version.description == "1.2")

        let bad = "abc1..2xyz".dropFirst(3).dropLast(3)
        let expected = VersionParseError(input: "1..2", form: .version, offset: 2, reason: .emptyComponent)
        #expect(throws: expected) { try Version(parsing: bad) }
    }

    @Test("The largest component value is 2147483647")
    func maximumComponentValue() throws {
        #expect(Version.maximumComponentValue == 2_147_483_647)
        #expect(Version.maximumComponentValue == Int(Int32.max))
        let largest = try Version(parsing: "2147483647.0")
        #expect(largest.major == Version.maximumComponentValue)
        #expect(throws: VersionParseError.self) { try Version(parsing: "2147483648.0") }
    }

    @Test("Version is LosslessStringConvertible")
    func losslessStringConvertible() throws {
        func roundTrip<T: LosslessStringConvertible>(_ value: T) -> T? { T(value.description) }
        let version = try Version(parsing: "01.2.00")
        let again = try #require(roundTrip(version))
        #expect(again == version)
        #expect(again.description == "1.2.0")
        // A variable, not a literal: `Version("1..2")` with a literal argument is literal coercion
        // (SE-0213), which calls init(stringLiteral:) and stops the program.
        for text in ["1..2", ""] {
            #expect(Version(text) == nil)
        }
    }

    @Test("A string literal reads as a version")
    func stringLiteral() {
        let version: Version = "8.8.8"
        #expect(version == Version(major: 8, minor: 8, patch: 8))
        let padded: Version = "01.02"
        #expect(padded.description == "1.2")
        #expect(padded.componentCount == 2)
    }
}
