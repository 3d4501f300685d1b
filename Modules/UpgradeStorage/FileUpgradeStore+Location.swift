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
        let standardized = url.standardizedFileURL
        return (
            standardized.path, standardized.deletingLastPathComponent().path, standardized.lastPathComponent,
            url.isFileURL
        )
    }
}
