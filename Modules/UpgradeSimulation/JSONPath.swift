import StrictJSON

/// A location in a JSON document, such as the ``FixtureError/path`` of a fault in a fixture, rendered
/// as `histories[2].launches[0]`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path: an object key or a list index.
    public enum Component: Sendable, Hashable {
        /// The value under a key of an object.
        case key(String)
        /// The value at an index of a list, from 0.
        case index(Int)
    }

    /// The steps from the top of the document; empty for the document itself.
    public var components: [Component]

    /// Creates a path.
    ///
    /// - Parameter components: The steps from the top of the document.
    public init(_ components: [Component] = []) { self.components = components }

    /// The path the package's JSON reader tracked.
    package init(_ path: StrictJSON.JSONPath) {
        components = path.components.map {
            switch $0 {
            case .key(let key): .key(key)
            case .index(let index): .index(index)
            }
        }
    }

    /// The path extended by a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The longer path.
    public func appending(_ key: String) -> JSONPath { JSONPath(components + [.key(key)]) }

    /// The path extended by a list index.
    ///
    /// - Parameter index: The index, from 0.
    /// - Returns: The longer path.
    public func appending(_ index: Int) -> JSONPath { JSONPath(components + [.index(index)]) }

    /// The path as written in messages: `histories[2].launches[0]`; a key that is not a plain name
    /// is quoted, as in `steps[0]["odd key"]`; the document itself is the empty string.
    public var description: String {
        StrictJSON.JSONPath(
            components.map {
                switch $0 {
                case .key(let key): .key(key)
                case .index(let index): .index(index)
                }
            }
        ).description
    }
}
