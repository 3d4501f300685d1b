// The sample of the VersionKit overview, Modules/VersionKit/VersionKit.docc/VersionKit.md.

// snippet.hide
import VersionKit

func read(storedText: String) throws {
    // snippet.show
    // snippet.read
    let version = try Version(parsing: "8.8.1")  // throws VersionParseError when malformed
    let maybe = Version(storedText)  // nil when storedText is malformed
    let built = Version(major: 8, minor: 8)  // from numbers you already trust
    let literal: Version = "8.8"  // a literal in your own code
    // snippet.hide
    _ = (version, maybe, built, literal)
}
