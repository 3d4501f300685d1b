import VersionKit

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes the state document as JSONEncoder does with `[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]`: two spaces an indentation level, `"key" : value`, keys in UTF-8 order,
/// an empty array as `[`, a blank line and `]`, no final newline.
///
/// It writes into memory it manages itself and hands it over to the `Data` it returns, without a
/// copy; numbers and versions are written digit by digit, without making strings.
struct StateDocumentWriter: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    private var level = 0

    init() {
        capacity = 4096
        start = .allocate(capacity: capacity)
    }

    deinit { start.deallocate() }

    /// Writes the document, or returns `nil` when a value needs JSONEncoder.
    consuming func document(_ state: UpgradeState) -> Data? {
        let written = write(state)
        let bytes = start
        let length = count
        discard self
        guard written else {
            bytes.deallocate()
            return nil
        }
        return Data(bytesNoCopy: bytes, count: length, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    /// Writes the document; `false` when a value needs JSONEncoder.
    private mutating func write(_ state: UpgradeState) -> Bool {
        reserve(512 + state.history.count * 400)
        open(UInt8(ascii: "{"))
        member("abandoned", first: true)
        guard array(state.abandoned, { $0.record($1) }) else { return false }
        member("attempts")
        guard array(state.attempts, { $0.attempts($1) }) else { return false }
        member("completed")
        guard array(state.completed, { $0.record($1) }) else { return false }
        member("format")
        integer(state.format)
        member("history")
        guard array(state.history, { $0.launch($1) }) else { return false }
        member("inProgress")
        if let running = state.inProgress {
            guard inProgress(running) else { return false }
        } else {
            raw("null")
        }
        member("lastLaunched")
        optionalVersion(state.lastLaunched)
        member("upgradedThrough")
        optionalVersion(state.upgradedThrough)
        close(UInt8(ascii: "}"))
        return true
    }

    mutating func record(_ record: StepRecord) -> Bool {
        open(UInt8(ascii: "{"))
        member("id", first: true)
        guard string(record.id) else { return false }
        member("version")
        version(record.version)
        close(UInt8(ascii: "}"))
        return true
    }

    mutating func attempts(_ attempts: StepAttempts) -> Bool {
        open(UInt8(ascii: "{"))
        member("failed", first: true)
        integer(attempts.failed)
        member("id")
        guard string(attempts.id) else { return false }
        member("interrupted")
        raw(attempts.lastAttemptInterrupted ? "true" : "false")
        member("version")
        version(attempts.version)
        close(UInt8(ascii: "}"))
        return true
    }

    mutating func inProgress(_ running: StepInProgress) -> Bool {
        open(UInt8(ascii: "{"))
        member("attempt", first: true)
        integer(running.attempt)
        member("id")
        guard string(running.id) else { return false }
        member("version")
        version(running.version)
        close(UInt8(ascii: "}"))
        return true
    }

    mutating func launch(_ launch: LaunchRecord) -> Bool {
        open(UInt8(ascii: "{"))
        member("from", first: true)
        optionalVersion(launch.from)
        member("outcome")
        raw("\"")
        ascii(launch.outcome.rawValue)
        raw("\"")
        member("steps")
        guard array(launch.steps, { $0.launchStep($1) }) else { return false }
        member("time")
        guard double(launch.time) else { return false }
        member("to")
        version(launch.to)
        close(UInt8(ascii: "}"))
        return true
    }

    mutating func launchStep(_ step: LaunchRecord.Step) -> Bool {
        open(UInt8(ascii: "{"))
        member("abandoned", first: true)
        raw(step.abandoned ? "true" : "false")
        member("attempt")
        integer(step.attempt)
        member("id")
        guard string(step.id) else { return false }
        member("milliseconds")
        guard double(step.milliseconds) else { return false }
        member("result")
        raw("\"")
        ascii(step.result.rawValue)
        raw("\"")
        close(UInt8(ascii: "}"))
        return true
    }

    // MARK: Structure

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(count + extra) }
    }

    mutating func grow(_ needed: Int) {
        let larger = max(needed, capacity * 2)
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        memory.update(from: start, count: count)
        start.deallocate()
        start = memory
        capacity = larger
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        reserve(1)
        start[count] = value
        count &+= 1
    }

    @inline(__always)
    mutating func bytes(_ source: UnsafePointer<UInt8>, _ length: Int) {
        reserve(length)
        (start + count).update(from: source, count: length)
        count &+= length
    }

    mutating func open(_ bracket: UInt8) {
        byte(bracket)
        byte(0x0A)
        level += 1
    }

    mutating func close(_ bracket: UInt8) {
        byte(0x0A)
        level -= 1
        indent()
        byte(bracket)
    }

    /// Two spaces a level.
    @inline(__always)
    mutating func indent() {
        let width = 2 * level
        reserve(width)
        (start + count).update(repeating: 0x20, count: width)
        count &+= width
    }

    mutating func member(_ key: StaticString, first: Bool = false) {
        if !first {
            byte(UInt8(ascii: ","))
            byte(0x0A)
        }
        indent()
        byte(UInt8(ascii: "\""))
        raw(key)
        raw("\" : ")
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout Self, Element) -> Bool) -> Bool {
        open(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first {
                byte(UInt8(ascii: ","))
                byte(0x0A)
            }
            first = false
            indent()
            guard write(&self, element) else { return false }
        }
        close(UInt8(ascii: "]"))
        return true
    }

    // MARK: Values

    mutating func raw(_ text: StaticString) {
        bytes(text.utf8Start, text.utf8CodeUnitCount)
    }

    /// Text known to need no escaping (raw values of enumerations, digits).
    mutating func ascii(_ text: String) {
        var text = text
        text.withUTF8 { bytes($0.baseAddress!, $0.count) }
    }

    /// A string that needs no escaping; `false` for one that does (a quote, a backslash or a control
    /// character), which JSONEncoder must write.
    mutating func string(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            byte(UInt8(ascii: "\""))
            if let base = utf8.baseAddress { bytes(base, utf8.count) }
            byte(UInt8(ascii: "\""))
            return true
        }
    }

    /// The decimal digits of a non-negative number.
    @inline(__always)
    mutating func digits(_ value: UInt64) {
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &scratch) { buffer in
            var position = buffer.count
            var rest = value
            repeat {
                position -= 1
                buffer[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest != 0
            bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + position, buffer.count - position)
        }
    }

    mutating func integer(_ value: Int) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        digits(value.magnitude.toUInt64)
    }

    /// A finite double as JSONEncoder writes it: its shortest round-trip text without a final `.0`.
    /// A whole number below 2^53 is written as its digits, which is that text.
    mutating func double(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        let magnitude = value.magnitude
        if magnitude < 9_007_199_254_740_992, magnitude.rounded(.towardZero) == magnitude,
            value != 0 || value.sign == .plus
        {
            if value < 0 { byte(UInt8(ascii: "-")) }
            digits(UInt64(magnitude))
            return true
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        ascii(text)
        return true
    }

    mutating func version(_ version: Version) {
        byte(UInt8(ascii: "\""))
        digits(UInt64(version.major))
        byte(UInt8(ascii: "."))
        digits(UInt64(version.minor))
        if version.componentCount == 3 {
            byte(UInt8(ascii: "."))
            digits(UInt64(version.patch))
        }
        byte(UInt8(ascii: "\""))
    }

    mutating func optionalVersion(_ version: Version?) {
        if let version {
            self.version(version)
        } else {
            raw("null")
        }
    }
}

extension UInt {
    fileprivate var toUInt64: UInt64 { UInt64(self) }
}
