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
// The reader is deliberately narrow. It accepts only a document that is strict JSON and that the
// Codable path would also accept and read to the very same state: every key present exactly once,
// nothing unknown, values of the right JSON type and range, strings of valid UTF-8 without escapes or
// control characters, numbers it can read exactly, nothing after the document. On anything else (any
// fault, but also anything merely unusual, such as an escaped character or a number with 20 digits)
// it gives up, and the caller (`UpgradeStateDocument.decode`) runs the fallback path, where every
// error comes from:
//
// 1. The package's strict JSON parser (JSON/JSONParser.swift) checks the syntax. JSONDecoder alone
//    would take a duplicate key (one of its values silently wins) and a trailing comma, and words
//    every other syntax fault only as "not valid JSON"; the parser rejects both, and every other
//    fault (a comment, text after the document, invalid UTF-8, a lone surrogate escape, `NaN`), as a
//    `.corrupt` error naming the line, the column and the JSON path.
// 2. The Codable path (UpgradeState+Codable.swift) then accepts or rejects the document, reports a
//    newer format, and words every other error with its JSON path.
//
// So the fast path never accepts what the fallback path rejects, and the check costs it nothing: it
// runs only on a document the reader declines.
//
// The writer produces the bytes JSONEncoder produces with `[.prettyPrinted, .sortedKeys,
// .withoutEscapingSlashes]`, for every state whose strings need no escaping and whose numbers are
// finite; for any other state it gives up and the caller runs JSONEncoder.
//
// `upgrade-fuzz state-document` (Tools/upgrade-fuzz, CONTRIBUTING.md "Fuzzing") checks this contract
// on fuzzed documents, through `UpgradeStateDocument.decodeByFastPath(_:withHistory:)`,
// `decodeByFallbackPath(_:location:)` and `encodeWithJSONEncoder(_:)`: what the reader accepts, with
// history and without, the fallback path reads to the very same state, and the writer's bytes are
// JSONEncoder's.

/// The hand-written reader and writer of the state document's common case.
enum StateDocumentFastPath {
    /// Reads a document, or returns `nil` when the fallback path must decide.
    ///
    /// - Parameter data: The document's bytes.
    /// - Returns: The state, exactly as the fallback path would read it; `nil` to fall back.
    static func decode(_ data: Data) -> UpgradeState? {
        decode(data, withHistory: true)
    }

    /// Reads a document with its history validated but not built, or returns `nil` when the
    /// fallback path must decide.
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
