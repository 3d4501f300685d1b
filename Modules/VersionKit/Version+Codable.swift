extension Version: Codable {
    /// Decodes a version from a single string, such as `"1.2.3"`.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` carrying the parse message when the string is not a
    ///   well-formed version, or the decoder's own error when the value is not a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the version as its canonical text, a single string.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error, if any.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
