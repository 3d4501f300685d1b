import Foundation
import UpgradeFixtures

/// The `fixture` target: the input as the bytes of a fixture file, read as `upgrade-sim` reads one.
enum FixtureChecks {
    static let file = "fuzz-input.json"

    /// Checks the fixture reader on one input.
    ///
    /// - Parameter input: The input's bytes.
    /// - Throws: The first property that failed.
    static func check(_ input: UnsafeRawBufferPointer) throws(PropertyFailure) {
        let data = Data(input)
        let read = Result { () throws(FixtureError) in try FixtureLoader.decode(data, file: file) }
        // The text reader agrees with the bytes reader wherever the bytes are valid UTF-8.
        if let text = try validUTF8(data) {
            let fromText = Result { () throws(FixtureError) in try FixtureLoader.decode(text, file: file) }
            try require(fromText == read, "the text reader agrees with the bytes reader", "\(fromText) versus \(read)")
        }
        switch read {
        case .failure(let error):
            try checkError(error)
        case .success(let fixture):
            try require(
                fixture.file == file, "the fixture names its file", "it names \(String(describing: fixture.file))")
            let written = fixture.jsonText
            let again = Result { () throws(FixtureError) in try FixtureLoader.decode(written, file: file) }
            try require(
                again == .success(fixture), "jsonText reads back to the same fixture",
                "\(again) from\n\(written)")
        }
    }

    /// The input as text when it is valid UTF-8: `String(validating:as:)` where the system has it
    /// (macOS 15, iOS 18 and later), the standard library's repairing decoder before (the bytes come
    /// back unchanged only when they were valid). Where both exist they must agree, so that the
    /// corpus replay covers the older systems' path too.
    private static func validUTF8(_ data: Data) throws(PropertyFailure) -> String? {
        let decoded = String(decoding: data, as: UTF8.self)
        let older = decoded.utf8.elementsEqual(data) ? decoded : nil
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let validated = String(validating: data, as: UTF8.self)
            try require(
                validated == older, "the UTF-8 check of systems before macOS 15 agrees with String(validating:as:)",
                "\(String(describing: older)) versus \(String(describing: validated))")
            return validated
        }
        return older
    }

    /// The error names the file, and the place: a line and column for a syntax error, or the JSON
    /// path (empty for the document as a whole), and says what is wrong.
    private static func checkError(_ error: FixtureError) throws(PropertyFailure) {
        try require(
            error.file == file && error.description.hasBytePrefix(file + ":"), "the error names the file", "\(error)")
        try require((error.line == nil) == (error.column == nil), "a syntax error has a line and a column", "\(error)")
        if let line = error.line, let column = error.column {
            try require(line >= 1 && column >= 1, "a syntax error's line and column count from 1", "\(error)")
            try require(
                error.description.hasBytePrefix("\(file):\(line):\(column): "), "the error names the line and column",
                "\(error)")
        }
        try require(!error.message.isEmpty, "the error says what is wrong", "\(error)")
        if !error.path.isEmpty {
            try require(
                error.description.containsBytes(": \(error.path): "), "the error names the JSON path",
                "\(error)")
        }
    }
}
