import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport

/// The store's own standardization of its document's path gives what Foundation's
/// `standardizedFileURL` gives, for every kind of URL.
@Suite("File store location")
struct StoreLocationTests {
    /// File URLs made from paths: absolute, relative, with `.`, `..`, repeated and trailing slashes,
    /// unicode, spaces, characters that a URL encodes, and automounted prefixes.
    static let paths = [
        "/tmp/app/upgrade-state.json",
        "/x.json",
        "/a/b/c/d/e/f/g/h/upgrade-state.json",
        "/var/mobile/Containers/Data/Application/1234/Library/Application Support/AppUpgrade/state.json",
        "/Users/me/Library/Application Support/AppUpgrade/upgrade-state.json",
        "rel/x.json",
        "x.json",
        "./x.json",
        "../x.json",
        "/a/./b/x.json",
        "/a/b/./x.json",
        "/./x.json",
        "/a/../x.json",
        "/a/b/../../x.json",
        "/a/../../../../x.json",
        "/..",
        "/../x.json",
        "/.",
        "/",
        "//",
        "///a",
        "//a//b//x.json",
        "/a/b/",
        "/a/b//",
        "/a/b/.",
        "/a/b/..",
        "/a/b/x.json/",
        "/a/.hidden/..x/x..json",
        "/a/.../x.json",
        "/a/...",
        "/a/.b",
        "/ü/ß/état-ñ.json",
        "/e\u{301}t\u{301}e\u{301}/x.json",
        "/😀/🇫🇷.json",
        "/with space/and  two spaces/x y.json",
        "/a%2Fb/x%20y.json",
        "/a;b?c#d/x&y=z.json",
        "/a/b:c/x.json",
        "/private/tmp/x.json",
        "/private/var/automount/x.json",
        "/private",
        "/privatex/x.json",
        "/var/automount/x.json",
        "/var/automountx/x.json",
        "/a/private/x.json",
        "/a/var/automount/x.json",
        "/tmp",
        "~/x.json",
        "~",
    ]

    /// URLs made from strings: file URLs with a host, a query, a fragment, no path, a relative path,
    /// and URLs that are not file URLs.
    static let strings = [
        "file:///tmp/x.json",
        "file://localhost/tmp/x.json",
        "file://host/a/b/x.json",
        "file:///a/b/x.json?query=1#fragment",
        "file:///a/b?x/y.json",
        "file:///a#b/y.json",
        "file:///a/b/x.json#",
        "file:///a/b/x.json?",
        "file:////a/x.json",
        "file://",
        "file:///a/b/",
        "file:///",
        "file:",
        "file:x/y.json",
        "file:~/x.json",
        "file:///a%20b/%C3%BC.json",
        "file:///a%2Fb/c.json",
        "file:///a%00b/c.json",
        "file:///a/./b/../c.json",
        "file:///a/%2e/b.json",
        "file:///%2E%2E/b.json",
        "file:///a/%FF.json",
        "file:///a/%C3%A9%20x.json",
        "file:///a/e%CC%81.json",
        "file:///private/var/x.json",
        "file:///%70rivate/tmp/x.json",
        "FILE:///a/b.json",
        "https://x/y",
        "https://x/a/b/../c.json",
        "https://x",
        "data:,hello",
        "mailto:someone@example.com",
        "urn:isbn:0451450523",
        "x/y.json",
        "/a/b.json",
    ]

    @Test("a file URL from a path is standardized as Foundation does", arguments: paths)
    func fromPath(path: String) {
        expectFoundationLocation(URL(fileURLWithPath: path))
        expectFoundationLocation(URL(fileURLWithPath: path, isDirectory: true))
        expectFoundationLocation(URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: "/base/folder/")))
    }

    @Test("a URL from a string is standardized as Foundation does", arguments: strings)
    func fromString(string: String) throws {
        let url = try #require(URL(string: string))
        expectFoundationLocation(url)
    }

    @Test("a path with .. through a symbolic link is standardized as Foundation does, resolving the link")
    func throughSymbolicLink() throws {
        let directory = try TemporaryDirectory("location")
        let real = directory.url.appendingPathComponent("real", isDirectory: true)
        try FileManager.default.createDirectory(
            at: real.appendingPathComponent("sub", isDirectory: true), withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: real.appendingPathComponent("x.json"))
        let link = directory.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        for path in ["link/sub/../x.json", "link/x.json", "real/sub/../x.json", "link/sub/../missing.json"] {
            expectFoundationLocation(URL(fileURLWithPath: directory.url.path + "/" + path))
        }
    }

    @Test("a store is made for any URL, and one that is not a file URL is refused at its first use")
    func notAFileURL() throws {
        let store = FileUpgradeStore(url: try #require(URL(string: "https://x/y")))
        #expect(throws: UpgradeStoreError.self) { try store.load() }
    }

    /// Expects the store's location for `url` to be what Foundation gives.
    func expectFoundationLocation(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        let standardized = url.standardizedFileURL
        let location = FileUpgradeStore.location(of: url)
        #expect(location.path == standardized.path, "path of \(url)", sourceLocation: sourceLocation)
        #expect(
            location.folder == standardized.deletingLastPathComponent().path, "folder of \(url)",
            sourceLocation: sourceLocation)
        #expect(location.name == standardized.lastPathComponent, "name of \(url)", sourceLocation: sourceLocation)
    }
}
