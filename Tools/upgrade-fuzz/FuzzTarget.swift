/// A reader the tool fuzzes, named by the tool's first argument.
enum FuzzTarget: String, CaseIterable, Sendable {
    case version
    case stateDocument = "state-document"
    case fixture
    case installedBase = "installed-base"

    /// Feeds one input to the reader and checks its properties.
    ///
    /// - Parameter input: The input's bytes.
    /// - Returns: The first property that failed, or `nil` when every property held.
    func check(_ input: UnsafeRawBufferPointer) -> PropertyFailure? {
        do {
            switch self {
            case .version: try VersionChecks.check(input)
            case .stateDocument: try StateDocumentChecks.check(input)
            case .fixture: try FixtureChecks.check(input)
            case .installedBase: try InstalledBaseChecks.check(input)
            }
            return nil
        } catch {
            return error
        }
    }
}

/// A property of a reader that did not hold for an input.
struct PropertyFailure: Error, CustomStringConvertible {
    /// The property, in a few words, such as `description reads back`.
    var property: String
    /// What was seen instead.
    var detail: String

    /// `property failed: detail`.
    var description: String { "property \"\(property)\" failed: \(detail)" }
}

/// Throws a ``PropertyFailure`` unless `condition` holds.
///
/// - Parameters:
///   - condition: Whether the property holds.
///   - property: The property, in a few words.
///   - detail: What was seen, built only when the property fails.
@inline(__always)
func require(_ condition: Bool, _ property: String, _ detail: @autoclosure () -> String) throws(PropertyFailure) {
    if !condition { throw PropertyFailure(property: property, detail: detail()) }
}

extension String {
    /// Whether the text begins with `prefix`, byte for byte (`hasPrefix` compares characters, and a
    /// combining mark after the prefix joins its last character).
    func hasBytePrefix(_ prefix: String) -> Bool {
        utf8.starts(with: prefix.utf8)
    }

    /// Whether the text holds `part`, byte for byte.
    func containsBytes(_ part: String) -> Bool {
        let bytes = Array(utf8)
        let wanted = Array(part.utf8)
        guard !wanted.isEmpty else { return true }
        guard bytes.count >= wanted.count else { return false }
        return (0...(bytes.count - wanted.count)).contains { bytes[$0..<($0 + wanted.count)].elementsEqual(wanted) }
    }
}
