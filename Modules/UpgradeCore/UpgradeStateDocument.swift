#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON document form of an ``UpgradeState``, shared by the stores that keep it as bytes.
///
/// Pretty-printed with sorted keys, so that a person can read and diff it.
public enum UpgradeStateDocument {
    /// Encodes a state as its JSON document.
    ///
    /// - Parameter state: The state to encode.
    /// - Returns: The UTF-8 bytes of the document.
    /// - Throws: An `EncodingError` (not expected for a valid state).
    public static func encode(_ state: UpgradeState) throws -> Data {
        // The common case is written by hand, to the same bytes (UpgradeStateDocument+FastPath.swift).
        if let bytes = StateDocumentFastPath.encode(state) { return bytes }
        return try encodeWithJSONEncoder(state)
    }

    /// Encodes a state for a store to write, turning a failure into an ``UpgradeStoreError``.
    ///
    /// - Parameters:
    ///   - state: The state to encode.
    ///   - location: Where the store keeps it, for the error.
    /// - Returns: The UTF-8 bytes of the document.
    /// - Throws: ``UpgradeStoreError`` with code ``UpgradeStoreError/Code/writeFailed`` (not expected
    ///   for a valid state).
    package static func encode(_ state: UpgradeState, location: String) throws(UpgradeStoreError) -> Data {
        do {
            return try encode(state)
        } catch {
            throw UpgradeStoreError(
                code: .writeFailed, location: location, detail: "the state could not be encoded: \(error)",
                underlying: error)
        }
    }

    /// Decodes a state document, turning every fault into an ``UpgradeStoreError`` that names the
    /// location and the JSON path of the fault.
    ///
    /// The document must be strict JSON (RFC 8259): a duplicate key, a trailing comma, a comment,
    /// text after the document, invalid UTF-8, a lone surrogate escape or a literal such as `NaN` is
    /// an error naming the line, the column and the JSON path, such as
    /// `not a valid upgrade state document: at history[3] (line 12, column 5): invalid JSON:
    /// duplicate key "to"; it is left as it is`. A document with a duplicate key is never read as
    /// either of its values.
    ///
    /// - Parameters:
    ///   - data: The bytes read.
    ///   - location: Where they were read from, for the error.
    /// - Returns: The state.
    /// - Throws: ``UpgradeStoreError`` with code ``UpgradeStoreError/Code/corrupt`` (not valid JSON,
    ///   or not a valid state: an unknown or missing key, a value of the wrong type or range) or
    ///   ``UpgradeStoreError/Code/unsupportedFormat(found:supported:)``.
    public static func decode(_ data: Data, location: String) throws(UpgradeStoreError) -> UpgradeState {
        // The common case is read by hand; anything it does not accept is checked by the strict JSON
        // parser, and then the Codable path decides (UpgradeStateDocument+FastPath.swift).
        if let state = StateDocumentFastPath.decode(data) { return state }
        return try decodeByFallbackPath(data, location: location)
    }

    /// Decodes a state document on the fallback path alone, the strict JSON check and then the
    /// Codable path, as ``decode(_:location:)`` does for a document the hand-written reader declines.
    ///
    /// For checks that compare the two paths (`upgrade-fuzz`); the package's readers call
    /// ``decode(_:location:)``.
    ///
    /// - Parameters:
    ///   - data: The bytes read.
    ///   - location: Where they were read from, for the error.
    /// - Returns: The state.
    /// - Throws: ``UpgradeStoreError`` exactly as ``decode(_:location:)`` throws it.
    package static func decodeByFallbackPath(_ data: Data, location: String) throws(UpgradeStoreError)
        -> UpgradeState
    {
        try checkSyntax(data, location: location)
        do {
            return try JSONDecoder().decode(UpgradeState.self, from: data)
        } catch let error as UnsupportedStateFormatError {
            throw UpgradeStoreError(
                code: .unsupportedFormat(found: error.found, supported: error.supported), location: location,
                detail: error.description, underlying: error)
        } catch let error as DecodingError {
            throw UpgradeStoreError(
                code: .corrupt, location: location,
                detail: "not a valid upgrade state document: \(describe(error))\(UpgradeStoreError.leftAsItIs)",
                underlying: error)
        } catch {
            throw UpgradeStoreError(
                code: .corrupt, location: location,
                detail: "not a valid upgrade state document: \(error)\(UpgradeStoreError.leftAsItIs)",
                underlying: error)
        }
    }

    /// Decodes a state document as ``decode(_:location:)`` does, but leaves the state's `history`
    /// empty, for a launch's quick look at the state.
    ///
    /// The history is still checked exactly as strictly as ``decode(_:location:)`` checks it (every
    /// key, type and value), so the same documents are accepted and rejected with the same errors;
    /// only the ``LaunchRecord`` values are not built. A document the hand-written reader leaves to
    /// the fallback path (the strict JSON check, then the Codable path) is decoded in full and its
    /// history dropped.
    ///
    /// - Parameters:
    ///   - data: The bytes read.
    ///   - location: Where they were read from, for the error.
    /// - Returns: The state, with an empty `history`.
    /// - Throws: ``UpgradeStoreError`` exactly as ``decode(_:location:)`` throws it.
    public static func decodeWithoutHistory(_ data: Data, location: String) throws(UpgradeStoreError)
        -> UpgradeState
    {
        if let state = StateDocumentFastPath.decodeWithoutHistory(data) { return state }
        var state = try decode(data, location: location)
        state.history = []
        return state
    }

    /// Reads a document with the hand-written reader alone, or returns `nil` where it declines and
    /// ``decode(_:location:)`` would run the fallback path.
    ///
    /// For checks that compare the two paths (`upgrade-fuzz`); the package's readers call
    /// ``decode(_:location:)``.
    ///
    /// - Parameters:
    ///   - data: The bytes read.
    ///   - withHistory: `false` for the reader of ``decodeWithoutHistory(_:location:)``, which
    ///     validates the history without building it.
    /// - Returns: The state (with an empty history when `withHistory` is `false`); `nil` to fall back.
    package static func decodeByFastPath(_ data: Data, withHistory: Bool) -> UpgradeState? {
        withHistory ? StateDocumentFastPath.decode(data) : StateDocumentFastPath.decodeWithoutHistory(data)
    }

    /// Encodes a state with `JSONEncoder` alone, as ``encode(_:)`` does for a state the hand-written
    /// writer declines; for checks that the writer writes the very same bytes (`upgrade-fuzz`).
    ///
    /// - Parameter state: The state to encode.
    /// - Returns: The UTF-8 bytes of the document.
    /// - Throws: An `EncodingError` (not expected for a valid state).
    package static func encodeWithJSONEncoder(_ state: UpgradeState) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(state)
    }

    /// Checks that a document is strict JSON before `JSONDecoder` reads it, since `JSONDecoder`
    /// takes one of two duplicate keys, and a trailing comma, without a word.
    ///
    /// Only the fallback path runs it: the hand-written reader accepts strict JSON alone.
    ///
    /// - Parameters:
    ///   - data: The bytes read.
    ///   - location: Where they were read from, for the error.
    /// - Throws: ``UpgradeStoreError`` with code ``UpgradeStoreError/Code/corrupt`` naming the line,
    ///   the column, the JSON path and what is wrong; its `underlying` error is the parser's.
    private static func checkSyntax(_ data: Data, location: String) throws(UpgradeStoreError) {
        do {
            _ = try JSONParser.parse(Array(data))
        } catch {
            throw UpgradeStoreError(
                code: .corrupt, location: location,
                detail: "not a valid upgrade state document: \(describe(error))\(UpgradeStoreError.leftAsItIs)",
                underlying: error
            )
        }
    }

    /// A JSON syntax error as one line: the JSON path, the line and column, and what is wrong, such
    /// as `at history[3] (line 12, column 5): invalid JSON: duplicate key "to"`.
    ///
    /// - Parameter error: The parser's error.
    /// - Returns: The line.
    private static func describe(_ error: JSONSyntaxError) -> String {
        let path = error.path.components.isEmpty ? "the top level" : error.path.description
        return "at \(path) (line \(error.line), column \(error.column)): invalid JSON: \(error.message)"
    }

    /// A decoding error as one line: the JSON path and what is wrong there.
    public static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text.isEmpty ? "the top level" : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "at \(path(context.codingPath)): expected \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "at \(path(context.codingPath)): expected \(typeName(type)), found null"
        case .keyNotFound(let key, let context):
            return "at \(path(context.codingPath + [key])): missing key \"\(key.stringValue)\""
        case .dataCorrupted(let context):
            var text = "at \(path(context.codingPath)): \(context.debugDescription)"
            if let underlying = context.underlyingError {
                text += " (\(underlying))"
            }
            return text
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        default: "\(type)"
        }
    }
}
