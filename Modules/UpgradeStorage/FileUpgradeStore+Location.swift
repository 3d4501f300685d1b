import Foundation

extension FileUpgradeStore {
    /// Where the document of a store made with `url` is: its path, its folder and its file name, as
    /// `url.standardizedFileURL`, its `deletingLastPathComponent().path` and its `lastPathComponent`
    /// give them.
    ///
    /// Every app makes a store at each cold start, and the first `standardizedFileURL` (or even
    /// `path`) of a process costs far more than the launch's own reading: Foundation's generic types
    /// are instantiated and their protocol conformances looked up, once per process. So a plain
    /// absolute path, the common case, is decoded and standardized here from the URL's
    /// percent-encoded path: empty and `.` components dropped, nothing else changed, which is all that
    /// Foundation does to such a path. Foundation still standardizes the rest, where it consults the
    /// file system or where its rules are finer: a `..` component (Foundation resolves the symbolic
    /// links of a path that has one before it removes the `..`), an automounted prefix (`/private/...`
    /// and `/var/automount/...` lose that prefix when the shorter path exists), an encoded `/` or NUL,
    /// bytes that are not UTF-8, a relative path, and a URL that is not a file URL (whose path is kept
    /// as it is, and refused at the store's first use).
    ///
    /// - Parameter url: The document's location.
    /// - Returns: The document's path, the path of its folder, and its file name.
    package static func location(of url: URL) -> (path: String, folder: String, name: String) {
        let found = resolvedLocation(of: url)
        return (found.path, found.folder, found.name)
    }

    /// As ``location(of:)``, with whether the URL is a file URL: known from its string for a plain
    /// location, so that the store asks Foundation nothing more at a cold start.
    static func resolvedLocation(of url: URL) -> (path: String, folder: String, name: String, isFile: Bool) {
        if let plain = plainLocation(fileURL: url.absoluteString) {
            return (plain.path, plain.folder, plain.name, true)
        }
        let standardized = url.standardizedFileURL
        return (
            standardized.path, standardized.deletingLastPathComponent().path, standardized.lastPathComponent,
            url.isFileURL
        )
    }

    /// The plain location of a file URL given as its absolute string (`file:///...`), read without
    /// Foundation's URL parser: the store is made at every cold start of an app, and the string is
    /// what a URL made from a path keeps.
    ///
    /// - Parameter text: The URL's absolute string.
    /// - Returns: As ``plainLocation(percentEncoded:)`` for the URL's path; `nil` when the string is not
    ///   `file://` followed by a plain path, such as a URL with a host, a query or a fragment, or
    ///   another scheme.
    package static func plainLocation(fileURL text: String) -> (path: String, folder: String, name: String)? {
        var text = text
        return text.withUTF8 { bytes in
            let scheme: StaticString = "file://"
            let prefix = scheme.utf8CodeUnitCount
            guard bytes.count > prefix, matches(UnsafeBufferPointer(rebasing: bytes[..<prefix]), scheme) else {
                return nil
            }
            let rest = UnsafeBufferPointer(rebasing: bytes[prefix...])
            // A query or a fragment is not part of the path (a path's own `?` and `#` are encoded).
            if rest.contains(UInt8(ascii: "?")) || rest.contains(UInt8(ascii: "#")) { return nil }
            return plainLocation(percentEncoded: rest)
        }
    }

    /// The location of a plain absolute path: one that starts with `/`, has a component other than
    /// `.`, and has no `..` component and no automounted prefix once decoded.
    ///
    /// - Parameter encoded: A file URL's percent-encoded path.
    /// - Returns: The decoded path without empty or `.` components (and so without a trailing `/`), its
    ///   folder and its last component; `nil` when the path is not plain, or when Foundation decodes it
    ///   by finer rules (an encoded `/` or NUL, bytes that are not UTF-8, a stray `%`).
    package static func plainLocation(percentEncoded encoded: String) -> (path: String, folder: String, name: String)? {
        var encoded = encoded
        return encoded.withUTF8 { plainLocation(percentEncoded: $0) }
    }

    /// The plain location of a percent-encoded path, from the path's UTF-8 bytes.
    ///
    /// Written over raw bytes, with no generic call that the optimizer does not specialize, so that
    /// it instantiates no type metadata at its first call in a process.
    private static func plainLocation(percentEncoded input: UnsafeBufferPointer<UInt8>) -> (
        path: String, folder: String, name: String
    )? {
        let slash = UInt8(ascii: "/")
        let percent = UInt8(ascii: "%")
        guard input.first == slash else { return nil }
        // The decoded path, never longer than the encoded one.
        let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: input.count)
        defer { output.deallocate() }
        var length = 0
        // Where the last component kept starts in `output`, after its `/`.
        var lastStart = 0
        var kept = 0
        var underVar = false
        var ascii = true
        var index = 0
        while index < input.count {
            if input[index] == slash {
                index += 1
                continue
            }
            let separator = length
            output[length] = slash
            length += 1
            let start = length
            while index < input.count && input[index] != slash {
                var byte = input[index]
                if byte == percent {
                    guard index + 2 < input.count, let high = hexValue(input[index + 1]),
                        let low = hexValue(input[index + 2])
                    else { return nil }
                    byte = high << 4 | low
                    if byte == slash || byte == 0 { return nil }
                    index += 3
                } else {
                    index += 1
                }
                if byte >= 0x80 { ascii = false }
                output[length] = byte
                length += 1
            }
            let component = UnsafeBufferPointer(rebasing: output[start..<length])
            if matches(component, ".") {
                length = separator
                continue
            }
            if matches(component, "..") { return nil }
            // `/private/...` and `/var/automount/...` may lose their prefix: Foundation's to say.
            if kept == 0 && matches(component, "private") { return nil }
            if kept == 0 && matches(component, "var") { underVar = true }
            if kept == 1 && underVar && matches(component, "automount") { return nil }
            lastStart = start
            kept += 1
        }
        guard kept > 0 else { return nil }
        let decoded = UnsafeBufferPointer(rebasing: output[0..<length])
        let path = string(decoded)
        // Bytes that are not UTF-8 are repaired by `string(_:)`; Foundation's rules for them are its own.
        if !ascii && !path.utf8.elementsEqual(decoded) { return nil }
        let folder = kept == 1 ? "/" : string(UnsafeBufferPointer(rebasing: output[0..<(lastStart - 1)]))
        let name = string(UnsafeBufferPointer(rebasing: output[lastStart..<length]))
        return (path, folder, name)
    }

    /// Whether `bytes` are the UTF-8 of `text`, an ASCII literal.
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let literal = text.utf8Start
        for index in 0..<bytes.count where bytes[index] != literal[index] { return false }
        return true
    }

    /// The value of a hexadecimal digit, or `nil` for any other byte.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A string of UTF-8 bytes (repairing any that are not UTF-8).
    ///
    /// `String(decoding:as:)`, the initializer the state's decoding calls too: each initializer of the
    /// standard library's that a process calls first costs the dynamic linker a symbol lookup at
    /// every cold start.
    private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
