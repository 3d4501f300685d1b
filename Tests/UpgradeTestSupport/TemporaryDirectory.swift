import Foundation

/// A uniquely named folder under the system's temporary folder, removed by ``remove()``.
///
/// Tests never touch the user's home folder: every file they make lives in one of these.
public final class TemporaryDirectory: Sendable {
    /// The folder's URL.
    public let url: URL

    /// Creates the folder.
    ///
    /// - Parameter label: A word to put in the folder's name, to recognise it.
    public init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("appupgrade-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    ///
    /// - Parameter name: The file name.
    /// - Returns: Its URL.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    deinit { remove() }
}
