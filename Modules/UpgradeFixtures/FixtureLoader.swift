import Foundation

/// Reads fixtures from files and folders.
///
/// ```swift
/// let loaded = FixtureLoader.load(paths: ["Fixtures"])
/// for error in loaded.errors { print(error) }   // Fixtures/x.json: steps[1].version: ...
/// ```
public enum FixtureLoader {
    /// What ``load(paths:)`` found: the fixtures that decoded and an error for each file that did not.
    public struct Result: Sendable {
        /// The fixtures, in the order of their files.
        public var fixtures: [Fixture]
        /// One error per unusable file or path, in the order met.
        public var errors: [FixtureError]
    }

    /// Reads every fixture under the given paths.
    ///
    /// A file is read whatever its name; a folder is searched recursively for `*.json` files (hidden
    /// files and folders skipped), read in order of their paths. A path that does not exist, or a
    /// folder without fixtures, is an error; so is each file that does not decode, and the other
    /// files are still read.
    ///
    /// - Parameter paths: Files and folders.
    /// - Returns: The fixtures and the errors.
    public static func load(paths: [String]) -> Result {
        var result = Result(fixtures: [], errors: [])
        for path in paths {
            let files: [String]
            do {
                files = try fixtureFiles(at: path)
            } catch {
                result.errors.append(error)
                continue
            }
            for file in files {
                do {
                    result.fixtures.append(try load(file: file))
                } catch {
                    result.errors.append(error)
                }
            }
        }
        return result
    }

    /// The fixture files a path names: the file itself, or the `*.json` files under a folder,
    /// sorted by path.
    ///
    /// - Parameter path: A file or folder.
    /// - Returns: The file paths, each starting with `path`.
    /// - Throws: ``FixtureError`` when the path does not exist or a folder holds no `*.json` file.
    package static func fixtureFiles(at path: String) throws(FixtureError) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw FixtureError(file: path, message: "no such file or folder")
        }
        guard isFolder.boolValue else { return [path] }
        let base = URL(fileURLWithPath: path, isDirectory: true)
        guard
            let enumerator = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { throw FixtureError(file: path, message: "the folder cannot be read") }
        let basePath = base.standardizedFileURL.path
        var files: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "json" {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            // Name each file by the path as given plus its place under the folder.
            let full = url.standardizedFileURL.path
            let relative =
                full.hasPrefix(basePath + "/") ? String(full.dropFirst(basePath.count + 1)) : url.lastPathComponent
            files.append(path.hasSuffix("/") ? path + relative : path + "/" + relative)
        }
        if files.isEmpty { throw FixtureError(file: path, message: "the folder holds no fixture (*.json) files") }
        return files.sorted()
    }

    /// Reads one fixture file.
    ///
    /// - Parameter file: The file's path; errors name it as given.
    /// - Returns: The fixture, with ``Fixture/file`` set to `file`.
    /// - Throws: ``FixtureError`` for a file that cannot be read or is not a valid fixture.
    public static func load(file: String) throws(FixtureError) -> Fixture {
        let data: Data
        do {
            data = try InputFile.read(file, kind: "fixture")
        } catch {
            throw FixtureError(file: file, message: error.reason)
        }
        return try decode(data, file: file)
    }

    /// Reads a fixture from the bytes of a document.
    ///
    /// - Parameters:
    ///   - data: The JSON document.
    ///   - file: The name errors give the document.
    /// - Returns: The fixture.
    /// - Throws: ``FixtureError`` naming `file`, the JSON path and the fault.
    package static func decode(_ data: Data, file: String) throws(FixtureError) -> Fixture {
        try FixtureDecoder(file: file).decode([UInt8](data))
    }

    /// Reads a fixture from the text of a document.
    ///
    /// - Parameters:
    ///   - text: The JSON document.
    ///   - file: The name errors give the document.
    /// - Returns: The fixture.
    /// - Throws: ``FixtureError`` naming `file`, the JSON path and the fault.
    public static func decode(_ text: String, file: String) throws(FixtureError) -> Fixture {
        try FixtureDecoder(file: file).decode(Array(text.utf8))
    }
}
