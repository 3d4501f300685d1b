/// The one-pass reader of version text and step names, over UTF-8 bytes.
///
/// It walks the bytes once, keeps the components in registers and allocates nothing; on failure it
/// returns where and why, and the caller builds the error text (the slow path) only then.
@usableFromInline
enum VersionGrammar {
    /// Where reading stopped and why, as a byte offset into the UTF-8 text.
    @usableFromInline
    struct Fault: Error, Sendable {
        @usableFromInline var byteOffset: Int
        @usableFromInline var reason: Reason

        @usableFromInline
        init(byteOffset: Int, reason: Reason) {
            self.byteOffset = byteOffset
            self.reason = reason
        }
    }

    @usableFromInline
    enum Reason: Sendable {
        case empty
        case unexpectedByte
        case emptyComponent
        case tooFewComponents(Int)
        case tooManyComponents
        case componentTooLarge
        case missingStepNamePrefix
    }

    @usableFromInline static let prefixBytes: [UInt8] = Array("appupgradeto_".utf8)

    @inlinable
    static func parse(_ text: some StringProtocol, prefixLength: Int, separator: UInt8) -> Result<Version, Fault> {
        if let result = text.utf8.withContiguousStorageIfAvailable({
            parse(bytes: $0, from: prefixLength, separator: separator)
        }) {
            return result
        }
        var copy = String(text)
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable {
            parse(bytes: $0, from: prefixLength, separator: separator)
        }!
    }

    @inlinable
    static func parseStepName(_ text: some StringProtocol) -> Result<Version, Fault> {
        if let result = text.utf8.withContiguousStorageIfAvailable({ parseStepName(bytes: $0) }) {
            return result
        }
        var copy = String(text)
        copy.makeContiguousUTF8()
        return copy.utf8.withContiguousStorageIfAvailable { parseStepName(bytes: $0) }!
    }

    @usableFromInline
    static func parseStepName(bytes: UnsafeBufferPointer<UInt8>) -> Result<Version, Fault> {
        let prefixCount = 13
        guard bytes.count >= prefixCount else {
            return .failure(Fault(byteOffset: 0, reason: .missingStepNamePrefix))
        }
        for index in 0..<prefixCount {
            // ASCII letters fold to lower case with bit 0x20; '_' (0x5F) must match exactly.
            let byte = bytes[index]
            let expected = prefixBytes[index]
            let folded = (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
            if folded != expected {
                return .failure(Fault(byteOffset: 0, reason: .missingStepNamePrefix))
            }
        }
        return parse(bytes: bytes, from: prefixCount, separator: UInt8(ascii: "_"))
    }

    /// Reads two or three separated components starting at byte `start`.
    @usableFromInline
    static func parse(bytes: UnsafeBufferPointer<UInt8>, from start: Int, separator: UInt8) -> Result<Version, Fault> {
        let limit: UInt64 = 2_147_483_647
        var components: (UInt32, UInt32) = (0, 0)
        var completed = 0
        var value: UInt64 = 0
        var digits = 0
        var componentStart = start
        var index = start
        let end = bytes.count
        if start == end {
            return .failure(Fault(byteOffset: start, reason: start == 0 ? .empty : .tooFewComponents(0)))
        }
        while index < end {
            let byte = bytes[index]
            let digit = byte &- 0x30
            if digit < 10 {
                value = value &* 10 &+ UInt64(digit)
                if value > limit {
                    return .failure(Fault(byteOffset: componentStart, reason: .componentTooLarge))
                }
                digits &+= 1
            } else if byte == separator {
                if digits == 0 {
                    return .failure(Fault(byteOffset: index, reason: .emptyComponent))
                }
                if completed == 0 {
                    components.0 = UInt32(truncatingIfNeeded: value)
                } else if completed == 1 {
                    components.1 = UInt32(truncatingIfNeeded: value)
                } else {
                    return .failure(Fault(byteOffset: index, reason: .tooManyComponents))
                }
                completed &+= 1
                value = 0
                digits = 0
                componentStart = index &+ 1
            } else {
                return .failure(Fault(byteOffset: index, reason: .unexpectedByte))
            }
            index &+= 1
        }
        if digits == 0 {
            return .failure(Fault(byteOffset: end, reason: .emptyComponent))
        }
        switch completed {
        case 0:
            return .failure(Fault(byteOffset: start, reason: .tooFewComponents(1)))
        case 1:
            return .success(
                Version(
                    uncheckedMajor: components.0, minor: UInt32(truncatingIfNeeded: value), patch: 0,
                    componentCount: 2))
        default:
            return .success(
                Version(
                    uncheckedMajor: components.0, minor: components.1, patch: UInt32(truncatingIfNeeded: value),
                    componentCount: 3))
        }
    }
}
