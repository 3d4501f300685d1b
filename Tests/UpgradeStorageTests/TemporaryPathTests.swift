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

/// The name of a write's temporary file, written byte by byte: `FOLDER/.NAME.tmp-PID-RANDOM`, which
/// the clean-up of stale temporary files reads back.
@Suite("File store: temporary file names")
struct TemporaryPathTests {
    @Test(
        "numbers are written as String(_:radix:) writes them, after what the memory already holds",
        arguments: [0, 1, 9, 10, 15, 16, 255, 4_194_304, UInt64(Int32.max), UInt64.max - 1, UInt64.max])
    func digits(value: UInt64) {
        for radix: UInt64 in [10, 16] {
            var text = [UInt8](repeating: UInt8(ascii: "#"), count: 2 + Digits.maximumCount + 1)
            let count = text.withUnsafeMutableBufferPointer { Digits.write(value, radix: radix, into: $0, at: 2) }
            let expected = String(value, radix: Int(radix))
            #expect(count == expected.utf8.count)
            #expect(
                String(decoding: text, as: UTF8.self) == "##" + expected + String(repeating: "#", count: 21 - count))
        }
    }

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
