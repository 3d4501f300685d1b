/// The error thrown when text is not a well-formed version or step name.
///
/// Its ``description`` names the text, the offset and what is wrong, such as
/// `"1..2": empty component at offset 2`.
public struct VersionParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of text was being read.
    public enum Form: Sendable, Hashable {
        /// A version such as `1.2.3`.
        case version
        /// A step name such as `appUpgradeTo_1_2_3`.
        case stepName
    }

    /// What is wrong with the text.
    public enum Reason: Sendable, Hashable {
        /// The text is empty.
        case empty
        /// A character that may not appear there: anything but an ASCII digit or the separator.
        case unexpectedCharacter(Character)
        /// Two separators in a row, or a separator at the start or the end.
        case emptyComponent
        /// Fewer than two components; the value is how many there were.
        case tooFewComponents(Int)
        /// More than three components.
        case tooManyComponents
        /// A component whose value is larger than ``Version/maximumComponentValue``.
        case componentTooLarge
        /// A step name that does not begin with `appUpgradeTo_` (in any case).
        case missingStepNamePrefix
    }

    /// The text that was given, whole.
    public let input: String
    /// Whether a version or a step name was being read.
    public let form: Form
    /// Where the fault lies, in characters from the start of ``input``.
    public let offset: Int
    /// What is wrong.
    public let reason: Reason

    /// Creates an error; the reader makes these, but tests and wrappers may too.
    ///
    /// - Parameters:
    ///   - input: The text that was given.
    ///   - form: Whether a version or a step name was being read.
    ///   - offset: Where the fault lies, in characters from the start of `input`.
    ///   - reason: What is wrong.
    public init(input: String, form: Form, offset: Int, reason: Reason) {
        self.input = input
        self.form = form
        self.offset = offset
        self.reason = reason
    }

    @usableFromInline
    init(input: String, form: Form, fault: VersionGrammar.Fault) {
        let utf8 = input.utf8
        let byteIndex = utf8.index(utf8.startIndex, offsetBy: min(fault.byteOffset, utf8.count))
        // A byte inside a character (a combining mark after a digit) rounds down to that character's start,
        // so that `reason` names the character found at `offset`.
        let offset = input.distance(from: input.startIndex, to: byteIndex)
        let characterIndex = byteIndex.samePosition(in: input) ?? input.index(input.startIndex, offsetBy: offset)
        let reason: Reason
        switch fault.reason {
        case .empty: reason = .empty
        case .unexpectedByte: reason = .unexpectedCharacter(input[characterIndex])
        case .emptyComponent: reason = .emptyComponent
        case .tooFewComponents(let count): reason = .tooFewComponents(count)
        case .tooManyComponents: reason = .tooManyComponents
        case .componentTooLarge: reason = .componentTooLarge
        case .missingStepNamePrefix: reason = .missingStepNamePrefix
        }
        self.init(input: input, form: form, offset: offset, reason: reason)
    }

    /// The message: the text as given (shortened when very long), then what is wrong and where.
    public var description: String {
        let separator = form == .version ? "." : "_"
        let shape =
            form == .version
            ? "a version is 2 or 3 numbers separated by \".\", such as 1.2 or 1.2.3"
            : "a step name is appUpgradeTo_ and 2 or 3 numbers separated by \"_\", such as appUpgradeTo_1_2_3"
        let what: String
        switch reason {
        case .empty:
            what = "empty text; \(shape)"
        case .unexpectedCharacter(let character):
            let shown =
                character.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
                ? "\"\(character)\""
                : "\"\(character)\" (\(character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")))"
            what =
                "unexpected character \(shown) at offset \(offset); only ASCII digits 0-9 and \"\(separator)\" may appear"
        case .emptyComponent:
            what = "empty component at offset \(offset)"
        case .tooFewComponents(let count):
            what = "\(count) component\(count == 1 ? "" : "s"); \(shape)"
        case .tooManyComponents:
            what = "more than 3 components (the 4th starts at offset \(offset + 1)); \(shape)"
        case .componentTooLarge:
            what = "component at offset \(offset) is larger than \(Version.maximumComponentValue)"
        case .missingStepNamePrefix:
            what = "does not start with appUpgradeTo_; \(shape)"
        }
        return "\(VersionParseError.quoted(input)): \(what)"
    }

    /// The input in quotes, shortened to its first 60 characters when it is longer than 80.
    static func quoted(_ text: String) -> String {
        guard text.count > 80 else { return "\"\(text)\"" }
        return "\"\(text.prefix(60))…\" (\(text.count) characters)"
    }
}
