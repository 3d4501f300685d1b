import StrictJSON
import UpgradeCore
import VersionKit

/// One ``LaunchRecord`` as one line of JSON: how the file store's `NAME.history.jsonl` and the
/// defaults store's history key keep the history, and how a format-1 state document held it.
///
/// ```json
/// {"from": "1.0", "outcome": "upgraded", "steps": [{"abandoned": false, "attempt": 1, "id": "appUpgradeTo_1_1", "milliseconds": 0.4, "result": "completed"}], "time": 1764553800.5, "to": "1.1"}
/// ```
package enum LaunchHistoryLine {
    /// A fault in a history line: its JSON path and what is wrong.
    package struct Fault: Error, CustomStringConvertible {
        /// Where in the line.
        package var path: JSONPath
        /// What is wrong.
        package var message: String

        /// The fault as one phrase, such as `at steps[0].attempt: expected a whole number`.
        package var description: String {
            "\(path.components.isEmpty ? "" : "at \(path): ")\(message)"
        }
    }

    /// Encodes a record as one line of JSON, without the line break.
    ///
    /// - Parameter record: The record.
    /// - Returns: The line.
    package static func encode(_ record: LaunchRecord) -> String {
        JSONWriter.compact(value(record))
    }

    /// Encodes records as lines of JSON, each with its line break: what a store appends.
    ///
    /// - Parameter records: The records.
    /// - Returns: The lines' UTF-8 bytes.
    package static func lines(_ records: [LaunchRecord]) -> [UInt8] {
        records.flatMap { JSONWriter.compactBytes(value($0)) + [UInt8(ascii: "\n")] }
    }

    /// A record as the JSON value its line holds, its keys sorted.
    package static func value(_ record: LaunchRecord) -> JSONValue {
        func number(_ value: Double) -> JSONValue { .number(value.isFinite ? value.description : "0") }
        let steps = record.steps.map { step in
            JSONValue.object(
                JSONObject(entries: [
                    ("abandoned", .bool(step.abandoned)), ("attempt", .integer(step.attempt)), ("id", .string(step.id)),
                    ("milliseconds", number(step.milliseconds)), ("result", .string(step.result.rawValue)),
                ]))
        }
        return .object(
            JSONObject(entries: [
                ("from", record.from.map { .string($0.description) } ?? .null),
                ("outcome", .string(record.outcome.rawValue)), ("steps", .array(steps)),
                ("time", number(record.time)), ("to", .string(record.to.description)),
            ]))
    }

    /// Decodes one line.
    ///
    /// - Parameter line: The line's bytes, without the line break.
    /// - Returns: The record.
    /// - Throws: ``Fault`` when the line is not strict JSON or not a valid record.
    package static func decode(_ line: some Collection<UInt8>) throws(Fault) -> LaunchRecord {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(line))
        } catch {
            throw Fault(path: error.path, message: "invalid JSON: \(error.message) (column \(error.column))")
        }
        do {
            return try record(value, at: JSONPath(), shape: JSONShape())
        } catch {
            throw Fault(path: error.path, message: error.message)
        }
    }

    /// Decodes a store's history, one record a line.
    ///
    /// - Parameters:
    ///   - lines: The lines, oldest first, each with the name an error gives it (`line 3`, `entry 2`).
    ///   - location: Where they were read from, for errors.
    /// - Returns: The records.
    /// - Throws: `UpgradeStoreError` with code `corrupt`, naming the location and the line, for a line
    ///   that is not a record; the history is left as it is.
    package static func records(_ lines: [(name: String, bytes: some Collection<UInt8>)], location: String)
        throws(UpgradeStoreError) -> [LaunchRecord]
    {
        var records: [LaunchRecord] = []
        for line in lines {
            do {
                records.append(try decode(line.bytes))
            } catch {
                throw UpgradeStoreError(
                    code: .corrupt, location: location,
                    detail: "\(line.name) is not a launch record: \(error); it is left as it is", underlying: error)
            }
        }
        return records
    }

    /// Reads a record out of a parsed value, as a history line or an element of a format-1 state
    /// document's `history`.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - path: Its path, for errors.
    ///   - shape: The typed readers.
    /// - Returns: The record.
    /// - Throws: ``JSONShapeFault`` for any fault.
    package static func record(_ value: JSONValue, at path: JSONPath, shape: JSONShape)
        throws(JSONShapeFault) -> LaunchRecord
    {
        let keys = ["from", "outcome", "steps", "time", "to"]
        let object = try shape.object(value, at: path, keys: keys, required: keys)
        let outcomeText = try shape.string(object["outcome"]!, at: path.appending("outcome"))
        guard let outcome = UpgradeOutcome(rawValue: outcomeText) else {
            let names = UpgradeOutcome.allCases.map(\.rawValue).joined(separator: ", ")
            throw shape.failure(path.appending("outcome"), "expected one of \(names), found \"\(outcomeText)\"")
        }
        let stepsPath = path.appending("steps")
        var steps: [LaunchRecord.RecordedStep] = []
        for (index, element) in try shape.array(object["steps"]!, at: stepsPath).enumerated() {
            let here = stepsPath.appending(index)
            let stepKeys = ["abandoned", "attempt", "id", "milliseconds", "result"]
            let step = try shape.object(element, at: here, keys: stepKeys, required: stepKeys)
            let resultText = try shape.string(step["result"]!, at: here.appending("result"))
            guard let result = StepReport.Result.Kind(rawValue: resultText) else {
                throw shape.failure(
                    here.appending("result"), "expected completed, failed or notRun, found \"\(resultText)\"")
            }
            steps.append(
                LaunchRecord.RecordedStep(
                    id: try shape.string(step["id"]!, at: here.appending("id")),
                    attempt: try shape.integer(
                        step["attempt"]!, at: here.appending("attempt"), minimum: 0, what: "an attempt number"),
                    result: result, abandoned: try shape.bool(step["abandoned"]!, at: here.appending("abandoned")),
                    milliseconds: try shape.number(step["milliseconds"]!, at: here.appending("milliseconds"))))
        }
        return LaunchRecord(
            time: try shape.number(object["time"]!, at: path.appending("time")),
            from: try shape.optionalVersion(object["from"]!, at: path.appending("from")),
            to: try shape.version(object["to"]!, at: path.appending("to")), outcome: outcome, steps: steps)
    }
}
