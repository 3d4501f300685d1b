/// The reader of version text and step names, over the text's UTF-8 bytes: one pass, which stops at
/// the first fault and says where and why; the caller builds the error text from that.
@usableFromInline
enum VersionGrammar {
    /// Where reading stopped and why, as a byte offset into the UTF-8 text.
    @usableFromInline
    struct Fault: Error, Sendable {
        var byteOffset: Int
        var reason: Reason
    }

    enum Reason: Sendable {
        case empty
        case unexpectedByte
        case emptyComponent
        case tooFewComponents(Int)
        case tooManyComponents
        case componentTooLarge
        case missingStepNamePrefix
    }

    /// The prefix of a step name, in lower case.
    @usableFromInline static let stepNamePrefix = Array("appupgradeto_".utf8)

    /// Reads a version: two or three components separated by `.`.
    @inlinable
    static func parseVersion(_ text: some StringProtocol) -> Result<Version, Fault> {
        text.utf8.withContiguousStorageIfAvailable { parse($0, prefix: [], separator: UInt8(ascii: ".")) }
            ?? parse(Array(text.utf8), prefix: [], separator: UInt8(ascii: "."))
    }

    /// Reads a step name: the prefix `appUpgradeTo_` in any case (ASCII letters only), then two or
    /// three components separated by `_`.
    @inlinable
    static func parseStepName(_ text: some StringProtocol) -> Result<Version, Fault> {
        text.utf8.withContiguousStorageIfAvailable { parse($0, prefix: stepNamePrefix, separator: UInt8(ascii: "_")) }
            ?? parse(Array(text.utf8), prefix: stepNamePrefix, separator: UInt8(ascii: "_"))
    }

    /// Reads the bytes as ``parse(_:prefix:separator:)-(Bytes,_,_)`` does; the entry point of
    /// ``parseVersion(_:)`` and ``parseStepName(_:)``, which are inlined into their callers with
    /// the string's own storage (for the budgets of parse-version and parse-step-name in
    /// upgrade-bench), or an array of its bytes when it is not in one piece.
    @usableFromInline
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, prefix: [UInt8], separator: UInt8) -> Result<Version, Fault>
    {
        parseBytes(bytes, prefix: prefix, separator: separator)
    }

    /// Reads the bytes as ``parse(_:prefix:separator:)-(Bytes,_,_)`` does.
    @usableFromInline
    static func parse(_ bytes: [UInt8], prefix: [UInt8], separator: UInt8) -> Result<Version, Fault> {
        parseBytes(bytes, prefix: prefix, separator: separator)
    }

    /// Reads `prefix` (lower case; ASCII letters in the text match in any case), then two or three
    /// components separated by `separator`.
    private static func parseBytes<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, prefix: [UInt8], separator: UInt8
    ) -> Result<Version, Fault> {
        guard bytes.count >= prefix.count else {
            return .failure(Fault(byteOffset: 0, reason: .missingStepNamePrefix))
        }
        for (byte, expected) in zip(bytes, prefix) {
            let isUpperCase = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
            let lowerCase = isUpperCase ? byte + (UInt8(ascii: "a") - UInt8(ascii: "A")) : byte
            if lowerCase != expected {
                return .failure(Fault(byteOffset: 0, reason: .missingStepNamePrefix))
            }
        }
        return parseComponents(bytes.dropFirst(prefix.count), from: prefix.count, separator: separator)
    }

    /// Reads two or three components separated by `separator` from `bytes`, which start at byte
    /// offset `start` of the text.
    private static func parseComponents(
        _ bytes: some Sequence<UInt8>, from start: Int, separator: UInt8
    ) -> Result<Version, Fault> {
        let limit = UInt64(Version.maximumComponentValue)
        // The components before the last, once read.
        var major: UInt32?
        var minor: UInt32?
        var value: UInt64 = 0
        var digits = 0
        var componentStart = start
        var offset = start
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
                if value > limit {
                    return .failure(Fault(byteOffset: componentStart, reason: .componentTooLarge))
                }
                digits += 1
            } else if byte == separator {
                if digits == 0 {
                    return .failure(Fault(byteOffset: offset, reason: .emptyComponent))
                }
                if major == nil {
                    major = UInt32(value)
                } else if minor == nil {
                    minor = UInt32(value)
                } else {
                    return .failure(Fault(byteOffset: offset, reason: .tooManyComponents))
                }
                value = 0
                digits = 0
                componentStart = offset + 1
            } else {
                return .failure(Fault(byteOffset: offset, reason: .unexpectedByte))
            }
            offset += 1
        }
        if offset == start {
            return .failure(Fault(byteOffset: start, reason: start == 0 ? .empty : .tooFewComponents(0)))
        }
        if digits == 0 {
            return .failure(Fault(byteOffset: offset, reason: .emptyComponent))
        }
        switch (major, minor) {
        case (nil, _):
            return .failure(Fault(byteOffset: start, reason: .tooFewComponents(1)))
        case (let major?, nil):
            return .success(Version(major: Int(major), minor: Int(value)))
        case (let major?, let minor?):
            return .success(Version(major: Int(major), minor: Int(minor), patch: Int(value)))
        }
    }
}
