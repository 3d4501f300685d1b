import Foundation
import StrictJSON
import UpgradeCore
import VersionKit

/// The JSON document a file or defaults store keeps an ``UpgradeState`` in (format 2): only what the
/// launch rules read, typically a few hundred bytes, pretty-printed with sorted keys so that a person
/// can read and diff it.
///
/// ```json
/// {
///   "abandoned": [],
///   "attempts": [{"failed": 1, "id": "move-settings", "interrupted": true, "version": "2.0"}],
///   "completed": [{"id": "appUpgradeTo_1_1", "version": "1.1"}],
///   "format": 2,
///   "inProgress": null,
///   "lastLaunched": "2.0",
///   "upgradedThrough": "1.0"
/// }
/// ```
///
/// Read strictly, by the package's one parser (``JSONParser``) and shape readers (``JSONShape``):
/// the document must be strict JSON (RFC 8259: no duplicate key, trailing comma, comment, invalid
/// UTF-8 or text after the document), with every key present once, nothing unknown, and values of
/// the right type and range. Any fault is an `UpgradeStoreError` naming the location, the JSON path,
/// the line and the column. An `attempts` entry may have `"failed": 0` only with `"interrupted": true`:
/// the last attempt was interrupted and not counted (a format 2 document without such an entry
/// reads the same either way). Format 1 (which held the history of launches inside the state) is still
/// read, with its history, so that the store moves the history beside the state at its next write; a
/// newer format is reported as such and never overwritten. Written by ``JSONWriter``.
package enum StateDocument {
    /// The format this code writes.
    package static let format = 2
    /// The largest document read: a state this package wrote is far smaller, so a larger file is
    /// refused by its size before it is read.
    package static let maximumSize = 8 << 20

    /// A document as read: the state, and the history a format-1 document carried.
    package struct Contents: Sendable, Hashable {
        /// The state.
        package var state: UpgradeState
        /// The launch history of a format-1 document, oldest first; `nil` for format 2.
        package var legacyHistory: [LaunchRecord]?
    }

    /// Encodes a state as a format-2 document.
    ///
    /// - Parameter state: The state.
    /// - Returns: The document's UTF-8 bytes, ending with a newline.
    package static func encode(_ state: UpgradeState) -> Data {
        Data(bytes(state))
    }

    /// Encodes a state as a format-2 document, as ``encode(_:)`` does, into an array.
    ///
    /// - Parameter state: The state.
    /// - Returns: The document's UTF-8 bytes, ending with a newline.
    package static func bytes(_ state: UpgradeState) -> [UInt8] {
        JSONWriter.prettyBytes(value(state)) + [UInt8(ascii: "\n")]
    }

    /// A step record as the JSON value a document holds.
    static func value(_ record: StepRecord) -> JSONValue {
        .object(JSONObject(entries: [("id", .string(record.id)), ("version", .string(record.version.description))]))
    }

    /// A state as the JSON value a document holds, its keys sorted.
    package static func value(_ state: UpgradeState) -> JSONValue {
        func version(_ version: Version?) -> JSONValue { version.map { .string($0.description) } ?? .null }
        func records(_ records: [StepRecord]) -> JSONValue { .array(records.map(value)) }
        let attempts = state.attempts.map { entry in
            JSONValue.object(
                JSONObject(entries: [
                    ("failed", .integer(entry.failed)), ("id", .string(entry.id)),
                    ("interrupted", .bool(entry.lastAttemptInterrupted)), ("version", version(entry.version)),
                ]))
        }
        let running = state.inProgress.map { running in
            JSONValue.object(
                JSONObject(entries: [
                    ("attempt", .integer(running.attempt)), ("id", .string(running.id)),
                    ("version", version(running.version)),
                ]))
        }
        return .object(
            JSONObject(entries: [
                ("abandoned", records(state.abandoned)), ("attempts", .array(attempts)),
                ("completed", records(state.completed)), ("format", .integer(format)),
                ("inProgress", running ?? .null), ("lastLaunched", version(state.lastLaunched)),
                ("upgradedThrough", version(state.upgradedThrough)),
            ]))
    }

    /// Decodes a document.
    ///
    /// - Parameters:
    ///   - data: The bytes read.
    ///   - location: Where they were read from, for errors.
    /// - Returns: The state, and a format-1 document's history.
    /// - Throws: `UpgradeStoreError` with code `corrupt` (too large, not strict JSON, or not a valid
    ///   state), naming the JSON path, line and column of the fault; or `unsupportedFormat` for a
    ///   newer format.
    package static func decode(_ data: Data, location: String) throws(UpgradeStoreError) -> Contents {
        try decode([UInt8](data), location: location)
    }

    /// Decodes a document from its bytes, as the `Data` form does.
    ///
    /// - Parameters:
    ///   - bytes: The bytes read.
    ///   - location: Where they were read from, for errors.
    /// - Returns: The state, and a format-1 document's history.
    /// - Throws: As the `Data` form does.
    package static func decode(_ bytes: [UInt8], location: String) throws(UpgradeStoreError) -> Contents {
        if bytes.count > maximumSize { throw tooLarge(bytes.count, location: location) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw corrupt(
                "at \(describe(error.path)) (line \(error.line), column \(error.column)): invalid JSON: \(error.message)",
                location: location, underlying: error)
        }
        // The format first: a newer format may have another shape, and is reported as such.
        if case .object(let object) = value, case .integer(let found)? = object["format"], found > format {
            throw UpgradeStoreError(
                code: .unsupportedFormat(found: found, supported: format), location: location,
                detail: "the state has format \(found), but this version of AppUpgrade reads format \(format) at most;"
                    + " it was written by a newer version of the app\(UpgradeStoreError.leftAsItIs)")
        }
        do {
            return try contents(value, shape: JSONShape())
        } catch {
            let position = JSONParser.locate(error.path, in: bytes).map { " (line \($0.line), column \($0.column))" }
            throw corrupt("at \(describe(error.path))\(position ?? ""): \(error.message)", location: location)
        }
    }

    /// Decodes the document a write would replace, as `decode` does, with errors that say the new
    /// state was not written over it.
    ///
    /// - Returns: The document's contents: a format-1 document's history is moved beside the state.
    package static func decodeReplaced(_ bytes: [UInt8], location: String) throws(UpgradeStoreError) -> Contents {
        do {
            return try decode(bytes, location: location)
        } catch {
            throw error.reworded(ending: "; the new state was not written over it")
        }
    }

    /// The error for a document larger than ``maximumSize``.
    package static func tooLarge(_ size: Int, location: String) -> UpgradeStoreError {
        corrupt(
            "it is \(size) bytes, more than the \(maximumSize >> 20) MiB a state document can be", location: location)
    }

    /// The keys of a state document.
    private static let keys = [
        "abandoned", "attempts", "completed", "format", "inProgress", "lastLaunched", "upgradedThrough",
    ]

    /// The contents of a parsed document; a value that is not as expected is a ``JSONShapeFault``.
    private static func contents(_ value: JSONValue, shape: JSONShape) throws(JSONShapeFault) -> Contents {
        let top = JSONPath()
        guard case .object(let found) = value else {
            throw shape.failure(top, "expected an object, found \(shape.describe(value))")
        }
        guard let formatValue = found["format"] else {
            throw shape.failure(top, "missing the required key \"format\"")
        }
        let legacy =
            try shape.integer(formatValue, at: top.appending("format"), minimum: 1, what: "the format") == 1
        let object = try shape.object(value, at: top, keys: legacy ? keys + ["history"] : keys, required: keys)
        func at(_ key: String) -> JSONPath { top.appending(key) }
        var state = UpgradeState(
            upgradedThrough: try shape.optionalVersion(object["upgradedThrough"]!, at: at("upgradedThrough")),
            lastLaunched: try shape.optionalVersion(object["lastLaunched"]!, at: at("lastLaunched")))
        state.completed = try records(object["completed"]!, at: at("completed"), shape: shape)
        state.abandoned = try records(object["abandoned"]!, at: at("abandoned"), shape: shape)
        for (index, element) in try shape.array(object["attempts"]!, at: at("attempts")).enumerated() {
            let path = at("attempts").appending(index)
            let fields = ["failed", "id", "interrupted", "version"]
            let entry = try shape.object(element, at: path, keys: fields, required: fields)
            // 0 failed attempts: an entry that only says the last attempt was interrupted and not
            // counted (<doc:LaunchAlgorithm>, "Interruptions"); it needs `interrupted`.
            let failed = try shape.integer(
                entry["failed"]!, at: path.appending("failed"), minimum: 0, what: "a failed-attempt count")
            let interrupted = try shape.bool(entry["interrupted"]!, at: path.appending("interrupted"))
            if failed == 0 && !interrupted {
                throw shape.failure(
                    path.appending("failed"), "a failed-attempt count of 0 is only valid with \"interrupted\": true")
            }
            state.attempts.append(
                StepAttempts(
                    id: try shape.string(entry["id"]!, at: path.appending("id")),
                    version: try shape.version(entry["version"]!, at: path.appending("version")),
                    failed: failed, lastAttemptInterrupted: interrupted))
        }
        if let running = object["inProgress"], !running.isNull {
            let path = at("inProgress")
            let fields = ["attempt", "id", "version"]
            let entry = try shape.object(running, at: path, keys: fields, required: fields)
            state.inProgress = StepInProgress(
                id: try shape.string(entry["id"]!, at: path.appending("id")),
                version: try shape.version(entry["version"]!, at: path.appending("version")),
                attempt: try shape.integer(
                    entry["attempt"]!, at: path.appending("attempt"), minimum: 1, what: "an attempt number"))
        }
        var history: [LaunchRecord]?
        if legacy, let list = object["history"] {
            let path = at("history")
            history = try shape.array(list, at: path).enumerated().map { (index, value) throws(JSONShapeFault) in
                try LaunchHistoryLine.record(value, at: path.appending(index), shape: shape)
            }
        }
        return Contents(state: state, legacyHistory: history)
    }

    /// A list of step records.
    private static func records(_ list: JSONValue, at path: JSONPath, shape: JSONShape) throws(JSONShapeFault)
        -> [StepRecord]
    {
        try shape.array(list, at: path).enumerated().map { (index, element) throws(JSONShapeFault) in
            let here = path.appending(index)
            let record = try shape.object(element, at: here, keys: ["id", "version"], required: ["id", "version"])
            return StepRecord(
                id: try shape.string(record["id"]!, at: here.appending("id")),
                version: try shape.version(record["version"]!, at: here.appending("version")))
        }
    }

    private static func describe(_ path: JSONPath) -> String {
        path.components.isEmpty ? "the top level" : path.description
    }

    private static func corrupt(_ problem: String, location: String, underlying: (any Error)? = nil)
        -> UpgradeStoreError
    {
        UpgradeStoreError(
            code: .corrupt, location: location,
            detail: "not a valid upgrade state document: \(problem)\(UpgradeStoreError.leftAsItIs)",
            underlying: underlying)
    }
}
