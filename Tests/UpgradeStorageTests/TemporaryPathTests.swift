import Foundation
import Testing

@testable import UpgradeStorage

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The name of a write's temporary file, `FOLDER/.NAME.tmp-PID-RANDOM`, which the clean-up of stale
/// temporary files reads back.
@Suite("File store: temporary file names")
struct TemporaryPathTests {
    @Test(
        "a temporary path is the folder, .NAME.tmp-, the process id in decimal, -, and 64 random bits in hexadecimal",
        arguments: ["/tmp/a/upgrade-state.json", "/var/é folder/state.json", "/x.json"])
    func layout(documentPath: String) throws {
        let store = FileUpgradeStore(url: URL(fileURLWithPath: documentPath))
        let folder = (documentPath as NSString).deletingLastPathComponent
        let name = (documentPath as NSString).lastPathComponent
        var seen: Set<String> = []
        for _ in 0..<200 {
            let path = store.temporaryPath()
            let start = "\(folder)/.\(name).tmp-\(getpid())-"
            #expect(path.hasPrefix(start), "\(path)")
            let random = path.dropFirst(start.count)
            #expect((1...16).contains(random.count), "\(path)")
            #expect(random.allSatisfy { "0123456789abcdef".contains($0) }, "\(path)")
            #expect(UInt64(random, radix: 16).map { String($0, radix: 16) } == String(random), "\(path)")
            seen.insert(path)
        }
        #expect(seen.count == 200)
    }
}
