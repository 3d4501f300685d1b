extension Version: LosslessStringConvertible {
    /// Reads a version from text, throwing an error that says what is wrong.
    ///
    /// The text must be two or three components separated by `.`, each one or more ASCII digits with a
    /// value of at most 2,147,483,647. Nothing else is accepted: no sign, spaces, `v` prefix or suffix.
    ///
    /// - Parameter text: The text to read, such as `"1.2"` or `"8.8.10"`.
    /// - Throws: ``VersionParseError`` naming the text, the offset and the fault, for example
    ///   `"1..2": empty component at offset 2`.
    @inlinable
    public init(parsing text: some StringProtocol) throws(VersionParseError) {
        switch VersionGrammar.parseVersion(text) {
        case .success(let version): self = version
        case .failure(let fault): throw VersionParseError(input: String(text), form: .version, fault: fault)
        }
    }

    /// Reads a version from text, or returns `nil` when the text is not a well-formed version.
    ///
    /// - Parameter description: The text to read, such as `"1.2"`.
    public init?(_ description: String) {
        guard case .success(let version) = VersionGrammar.parseVersion(description) else { return nil }
        self = version
    }
}

extension Version: ExpressibleByStringLiteral {
    /// Creates a version from a string literal such as `"8.8.8"`.
    ///
    /// A literal is part of the program, not input, so a malformed literal is a programming error:
    /// it stops the program with the parse message (for example `"8.8.x": unexpected character "x"
    /// at offset 4 ...`). Use ``init(parsing:)`` for text that comes from outside the program.
    ///
    /// - Parameter value: The literal text of the version.
    public init(stringLiteral value: String) {
        do {
            try self.init(parsing: value)
        } catch {
            // fatalError, not preconditionFailure: -O builds drop a precondition's message.
            fatalError("Malformed version literal: \(error)")
        }
    }
}
