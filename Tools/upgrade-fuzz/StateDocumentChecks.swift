import Foundation
import UpgradeCore
import UpgradeStorage

/// The `state-document` target: the input as the bytes of a state document, read by the package's
/// one state document codec (UpgradeStorage's `StateDocument`), and as a line of the launch history.
enum StateDocumentChecks {
    static let location = "fuzz-input.json"

    /// Checks the state document codec and the history line codec on one input.
    ///
    /// - Parameter input: The input's bytes.
    /// - Throws: The first property that failed.
    static func check(_ input: UnsafeRawBufferPointer) throws(PropertyFailure) {
        let data = Data(input)
        switch Result(catching: { () throws(UpgradeStoreError) in try StateDocument.decode(data, location: location) })
        {
        case .success(let contents):
            try checkRoundTrip(contents.state)
            for record in contents.legacyHistory ?? [] { try checkRoundTrip(record) }
        case .failure(let error):
            try checkError(error)
        }
        // The same bytes as one line of the history: what reads, writes and reads back the same.
        if let record = try? LaunchHistoryLine.decode(input) {
            try checkRoundTrip(record)
        }
    }

    /// The state writes, and what is written reads back to the same state and writes the same bytes.
    private static func checkRoundTrip(_ state: UpgradeState) throws(PropertyFailure) {
        let written = StateDocument.encode(state)
        let again: StateDocument.Contents
        do {
            again = try StateDocument.decode(written, location: location)
        } catch {
            throw PropertyFailure(
                property: "encode then decode gives back the state", detail: "\(error); the document:\n\(text(written))"
            )
        }
        try require(again.state == state, "encode then decode gives back the state", "\(again.state)\nversus\n\(state)")
        try require(again.legacyHistory == nil, "a written document is of the current format", text(written))
        let rewritten = StateDocument.encode(again.state)
        try require(
            rewritten == written, "a state read back writes the same bytes",
            "first\n\(text(written))\nthen\n\(text(rewritten))")
    }

    /// A launch record writes as one line, which reads back to the same record and the same line.
    private static func checkRoundTrip(_ record: LaunchRecord) throws(PropertyFailure) {
        let line = LaunchHistoryLine.encode(record)
        try require(!line.utf8.contains(UInt8(ascii: "\n")), "a history line has no line break", line)
        do {
            let again = try LaunchHistoryLine.decode(Array(line.utf8))
            try require(
                LaunchHistoryLine.encode(again) == line, "a history line read back writes the same line", line)
        } catch {
            throw PropertyFailure(property: "a history line reads back", detail: "\(error); the line: \(line)")
        }
    }

    /// A rejection is a store error about the document, worded with its location.
    private static func checkError(_ error: UpgradeStoreError) throws(PropertyFailure) {
        switch error.code {
        case .corrupt, .unsupportedFormat: break
        default:
            throw PropertyFailure(property: "a bad document is .corrupt or .unsupportedFormat", detail: "\(error)")
        }
        try require(
            error.location == location && error.description.hasBytePrefix(location + ": ") && !error.detail.isEmpty,
            "the error names the location and says what is wrong", "\(error)")
    }

    private static func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self)
    }
}
