import VersionKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The state document is read on every launch and written several times by a launch that runs a
// step, so the common case has a hand-written reader (StateDocumentReader.swift) and writer
// (StateDocumentWriter.swift) over bytes. On a state with a full history of 50 launches (20 KB) the
// reader is about 40 times faster than JSONDecoder and the writer about 10 times faster than
// JSONEncoder (`upgrade-bench --filter launch`).
//
// The reader is deliberately narrow. It accepts only a document that the Codable path would also
// accept and read to the very same state: every key present exactly once, nothing unknown, values of
// the right JSON type and range, strings without escapes or control characters, numbers it can read
// exactly. On anything else (any fault, but also anything merely unusual, such as an escaped
// character or a number with 20 digits) it gives up and the caller runs the Codable path, which then
// accepts or rejects the document and words the error. So the fast path never accepts what the
// Codable path rejects, and every error still comes from one place.
//
// The writer produces the bytes JSONEncoder produces with `[.prettyPrinted, .sortedKeys,
// .withoutEscapingSlashes]`, for every state whose strings need no escaping and whose numbers are
// finite; for any other state it gives up and the caller runs JSONEncoder.

/// The hand-written reader and writer of the state document's common case.
enum StateDocumentFastPath {
    /// Reads a document, or returns `nil` when the Codable path must decide.
    ///
    /// - Parameter data: The document's bytes.
    /// - Returns: The state, exactly as the Codable path would read it; `nil` to fall back.
    static func decode(_ data: Data) -> UpgradeState? {
        decode(data, withHistory: true)
    }

    /// Reads a document with its history validated but not built, or returns `nil` when the
    /// Codable path must decide.
    ///
    /// It accepts exactly the documents ``decode(_:)`` accepts (the history is checked member by
    /// member with the same rules), and reads each to the same state with an empty `history`.
    ///
    /// - Parameter data: The document's bytes.
    /// - Returns: The state without its history; `nil` to fall back.
    static func decodeWithoutHistory(_ data: Data) -> UpgradeState? {
        decode(data, withHistory: false)
    }

    private static func decode(_ data: Data, withHistory: Bool) -> UpgradeState? {
        data.withUnsafeBytes { raw -> UpgradeState? in
            guard let base = raw.baseAddress, raw.count > 0 else { return nil }
            var reader = StateDocumentReader(base: base.assumingMemoryBound(to: UInt8.self), count: raw.count)
            do {
                return try reader.document(withHistory: withHistory)
            } catch {
                return nil
            }
        }
    }

    /// Writes a document, or returns `nil` when JSONEncoder must write it (a string that needs
    /// escaping, a number that is not finite).
    ///
    /// - Parameter state: The state to write.
    /// - Returns: The bytes JSONEncoder would write; `nil` to fall back.
    static func encode(_ state: UpgradeState) -> Data? {
        StateDocumentWriter().document(state)
    }
}
