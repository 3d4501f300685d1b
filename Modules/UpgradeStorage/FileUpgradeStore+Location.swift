import Foundation

extension FileUpgradeStore {
    /// Where the document of a store made with `url` is: its path, its folder and its file name, as
    /// `url.standardizedFileURL`, its `deletingLastPathComponent().path` and its `lastPathComponent`
    /// give them.
    ///
    /// Every app makes a store at each cold start, and the first `standardizedFileURL` of a process
    /// costs far more than the launch's own reading (Foundation's generic types are instantiated and
    /// their protocol conformances looked up, once per process). So a plain absolute path, the common
    /// case, is standardized here: empty and `.` components dropped, nothing else changed, which is
    /// all that Foundation does to such a path. Foundation still standardizes the rest, where it
    /// consults the file system: a `..` component (Foundation resolves the symbolic links of a path
    /// that has one before it removes the `..`), an automounted prefix (`/private/...` and
    /// `/var/automount/...` lose that prefix when the shorter path exists), a relative path, and a
    /// URL that is not a file URL (whose path is kept as it is, and refused at the store's first use).
    ///
    /// - Parameter url: The document's location.
    /// - Returns: The document's path, the path of its folder, and its file name.
    package static func location(of url: URL) -> (path: String, folder: String, name: String) {
        if url.isFileURL, let plain = plainLocation(url.path) { return plain }
        let standardized = url.standardizedFileURL
        return (standardized.path, standardized.deletingLastPathComponent().path, standardized.lastPathComponent)
    }

    /// The location of a plain absolute path: one that starts with `/`, has a component other than
    /// `.`, and has no `..` component and no automounted prefix.
    ///
    /// - Parameter path: A file URL's path.
    /// - Returns: The path without empty or `.` components (and so without a trailing `/`), its folder
    ///   and its last component; `nil` when the path is not plain.
    package static func plainLocation(_ path: String) -> (path: String, folder: String, name: String)? {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        let bytes = path.utf8
        guard bytes.first == slash else { return nil }
        var folder = ""
        // The last component kept, not yet appended to `folder`.
        var last: Substring?
        var kept = 0
        var underVar = false
        var start = bytes.startIndex
        while start != bytes.endIndex {
            var end = start
            while end != bytes.endIndex && bytes[end] != slash { end = bytes.index(after: end) }
            let component = path[start..<end]
            start = end == bytes.endIndex ? end : bytes.index(after: end)
            let count = component.utf8.count
            if count == 0 || (count == 1 && component.utf8.first == dot) { continue }
            if count == 2 && component.utf8.allSatisfy({ $0 == dot }) { return nil }
            // `/private/...` and `/var/automount/...` may lose their prefix: Foundation's to say.
            if kept == 0 && component == "private" { return nil }
            if kept == 0 && component == "var" { underVar = true }
            if kept == 1 && underVar && component == "automount" { return nil }
            if let previous = last {
                folder += "/"
                folder += previous
            }
            last = component
            kept += 1
        }
        guard let name = last else { return nil }
        let folderPath = folder.isEmpty ? "/" : folder
        return (folder + "/" + name, folderPath, String(name))
    }
}
