import Foundation

extension FileUpgradeStore {
    /// Where the document of a store made with `url` is: its path, its folder and its file name, as
    /// `url.standardizedFileURL`, its `deletingLastPathComponent().path` and its `lastPathComponent`
    /// give them.
    ///
    /// - Parameter url: The document's location.
    /// - Returns: The document's path, the path of its folder, and its file name.
    package static func location(of url: URL) -> (path: String, folder: String, name: String) {
        let found = resolvedLocation(of: url)
        return (found.path, found.folder, found.name)
    }

    /// As ``location(of:)``, with whether the URL is a file URL (a store with another URL refuses
    /// every use).
    static func resolvedLocation(of url: URL) -> (path: String, folder: String, name: String, isFile: Bool) {
        #if !canImport(Darwin)
            // On Linux, Foundation's standardizing costs a fresh process some 0.2 ms the first time (a
            // first protocol-conformance lookup), a cold launch's largest cost. An absolute path without
            // `.`, `..` or empty components, and nothing percent-encoded, is its own standard form: it is
            // only split at its last slash.
            let plain = url.path(percentEncoded: true)
            let components = plain.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            if url.isFileURL, plain.first == "/", !plain.contains("%"),
                !components.contains(where: { ["", ".", ".."].contains($0) }),
                let slash = plain.lastIndex(of: "/")
            {
                let folder = slash == plain.startIndex ? "/" : String(plain[..<slash])
                return (plain, folder, String(plain[plain.index(after: slash)...]), true)
            }
        #endif
        let standardized = url.standardizedFileURL
        return (
            standardized.path, standardized.deletingLastPathComponent().path, standardized.lastPathComponent,
            url.isFileURL
        )
    }
}
