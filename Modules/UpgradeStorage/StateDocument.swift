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
/// Read strictly: the document must be strict JSON (RFC 8259: no duplicate key, trailing comma,
/// comment, invalid UTF-8 or text after the document), with every key present once, nothing unknown,
/// and values of the right type and range. Any fault is an `UpgradeStoreError` naming the location,
/// the JSON path, the line and the column. Format 1 (which held the history of launches inside the
/// state) is still read, with its history, so that the store moves the history beside the state at
/// its next write; a newer format is reported as such and never overwritten.
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
        Data((JSONWriter.pretty(json(state)) + "\n").utf8)
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
        if data.count > maximumSize { throw tooLarge(data.count, location: location) }
        // Copied in one go: iterating `Data` byte by byte would cost more than parsing the document.
        let bytes = data.withUnsafeBytes { [UInt8]($0) }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw corrupt(
                "at \(describe(error.path)) (line \(error.line), column \(error.column)): invalid JSON: \(error.message)",
                location: location, underlying: error)
        }
        // The format first: a newer format may have another shape, and is reported as such.
        if case .object(let object) = root, case .integer(let found)? = object["format"], found > format {
            throw UpgradeStoreError(
                code: .unsupportedFormat(found: found, supported: format), location: location,
                detail: "the state has format \(found), but this version of AppUpgrade reads format \(format) at most;"
                    + " it was written by a newer version of the app\(UpgradeStoreError.leftAsItIs)")
        }
        do {
            return try contents(root, shape: JSONShape { ShapeFault(path: $0, message: $1) })
        } catch {
            let position = JSONParser.locate(error.path, in: bytes).map { " (line \($0.line), column \($0.column))" }
            throw corrupt("at \(describe(error.path))\(position ?? ""): \(error.message)", location: location)
        }
    }

    /// The error for a document larger than ``maximumSize``.
    package static func tooLarge(_ size: Int, location: String) -> UpgradeStoreError {
        corrupt(
            "it is \(size) bytes, more than the \(maximumSize >> 20) MiB a state document can be", location: location)
    }

    // MARK: - The mapping

    /// A fault in the shape of a parsed document.
    private struct ShapeFault: Error {
        var path: JSONPath
        var message: String
    }

    private static let keys = [
        "abandoned", "attempts", "completed", "format", "inProgress", "lastLaunched", "upgradedThrough",
    ]

    private static func json(_ state: UpgradeState) -> JSONValue {
        func version(_ version: Version?) -> JSONValue { version.map { .string($0.description) } ?? .null }
        func records(_ records: [StepRecord]) -> JSONValue {
            .array(
                records.map {
                    .object(JSONObject(entries: [("id", .string($0.id)), ("version", version($0.version))]))
                })
        }
        let attempts = state.attempts.map { entry in
            JSONValue.object(
                JSONObject(entries: [
                    ("failed", .integer(entry.failed)), ("id", .string(entry.id)),
                    ("interrupted", .bool(entry.lastAttemptInterrupted)), ("version", version(entry.version)),
                ]))
        }
        let inProgress = state.inProgress.map { running in
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
                ("inProgress", inProgress ?? .null), ("lastLaunched", version(state.lastLaunched)),
                ("upgradedThrough", version(state.upgradedThrough)),
            ]))
    }

    private static func contents(_ root: JSONValue, shape: JSONShape<ShapeFault>) throws(ShapeFault) -> Contents {
        let top = JSONPath()
        guard case .object(let object) = root else {
            throw shape.failure(top, "expected an object, found \(shape.describe(root))")
        }
        guard let formatValue = object["format"] else {
            throw shape.failure(top, "missing the required key \"format\"")
        }
        let found = try shape.integer(formatValue, at: top.appending("format"), minimum: 1, what: "the format")
        let legacy = found == 1
        _ = try shape.object(root, at: top, keys: legacy ? keys + ["history"] : keys, required: keys)
        // Paths are written out where they are used: each is an autoclosure, built only for an error.
        func at(_ key: String) -> JSONPath { top.appending(key) }
        var state = UpgradeState(
            upgradedThrough: try shape.optionalVersion(object["upgradedThrough"]!, at: at("upgradedThrough")),
            lastLaunched: try shape.optionalVersion(object["lastLaunched"]!, at: at("lastLaunched")))
        state.completed = try records(object["completed"]!, at: at("completed"), shape: shape)
        state.abandoned = try records(object["abandoned"]!, at: at("abandoned"), shape: shape)
        for (index, value) in try shape.array(object["attempts"]!, at: at("attempts")).enumerated() {
            func here(_ key: String) -> JSONPath { at("attempts").appending(index).appending(key) }
            let entry = try shape.object(
                value, at: at("attempts").appending(index), keys: ["failed", "id", "interrupted", "version"],
                required: ["failed", "id", "interrupted", "version"])
            state.attempts.append(
                StepAttempts(
                    id: try shape.string(entry["id"]!, at: here("id")),
                    version: try shape.version(entry["version"]!, at: here("version")),
                    failed: try shape.integer(
                        entry["failed"]!, at: here("failed"), minimum: 1, what: "a failed-attempt count"),
                    lastAttemptInterrupted: try shape.bool(entry["interrupted"]!, at: here("interrupted"))))
        }
        if let running = object["inProgress"], !running.isNull {
            let entry = try shape.object(
                running, at: at("inProgress"), keys: ["attempt", "id", "version"],
                required: ["attempt", "id", "version"])
            state.inProgress = StepInProgress(
                id: try shape.string(entry["id"]!, at: at("inProgress").appending("id")),
                version: try shape.version(entry["version"]!, at: at("inProgress").appending("version")),
                attempt: try shape.integer(
                    entry["attempt"]!, at: at("inProgress").appending("attempt"), minimum: 1,
                    what: "an attempt number"))
        }
        var history: [LaunchRecord]?
        if legacy, let list = object["history"] {
            let path = at("history")
            history = try shape.array(list, at: path).enumerated().map { (index, value) throws(ShapeFault) in
                try LaunchHistoryLine.record(value, at: path.appending(index), shape: shape)
            }
        }
        return Contents(state: state, legacyHistory: history)
    }

    private static func records(
        _ value: JSONValue, at path: @autoclosure () -> JSONPath, shape: JSONShape<ShapeFault>
    ) throws(ShapeFault) -> [StepRecord] {
        try shape.array(value, at: path()).enumerated().map { (index, element) throws(ShapeFault) in
            let entry = try shape.object(
                element, at: path().appending(index), keys: ["id", "version"], required: ["id", "version"])
            return StepRecord(
                id: try shape.string(entry["id"]!, at: path().appending(index).appending("id")),
                version: try shape.version(entry["version"]!, at: path().appending(index).appending("version")))
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
