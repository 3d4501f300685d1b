import Foundation
import UpgradeCore

/// The `state-document` target: the input as the bytes of a state document, read by both readers
/// of the package (the hand-written one and the fallback path), with and without the history.
enum StateDocumentChecks {
    static let location = "fuzz-input.json"

    /// Checks the state document readers and writer on one input.
    ///
    /// - Parameter input: The input's bytes.
    /// - Throws: The first property that failed.
    static func check(_ input: UnsafeRawBufferPointer) throws(PropertyFailure) {
        let data = Data(input)
        let full = Result { () throws(UpgradeStoreError) in try UpgradeStateDocument.decode(data, location: location) }
        let light = Result { () throws(UpgradeStoreError) in
            try UpgradeStateDocument.decodeWithoutHistory(data, location: location)
        }
        let fallback = Result { () throws(UpgradeStoreError) in
            try UpgradeStateDocument.decodeByFallbackPath(data, location: location)
        }
        let fast = UpgradeStateDocument.decodeByFastPath(data, withHistory: true)
        let fastLight = UpgradeStateDocument.decodeByFastPath(data, withHistory: false)

        // The public readers agree with each other.
        switch (full, light) {
        case (.success(let state), .success(let lightState)):
            try requireSame(
                lightState, withoutHistory(state), "decodeWithoutHistory reads decode's state less the history")
        case (.failure(let error), .failure(let lightError)):
            try checkError(error)
            try require(
                error.code == lightError.code && error.detail == lightError.detail,
                "decode and decodeWithoutHistory reject with the same error", "\(error) versus \(lightError)")
        case (.success, .failure(let error)):
            throw PropertyFailure(
                property: "decode and decodeWithoutHistory both accept or both reject",
                detail: "decode accepted, decodeWithoutHistory threw \(error)")
        case (.failure(let error), .success):
            throw PropertyFailure(
                property: "decode and decodeWithoutHistory both accept or both reject",
                detail: "decodeWithoutHistory accepted, decode threw \(error)")
        }

        // The hand-written reader: the same documents with history and without, and only what the
        // fallback path reads to the very same state.
        try require(
            (fast == nil) == (fastLight == nil), "the hand-written reader accepts the same with history and without",
            "with history: \(fast == nil ? "declined" : "accepted"), without: \(fastLight == nil ? "declined" : "accepted")"
        )
        if let fast {
            guard case .success(let slow) = fallback else {
                throw PropertyFailure(
                    property: "the fallback path accepts what the hand-written reader accepts",
                    detail: "the fallback path threw \(fallback)")
            }
            try requireSame(fast, slow, "the hand-written reader reads the fallback path's state")
            if let fastLight {
                try requireSame(
                    fastLight, withoutHistory(slow),
                    "the hand-written reader without history reads the fallback path's state")
            }
        }
        // decode is the hand-written reader where it accepts, the fallback path elsewhere.
        switch (full, fallback) {
        case (.success(let state), .success(let slow)):
            try requireSame(state, slow, "decode reads the fallback path's state")
        case (.failure(let error), .failure(let slowError)):
            try require(
                error.code == slowError.code && error.detail == slowError.detail,
                "decode rejects with the fallback path's error", "\(error) versus \(slowError)")
        default:
            throw PropertyFailure(
                property: "decode accepts what the fallback path accepts",
                detail: "decode: \(full), the fallback path: \(fallback)")
        }

        // What is read writes (the writer's bytes are JSONEncoder's) and reads back the same.
        if case .success(let state) = full {
            try checkRoundTrip(state)
        }
    }

    /// `encode` writes JSONEncoder's bytes, and they read back to the same state.
    private static func checkRoundTrip(_ state: UpgradeState) throws(PropertyFailure) {
        let written: Data
        let expected: Data
        do {
            written = try UpgradeStateDocument.encode(state)
            expected = try UpgradeStateDocument.encodeWithJSONEncoder(state)
        } catch {
            throw PropertyFailure(property: "a state that was read can be written", detail: "\(error)")
        }
        try require(
            written == expected, "the writer writes JSONEncoder's bytes",
            "the writer wrote\n\(text(written))\nJSONEncoder wrote\n\(text(expected))")
        do {
            let again = try UpgradeStateDocument.decode(written, location: location)
            try requireSame(again, state, "encode then decode gives back the state")
        } catch let error as PropertyFailure {
            throw error
        } catch {
            throw PropertyFailure(
                property: "encode then decode gives back the state", detail: "\(error); the document:\n\(text(written))"
            )
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

    /// Equal, and equal to the byte (`==` takes `8.8` for `8.8.0` and `-0.0` for `0.0`, and
    /// compares strings by canonical equivalence; the documents they write do not).
    private static func requireSame(_ a: UpgradeState, _ b: UpgradeState, _ property: String) throws(PropertyFailure) {
        try require(a == b, property, "\(a)\nversus\n\(b)")
        let left = try? UpgradeStateDocument.encodeWithJSONEncoder(a)
        let right = try? UpgradeStateDocument.encodeWithJSONEncoder(b)
        try require(
            left != nil && left == right, property,
            "equal, but they write differently:\n\(left.map(text) ?? "nothing")\nversus\n\(right.map(text) ?? "nothing")"
        )
    }

    private static func withoutHistory(_ state: UpgradeState) -> UpgradeState {
        var copy = state
        copy.history = []
        return copy
    }

    private static func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self)
    }
}
