import VersionKit

/// The `version` target: the input, as UTF-8 text (invalid bytes repaired), read as a version and as
/// a step name.
enum VersionChecks {
    /// Versions every parsed one is compared with: the extremes, and pairs that differ only in the
    /// written number of components.
    static let fixed: [Version] = [
        Version(major: 0, minor: 0), Version(major: 0, minor: 0, patch: 0), Version(major: 0, minor: 0, patch: 1),
        Version(major: 1, minor: 2), Version(major: 1, minor: 2, patch: 0), Version(major: 1, minor: 10),
        Version(major: 8, minor: 8, patch: 8),
        Version(
            major: Version.maximumComponentValue, minor: Version.maximumComponentValue,
            patch: Version.maximumComponentValue),
    ]

    /// Checks the readers of VersionKit on one input.
    ///
    /// - Parameter input: The input's bytes.
    /// - Throws: The first property that failed.
    static func check(_ input: UnsafeRawBufferPointer) throws(PropertyFailure) {
        let text = String(decoding: input, as: UTF8.self)
        let version = try checkVersion(text)
        let stepVersion = try checkStepName(text)
        for value in [version, stepVersion].compactMap({ $0 }) {
            for other in fixed + [version, stepVersion].compactMap({ $0 }) {
                try checkOrder(value, other)
            }
        }
    }

    /// `Version(parsing:)` and `Version(_:)` agree, on the text and on a substring of it; an accepted
    /// version prints and reads back; a rejected one has an error that names the text and a place in
    /// it.
    private static func checkVersion(_ text: String) throws(PropertyFailure) -> Version? {
        let optional = Version(text)
        // The same text as a substring of a longer string (another storage path through the reader).
        let substring = try? Version(parsing: Substring("<\(text)>".unicodeScalars.dropFirst().dropLast()))
        let parsed: Result<Version, VersionParseError> = Result { () throws(VersionParseError) in
            try Version(parsing: text)
        }
        switch parsed {
        case .success(let version):
            try require(
                optional.map { same($0, version) } == true, "Version(_:) agrees with Version(parsing:)",
                "\(quoted(text)): Version(parsing:) read \(version), Version(_:) \(describe(optional))")
            try require(
                substring.map { same($0, version) } == true, "a substring reads as its string",
                "\(quoted(text)): the string read \(version), the substring \(describe(substring))")
            try checkRanges(version, text)
            try require(
                version.componentCount == text.split(separator: ".", omittingEmptySubsequences: false).count,
                "the component count is as written", "\(quoted(text)) read with \(version.componentCount) components")
            let printed = version.description
            let again = Version(printed)
            try require(
                again.map { same($0, version) } == true, "description reads back",
                "\(quoted(text)) read \(version), whose description \(quoted(printed)) reads \(describe(again))")
            try require(
                again?.description == printed, "description is canonical",
                "\(quoted(printed)) prints as \(describe(again))")
            let name = version.stepName
            let fromName = Version(stepName: name)
            try require(
                fromName.map { same($0, version) } == true, "stepName reads back",
                "\(quoted(text)) read \(version), whose stepName \(quoted(name)) reads \(describe(fromName))")
            return version
        case .failure(let error):
            try require(
                optional == nil, "Version(_:) agrees with Version(parsing:)",
                "\(quoted(text)): Version(parsing:) threw, Version(_:) read \(describe(optional))")
            try require(
                substring == nil, "a substring reads as its string",
                "\(quoted(text)): the string was rejected, the substring read \(describe(substring))")
            try checkError(error, text, form: .version)
            return nil
        }
    }

    /// `Version(stepName:)` and `Version(parsingStepName:)` agree; an accepted name prints and reads
    /// back; a name reads as its numbers read as a version with `.` for `_`.
    private static func checkStepName(_ text: String) throws(PropertyFailure) -> Version? {
        let optional = Version(stepName: text)
        let parsed: Result<Version, VersionParseError> = Result { () throws(VersionParseError) in
            try Version(parsingStepName: text)
        }
        // The oracle: the case-insensitive prefix, then the numbers as a version with "." for "_"
        // (only when the rest has no "." of its own, which would make an invalid name valid).
        let prefix = Array(Version.stepNamePrefix.utf8).map(asciiLowercased)
        let utf8 = Array(text.utf8)
        var expected: Version??
        if utf8.count >= prefix.count, utf8[..<prefix.count].map(asciiLowercased) == prefix {
            let rest = utf8[prefix.count...]
            if !rest.contains(UInt8(ascii: ".")) {
                let dotted = String(
                    decoding: rest.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: ".") : $0 }, as: UTF8.self)
                expected = .some(Version(dotted))
            }
        } else {
            expected = .some(nil)
        }
        if let expected {
            let agrees =
                switch (expected, optional) {
                case (nil, nil): true
                case (let left?, let right?): same(left, right)
                default: false
                }
            try require(
                agrees, "a step name reads as its numbers",
                "\(quoted(text)): Version(stepName:) read \(describe(optional)), the numbers \(describe(expected))")
        }
        switch parsed {
        case .success(let version):
            try require(
                optional.map { same($0, version) } == true, "Version(stepName:) agrees with Version(parsingStepName:)",
                "\(quoted(text)): Version(parsingStepName:) read \(version), Version(stepName:) \(describe(optional))")
            try checkRanges(version, text)
            let name = version.stepName
            let again = Version(stepName: name)
            try require(
                again.map { same($0, version) } == true, "stepName reads back",
                "\(quoted(text)) read \(version), whose stepName \(quoted(name)) reads \(describe(again))")
            try require(
                again?.stepName == name, "stepName is canonical", "\(quoted(name)) prints as \(describe(again))")
            let fromDescription = Version(version.description)
            try require(
                fromDescription.map { same($0, version) } == true, "description reads back",
                "\(quoted(text)) read \(version), whose description reads \(describe(fromDescription))")
            return version
        case .failure(let error):
            try require(
                optional == nil, "Version(stepName:) agrees with Version(parsingStepName:)",
                "\(quoted(text)): Version(parsingStepName:) threw, Version(stepName:) read \(describe(optional))")
            try checkError(error, text, form: .stepName)
            return nil
        }
    }

    /// Order, equality and hashing are consistent with each other and with the components.
    private static func checkOrder(_ a: Version, _ b: Version) throws(PropertyFailure) {
        let less = a < b
        let greater = b < a
        let equal = a == b
        let pair = "\(a) and \(b)"
        try require(!(less && greater), "< is asymmetric", "\(pair): each is below the other")
        try require(
            [less, greater, equal].filter { $0 }.count == 1, "exactly one of <, ==, > holds",
            "\(pair): < \(less), > \(greater), == \(equal)")
        let tupleLess = (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch)
        try require(tupleLess == less, "< compares the components", "\(pair): < is \(less)")
        try require(
            equal == ((a.major, a.minor, a.patch) == (b.major, b.minor, b.patch)), "== compares the components",
            "\(pair): == is \(equal)")
        try require(!equal || a.hashValue == b.hashValue, "equal versions hash alike", "\(pair) hash apart")
        try require(a <= b || a > b, "<= and > are complements", "\(pair)")
    }

    /// The components lie in range and the count is 2 or 3.
    private static func checkRanges(_ version: Version, _ text: String) throws(PropertyFailure) {
        let range = 0...Version.maximumComponentValue
        try require(
            range.contains(version.major) && range.contains(version.minor) && range.contains(version.patch)
                && (version.componentCount == 2 || version.componentCount == 3)
                && (version.componentCount == 3 || version.patch == 0),
            "components in range",
            "\(quoted(text)) read as \(version.major), \(version.minor), \(version.patch)"
                + " (\(version.componentCount) components)")
    }

    /// The error names the input whole, a place inside it and the form read, and words it.
    private static func checkError(_ error: VersionParseError, _ text: String, form: VersionParseError.Form)
        throws(PropertyFailure)
    {
        try require(
            error.input == text, "the error names the input", "\(quoted(text)): the error names \(quoted(error.input))")
        try require(error.form == form, "the error names the form", "\(quoted(text)): \(error.form)")
        try require(
            error.offset >= 0 && error.offset <= text.count, "the error's offset lies in the input",
            "\(quoted(text)) (\(text.count) characters): offset \(error.offset)")
        if case .unexpectedCharacter(let character) = error.reason {
            let at = text.index(text.startIndex, offsetBy: error.offset, limitedBy: text.endIndex)
            try require(
                at.map { $0 < text.endIndex && text[$0] == character } == true,
                "the unexpected character is the one at the offset",
                "\(quoted(text)): \(quoted(String(character))) at offset \(error.offset)")
        }
        let message = error.description
        try require(
            message.hasBytePrefix("\"") && message.utf8.count > 10, "the error has a message",
            "\(quoted(text)): \(quoted(message))")
    }

    /// The byte with ASCII letters in lower case.
    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// Same value and the same written number of components.
    private static func same(_ a: Version, _ b: Version) -> Bool {
        a == b && a.componentCount == b.componentCount
    }

    private static func describe(_ version: Version?) -> String {
        version.map { "\($0) (\($0.componentCount) components)" } ?? "nothing"
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + "\""
    }
}
