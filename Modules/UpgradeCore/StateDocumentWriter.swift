import VersionKit

/// Writes the state document as JSONEncoder does with `[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]`: two spaces an indentation level, `"key" : value`, keys in UTF-8 order,
/// an empty array as `[`, a blank line and `]`, no final newline.
struct StateDocumentWriter {
    var bytes: [UInt8] = []
    var level = 0

    init() {
        bytes.reserveCapacity(4096)
    }

    /// Writes the document; `false` when a value needs JSONEncoder.
    mutating func document(_ state: UpgradeState) -> Bool {
        bytes.reserveCapacity(512 + state.history.count * 300)
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

    mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        bytes.append(0x0A)
        level += 1
    }

    mutating func close(_ bracket: UInt8) {
        bytes.append(0x0A)
        level -= 1
        indent()
        bytes.append(bracket)
    }

    mutating func indent() {
        for _ in 0..<level {
            bytes.append(0x20)
            bytes.append(0x20)
        }
    }

    mutating func member(_ key: StaticString, first: Bool = false) {
        if !first {
            bytes.append(UInt8(ascii: ","))
            bytes.append(0x0A)
        }
        indent()
        bytes.append(UInt8(ascii: "\""))
        raw(key)
        raw("\" : ")
    }

    mutating func array<Element>(_ elements: [Element], _ write: (inout Self, Element) -> Bool) -> Bool {
        open(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first {
                bytes.append(UInt8(ascii: ","))
                bytes.append(0x0A)
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
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func ascii(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// A string that needs no escaping; `false` for one that does (a quote, a backslash or a control
    /// character), which JSONEncoder must write.
    mutating func string(_ text: String) -> Bool {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
        return true
    }

    mutating func integer(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A finite double as JSONEncoder writes it: its shortest round-trip text without a final `.0`.
    mutating func double(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        return true
    }

    mutating func version(_ version: Version) {
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: version.description.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func optionalVersion(_ version: Version?) {
        if let version {
            self.version(version)
        } else {
            raw("null")
        }
    }
}
