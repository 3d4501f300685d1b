import VersionKit

/// Thrown inside ``StateDocumentReader`` to give up and fall back to the strict JSON check and the
/// Codable path.
struct StateDocumentFallback: Error {}

/// A strict, allocation-light reader of the state document over its bytes (see
/// UpgradeStateDocument+FastPath.swift for what it accepts and why it is safe).
///
/// It reads any member order and any JSON white space, but it is fastest on the writer's own layout:
/// at each member it first tries the text the writer would put there (line break, indentation, the
/// next key in order, ` : `) as one comparison of a few 8-byte words, and only when that fails
/// reads the member the general way. Skip mode (StateDocumentReader+Skipping.swift) goes further for
/// the history: it matches a whole entry in the writer's layout before it falls back to this
/// member loop.
struct StateDocumentReader {
    typealias Fallback = StateDocumentFallback

    let base: UnsafePointer<UInt8>
    let count: Int
    var index = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    // MARK: The document

    /// Reads the whole document.
    ///
    /// - Parameter withHistory: When `false`, the history is validated exactly as strictly as it is
    ///   read (every key, type and value) but no ``LaunchRecord`` is built, and the state's history
    ///   is left empty; the same documents are accepted and rejected either way
    ///   (StateDocumentReader+Skipping.swift).
    mutating func document(withHistory: Bool = true) throws(Fallback) -> UpgradeState {
        try expect(UInt8(ascii: "{"))
        var members = Members(StateDocumentKeys.state)
        var format = 0
        var upgradedThrough: Version?
        var lastLaunched: Version?
        var completed: [StepRecord] = []
        var abandoned: [StepRecord] = []
        var attempts: [StepAttempts] = []
        var inProgress: StepInProgress?
        var history: [LaunchRecord] = []
        repeat {
            switch try member(&members) {
            case 0: abandoned = try array(capacity: 0) { reader throws(Fallback) in try reader.stepRecord() }
            case 1: attempts = try array(capacity: 0) { reader throws(Fallback) in try reader.stepAttempts() }
            case 2: completed = try array(capacity: 0) { reader throws(Fallback) in try reader.stepRecord() }
            case 3: format = try integer()
            case 4:
                if withHistory {
                    history = try array(capacity: UpgradeState.historyLimit) { reader throws(Fallback) in
                        try reader.launchRecord()
                    }
                } else {
                    // The tables are fetched once here rather than at every entry.
                    let tables = StateDocumentHistoryTables.shared
                    try skipArray { reader throws(Fallback) in try reader.skipLaunchRecord(tables) }
                }
            case 5: inProgress = try isNull() ? nil : try stepInProgress()
            case 6: lastLaunched = try optionalVersion()
            default: upgradedThrough = try optionalVersion()
            }
        } while try nextMember()
        guard members.complete, format >= 1, format <= UpgradeState.currentFormat else { throw Fallback() }
        skipSpace()
        guard index == count else { throw Fallback() }
        var state = UpgradeState(
            upgradedThrough: upgradedThrough, lastLaunched: lastLaunched, completed: completed, abandoned: abandoned,
            attempts: attempts, inProgress: inProgress, history: history)
        state.format = format
        return state
    }

    mutating func stepRecord() throws(Fallback) -> StepRecord {
        try expect(UInt8(ascii: "{"))
        var members = Members(StateDocumentKeys.stepRecord)
        var id = ""
        var version = Version(major: 0, minor: 0)
        repeat {
            switch try member(&members) {
            case 0: id = try string()
            default: version = try self.version()
            }
        } while try nextMember()
        guard members.complete else { throw Fallback() }
        return StepRecord(id: id, version: version)
    }

    mutating func stepAttempts() throws(Fallback) -> StepAttempts {
        try expect(UInt8(ascii: "{"))
        var members = Members(StateDocumentKeys.stepAttempts)
        var id = ""
        var version = Version(major: 0, minor: 0)
        var failed = 0
        var interrupted = false
        repeat {
            switch try member(&members) {
            case 0: failed = try integer()
            case 1: id = try string()
            case 2: interrupted = try boolean()
            default: version = try self.version()
            }
        } while try nextMember()
        guard members.complete, failed >= 1 else { throw Fallback() }
        return StepAttempts(id: id, version: version, failed: failed, lastAttemptInterrupted: interrupted)
    }

    mutating func stepInProgress() throws(Fallback) -> StepInProgress {
        try expect(UInt8(ascii: "{"))
        var members = Members(StateDocumentKeys.stepInProgress)
        var id = ""
        var version = Version(major: 0, minor: 0)
        var attempt = 0
        repeat {
            switch try member(&members) {
            case 0: attempt = try integer()
            case 1: id = try string()
            default: version = try self.version()
            }
        } while try nextMember()
        guard members.complete, attempt >= 1 else { throw Fallback() }
        return StepInProgress(id: id, version: version, attempt: attempt)
    }

    mutating func launchRecord() throws(Fallback) -> LaunchRecord {
        try expect(UInt8(ascii: "{"))
        var members = Members(StateDocumentKeys.launchRecord)
        var time = 0.0
        var from: Version?
        var to = Version(major: 0, minor: 0)
        var outcome = UpgradeOutcome.upToDate
        var steps: [LaunchRecord.Step] = []
        repeat {
            switch try member(&members) {
            case 0: from = try optionalVersion()
            case 1: outcome = try self.outcome()
            case 2: steps = try array(capacity: 2) { reader throws(Fallback) in try reader.launchStep() }
            case 3: time = try double()
            default: to = try version()
            }
        } while try nextMember()
        guard members.complete else { throw Fallback() }
        return LaunchRecord(time: time, from: from, to: to, outcome: outcome, steps: steps)
    }

    mutating func launchStep() throws(Fallback) -> LaunchRecord.Step {
        try expect(UInt8(ascii: "{"))
        var members = Members(StateDocumentKeys.launchStep)
        var id = ""
        var attempt = 0
        var result = StepReport.Result.Kind.completed
        var abandoned = false
        var milliseconds = 0.0
        repeat {
            switch try member(&members) {
            case 0: abandoned = try boolean()
            case 1: attempt = try integer()
            case 2: id = try string()
            case 3: milliseconds = try double()
            default: result = try resultKind()
            }
        } while try nextMember()
        guard members.complete else { throw Fallback() }
        return LaunchRecord.Step(
            id: id, attempt: attempt, result: result, abandoned: abandoned, milliseconds: milliseconds)
    }

    // MARK: Objects and arrays

    /// The members of one object being read: which keys were read, and which the writer puts next.
    struct Members {
        let keys: StateDocumentKeys
        var next = 0
        var seen: UInt32 = 0
        /// `seen` once every key was read: one bit a key (objects have at most 8 keys).
        let all: UInt32

        @inline(__always)
        init(_ keys: StateDocumentKeys) {
            self.keys = keys
            all = (1 &<< UInt32(truncatingIfNeeded: keys.count)) &- 1
        }

        /// Whether every key was read.
        @inline(__always)
        var complete: Bool { seen == all }
    }

    /// Reads a member's key and its colon and returns the key's position in the object's keys. A
    /// key read twice, or one the object does not have, falls back.
    @inline(__always)
    mutating func member(_ members: inout Members) throws(Fallback) -> Int {
        var found = -1
        if members.next < members.keys.count {
            // The writer's layout: line break, indentation, the next key in order, ` : `.
            let written = members.keys.written[members.next]
            if written.matches(base, index, count) {
                index &+= written.length
                found = members.next
            }
        }
        if found < 0 {
            let key = try rawString()
            try expect(UInt8(ascii: ":"))
            for position in 0..<members.keys.count where members.keys.names[position].equals(key, in: base, count) {
                found = position
                break
            }
            guard found >= 0 else { throw Fallback() }
        }
        let flag: UInt32 = 1 &<< UInt32(truncatingIfNeeded: found)
        guard members.seen & flag == 0 else { throw Fallback() }
        members.seen |= flag
        members.next = found &+ 1
        return found
    }

    /// After an object member: `true` for a `,` (another member follows), `false` for the `}`.
    @inline(__always)
    mutating func nextMember() throws(Fallback) -> Bool {
        if index < count, base[index] == UInt8(ascii: ",") {
            index &+= 1
            return true
        }
        skipSpace()
        guard index < count else { throw Fallback() }
        let byte = base[index]
        index &+= 1
        if byte == UInt8(ascii: ",") { return true }
        if byte == UInt8(ascii: "}") { return false }
        throw Fallback()
    }

    /// An array of elements read by `element`.
    @inline(__always)
    mutating func array<Element>(
        capacity: Int, _ element: (inout StateDocumentReader) throws(Fallback) -> Element
    ) throws(Fallback) -> [Element] {
        try expect(UInt8(ascii: "["))
        skipSpace()
        guard index < count else { throw Fallback() }
        if base[index] == UInt8(ascii: "]") {
            index &+= 1
            return []
        }
        var elements: [Element] = []
        elements.reserveCapacity(capacity)
        while true {
            elements.append(try element(&self))
            skipSpace()
            guard index < count else { throw Fallback() }
            let byte = base[index]
            index &+= 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { return elements }
            throw Fallback()
        }
    }

    /// An array whose elements `element` validates, as `array(capacity:_:)` reads it, keeping
    /// nothing.
    @inline(__always)
    mutating func skipArray(_ element: (inout StateDocumentReader) throws(Fallback) -> Void) throws(Fallback) {
        try expect(UInt8(ascii: "["))
        skipSpace()
        guard index < count else { throw Fallback() }
        if base[index] == UInt8(ascii: "]") {
            index &+= 1
            return
        }
        while true {
            try element(&self)
            skipSpace()
            guard index < count else { throw Fallback() }
            let byte = base[index]
            index &+= 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { return }
            throw Fallback()
        }
    }

    // MARK: White space and literals

    /// Skips JSON white space: space, tab, line feed, carriage return. The indentation after a line
    /// feed (two spaces a level) is skipped several spaces at a time.
    @inline(__always)
    mutating func skipSpace() {
        while index < count {
            let byte = base[index]
            if byte > 0x20 { return }
            if byte == 0x0A {
                index &+= 1
                while count &- index >= 8,
                    UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) == 0x2020_2020_2020_2020
                {
                    index &+= 8
                }
                continue
            }
            guard byte == 0x20 || byte == 0x0D || byte == 0x09 else { return }
            index &+= 1
        }
    }

    @inline(__always)
    mutating func expect(_ byte: UInt8) throws(Fallback) {
        skipSpace()
        guard index < count, base[index] == byte else { throw Fallback() }
        index &+= 1
    }

    /// Whether the next value is `null` (consumed); `false` leaves the value to be read.
    @inline(__always)
    mutating func isNull() throws(Fallback) -> Bool {
        skipSpace()
        guard index < count, base[index] == UInt8(ascii: "n") else { return false }
        try literal(StateDocumentLiteral.null)
        return true
    }

    @inline(__always)
    mutating func literal(_ text: StateDocumentLiteral) throws(Fallback) {
        guard text.matches(base, index, count) else { throw Fallback() }
        index &+= text.length
    }

    mutating func boolean() throws(Fallback) -> Bool {
        skipSpace()
        if StateDocumentLiteral.true.matches(base, index, count) {
            index &+= 4
            return true
        }
        try literal(StateDocumentLiteral.false)
        return false
    }

    // MARK: Strings

    /// The bytes between the quotes of a string that has no escape and no control character.
    @inline(__always)
    mutating func rawString() throws(Fallback) -> UnsafeBufferPointer<UInt8> {
        var bits: UInt64 = 0
        return try rawString(&bits)
    }

    /// The bytes between the quotes of a string that has no escape and no control character, and
    /// the OR of its bytes (bit 7 of some byte set when it is not all ASCII). Eight bytes at a time
    /// where eight remain: a word has no quote, backslash or control character when no byte of it is
    /// zero after XOR with `"` and with `\`, and none is below 0x20.
    @inline(__always)
    mutating func rawString(_ bits: inout UInt64) throws(Fallback) -> UnsafeBufferPointer<UInt8> {
        try expect(UInt8(ascii: "\""))
        let start = index
        while count &- index >= 8 {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let quote = word ^ 0x2222_2222_2222_2222
            let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
            let special =
                ((quote &- 0x0101_0101_0101_0101) & ~quote)
                | ((backslash &- 0x0101_0101_0101_0101) & ~backslash)
                | ((word &- 0x2020_2020_2020_2020) & ~word)
            let flagged = special & 0x8080_8080_8080_8080
            if flagged == 0 {
                bits |= word
                index &+= 8
                continue
            }
            // The lowest flagged byte is exact (the tricks can only over-flag bytes above it).
            let offset = flagged.trailingZeroBitCount >> 3
            let byte = base[index &+ offset]
            guard byte == UInt8(ascii: "\"") else { throw Fallback() }
            if offset > 0 { bits |= word & ((1 << (UInt64(offset) << 3)) &- 1) }
            index &+= offset &+ 1
            return UnsafeBufferPointer(start: base + start, count: index &- 1 &- start)
        }
        while index < count {
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                index &+= 1
                return UnsafeBufferPointer(start: base + start, count: index &- 1 &- start)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { throw Fallback() }
            bits |= UInt64(byte)
            index &+= 1
        }
        throw Fallback()
    }

    mutating func string() throws(Fallback) -> String {
        var bits: UInt64 = 0
        let bytes = try rawString(&bits)
        let text = String(decoding: bytes, as: UTF8.self)
        // Decoding repairs invalid UTF-8 with U+FFFD, so a string that is not all ASCII must come out
        // as the very bytes that went in; otherwise the Codable path decides.
        if bits & 0x8080_8080_8080_8080 != 0, !text.utf8.elementsEqual(bytes) { throw Fallback() }
        return text
    }

    /// A version: the plain form (2 or 3 components of 1 to 10 digits, each at most 2^31 - 1) is read
    /// here; anything else is left to VersionKit's parser, which accepts or rejects it.
    mutating func version() throws(Fallback) -> Version {
        let bytes = try rawString()
        if let plain = Self.plainVersion(bytes) {
            return plain.count == 2
                ? Version(major: Int(plain.major), minor: Int(plain.minor))
                : Version(major: Int(plain.major), minor: Int(plain.minor), patch: Int(plain.patch))
        }
        return try Self.parsedVersion(bytes)
    }

    /// The components of a version in the plain form (2 or 3 components of 1 to 10 digits, each at
    /// most 2^31 - 1), or `nil` for any other text.
    @inline(__always)
    static func plainVersion(_ bytes: UnsafeBufferPointer<UInt8>) -> (
        major: UInt64, minor: UInt64, patch: UInt64, count: Int
    )? {
        var components: (UInt64, UInt64) = (0, 0)
        var completed = 0
        var value: UInt64 = 0
        var digits = 0
        for byte in bytes {
            let digit = byte &- 0x30
            if digit < 10 {
                value = value &* 10 &+ UInt64(digit)
                digits &+= 1
                if digits > 10 { return nil }
            } else if byte == UInt8(ascii: "."), digits > 0, completed < 2 {
                if completed == 0 { components.0 = value } else { components.1 = value }
                completed &+= 1
                value = 0
                digits = 0
            } else {
                return nil
            }
        }
        let limit = UInt64(Version.maximumComponentValue)
        guard digits > 0, completed > 0, components.0 <= limit, components.1 <= limit, value <= limit else {
            return nil
        }
        return completed == 1
            ? (components.0, value, 0, 2)
            : (components.0, components.1, value, 3)
    }

    /// A version not in the plain form, as VersionKit's parser reads it.
    static func parsedVersion(_ bytes: UnsafeBufferPointer<UInt8>) throws(Fallback) -> Version {
        guard let version = Version(String(decoding: bytes, as: UTF8.self)) else { throw Fallback() }
        return version
    }

    mutating func optionalVersion() throws(Fallback) -> Version? {
        try isNull() ? nil : try version()
    }

    /// An outcome: its raw value, quotes included, matched in place.
    mutating func outcome() throws(Fallback) -> UpgradeOutcome {
        try oneOf(Self.outcomeNames, Self.outcomes)
    }

    /// A step result: its raw value, quotes included, matched in place.
    mutating func resultKind() throws(Fallback) -> StepReport.Result.Kind {
        try oneOf(Self.resultKindNames, Self.resultKinds)
    }

    /// One of a few string values, quotes included, matched in place: the value at the same position.
    @inline(__always)
    private mutating func oneOf<Value>(_ names: [StateDocumentLiteral], _ values: [Value]) throws(Fallback) -> Value {
        skipSpace()
        for position in 0..<names.count where names[position].matches(base, index, count) {
            index &+= names[position].length
            return values[position]
        }
        throw Fallback()
    }

    static let outcomes = UpgradeOutcome.allCases
    static let outcomeNames = outcomes.map { StateDocumentLiteral("\"\($0.rawValue)\"") }
    static let resultKinds = [StepReport.Result.Kind.completed, .failed, .notRun]
    static let resultKindNames = resultKinds.map { StateDocumentLiteral("\"\($0.rawValue)\"") }

    // MARK: Numbers

    /// A non-negative integer written plainly (`0`, or a digit 1-9 and at most 17 more digits).
    @inline(__always)
    mutating func integer() throws(Fallback) -> Int {
        skipSpace()
        guard index < count else { throw Fallback() }
        var value = 0
        let start = index
        if base[index] == UInt8(ascii: "0") {
            index &+= 1
        } else {
            while index < count {
                let digit = base[index] &- 0x30
                guard digit < 10 else { break }
                value = value &* 10 &+ Int(digit)
                index &+= 1
            }
            guard index > start, index &- start <= 18 else { throw Fallback() }
        }
        try endOfNumber()
        return value
    }

    /// A JSON number, read to the same `Double` as the Codable path reads it: the correctly rounded
    /// value. Small significands take Clinger's fast path (one correctly rounded operation); up to
    /// 19 digits, an estimate is proved correctly rounded (or corrected) with exact integer
    /// arithmetic; other numbers of ordinary size go through the standard library's correctly
    /// rounded parser; extreme exponents fall back.
    mutating func double() throws(Fallback) -> Double {
        let (start, negative, significand, exponent, exact) = try number()
        if significand == 0 { return negative ? -0.0 : 0.0 }
        if exact {
            if significand <= 1 << 53, exponent >= -22, exponent <= 22 {
                var value = Double(significand)
                if exponent < 0 {
                    value /= Self.powersOfTen[-exponent]
                } else {
                    value *= Self.powersOfTen[exponent]
                }
                return negative ? -value : value
            }
            if exponent < 0, exponent >= -19, let value = Self.provedQuotient(significand, -exponent) {
                return negative ? -value : value
            }
        }
        // Far from overflow and underflow (|value| within about 10^±280), the standard library's
        // parser rounds correctly, as the Codable path's does.
        guard exponent > -300, exponent < 260 else { throw Fallback() }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index &- start), as: UTF8.self)
        guard let value = Double(text), value.isNormal else { throw Fallback() }
        return value
    }

    /// Reads a JSON number's form: where it starts, its sign, its first 19 significant digits as
    /// an integer and the decimal exponent that goes with them, and whether those digits are all
    /// of them (`exact`). Anything that is not a JSON number, or has an exponent of more than four
    /// digits, falls back.
    @inline(__always)
    mutating func number() throws(Fallback) -> (
        start: Int, negative: Bool, significand: UInt64, exponent: Int, exact: Bool
    ) {
        skipSpace()
        let start = index
        guard index < count else { throw Fallback() }
        var negative = false
        if base[index] == UInt8(ascii: "-") {
            negative = true
            index &+= 1
            guard index < count else { throw Fallback() }
        }
        var significand: UInt64 = 0
        var exponent = 0
        var exact = true
        // The integer part: 0, or a digit 1-9 and more digits.
        if base[index] == UInt8(ascii: "0") {
            index &+= 1
        } else {
            let digitsStart = index
            while index < count {
                let digit = base[index] &- 0x30
                guard digit < 10 else { break }
                if significand < 1_000_000_000_000_000_000 {
                    significand = significand &* 10 &+ UInt64(digit)
                } else {
                    exact = false
                    exponent &+= 1
                }
                index &+= 1
            }
            guard index > digitsStart else { throw Fallback() }
        }
        // The fraction.
        if index < count, base[index] == UInt8(ascii: ".") {
            index &+= 1
            let digitsStart = index
            while index < count {
                let digit = base[index] &- 0x30
                guard digit < 10 else { break }
                if significand < 1_000_000_000_000_000_000 {
                    significand = significand &* 10 &+ UInt64(digit)
                    exponent &-= 1
                } else {
                    exact = false
                }
                index &+= 1
            }
            guard index > digitsStart else { throw Fallback() }
        }
        // The exponent.
        if index < count, base[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            guard index < count else { throw Fallback() }
            var exponentNegative = false
            if base[index] == UInt8(ascii: "-") || base[index] == UInt8(ascii: "+") {
                exponentNegative = base[index] == UInt8(ascii: "-")
                index &+= 1
            }
            let digitsStart = index
            var written = 0
            while index < count, base[index] &- 0x30 < 10 {
                written = written &* 10 &+ Int(base[index] &- 0x30)
                index &+= 1
                guard index &- digitsStart <= 4 else { throw Fallback() }
            }
            guard index > digitsStart else { throw Fallback() }
            exponent &+= exponentNegative ? -written : written
        }
        try endOfNumber()
        return (start, negative, significand, exponent, exact)
    }

    /// The correctly rounded value of `significand / 10^scale` (scale 1 to 19), or `nil` when it
    /// cannot be proved cheaply.
    ///
    /// The estimate `Double(significand) / 10^scale` is off by at most a unit in the last place or
    /// so; each candidate `c = m * 2^e` around it (m a 53-bit integer) is tested exactly: it is the
    /// correctly rounded value when `(2m - 1) * 10^scale < 2 * significand * 2^-e < (2m + 1) *
    /// 10^scale`, two 128-bit comparisons. A tie, a power of two or a value out of range gives `nil`.
    static func provedQuotient(_ significand: UInt64, _ scale: Int) -> Double? {
        let estimate = Double(significand) / powersOfTen[scale]
        let power = UInt64(powersOfTen[scale])
        var candidate = estimate
        for attempt in 0..<3 {
            if attempt == 1 { candidate = estimate.nextDown }
            if attempt == 2 { candidate = estimate.nextUp }
            guard candidate.isNormal, candidate.significandBitPattern != 0 else { return nil }
            let m = (UInt64(1) << 52) | candidate.significandBitPattern
            let e = Int(candidate.exponent) - 52
            // 2 * significand * 2^-e as a 128-bit number: a shift by 1 - e, which must be 1 to 63.
            let shift = 1 - e
            guard shift >= 1, shift <= 63 else { return nil }
            let scaledHigh = significand >> UInt64(64 - shift)
            let scaledLow = significand << UInt64(shift)
            let lower = (2 * m - 1).multipliedFullWidth(by: power)
            let upper = (2 * m + 1).multipliedFullWidth(by: power)
            let aboveLower = scaledHigh > lower.high || (scaledHigh == lower.high && scaledLow > lower.low)
            let belowUpper = scaledHigh < upper.high || (scaledHigh == upper.high && scaledLow < upper.low)
            if aboveLower && belowUpper { return candidate }
        }
        return nil
    }

    /// A number must end at white space or a structural character, never at a letter or a dot.
    @inline(__always)
    func endOfNumber() throws(Fallback) {
        guard index < count else { return }
        switch base[index] {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return
        default: throw Fallback()
        }
    }

    /// 10^0 to 10^22, each exactly representable as a `Double`.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]
}

/// A short ASCII text (up to 40 bytes) kept as 8-byte words, so that matching it against the
/// document takes a few loads and comparisons instead of a loop over bytes.
struct StateDocumentLiteral: Sendable {
    let length: Int
    /// The first 8 bytes (little-endian), padded with zeros.
    let head: UInt64
    /// Which bytes of `head` count: all ones for 8 bytes and more.
    let headMask: UInt64
    /// The following whole words (bytes 8-15, 16-23, 24-31) that lie before the last 8 bytes.
    let middle: (UInt64, UInt64, UInt64)
    let middleCount: Int
    /// The last 8 bytes, when the text is longer than 8 bytes; 0 otherwise.
    let tail: UInt64

    init(_ text: String) {
        let bytes = Array(text.utf8)
        precondition(bytes.count <= 40, "literal too long: \(text)")
        length = bytes.count
        func word(_ slice: ArraySlice<UInt8>) -> UInt64 {
            var value: UInt64 = 0
            for (shift, byte) in slice.enumerated() { value |= UInt64(byte) << (8 * UInt64(shift)) }
            return value
        }
        head = word(bytes.prefix(8))
        headMask = bytes.count >= 8 ? .max : (1 << (8 * UInt64(bytes.count))) - 1
        var words: [UInt64] = []
        var offset = 8
        while offset + 8 < bytes.count {
            words.append(word(bytes[offset..<offset + 8]))
            offset += 8
        }
        middleCount = words.count
        middle = (
            words.count > 0 ? words[0] : 0, words.count > 1 ? words[1] : 0, words.count > 2 ? words[2] : 0
        )
        tail = bytes.count > 8 ? word(bytes.suffix(8)) : 0
    }

    /// Whether the bytes at `offset` of `base` (which has `count` bytes) begin with the text.
    @inline(__always)
    func matches(_ base: UnsafePointer<UInt8>, _ offset: Int, _ count: Int) -> Bool {
        guard count &- offset >= length else { return false }
        guard count &- offset >= 8 else { return Self.matchesNearEnd(base, offset, head, length) }
        let raw = UnsafeRawPointer(base + offset)
        guard raw.loadUnaligned(as: UInt64.self) & headMask == head else { return false }
        if length <= 8 { return true }
        if middleCount > 0 {
            if raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) != middle.0 { return false }
            if middleCount > 1 {
                if raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self) != middle.1 { return false }
                if middleCount > 2, raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self) != middle.2 {
                    return false
                }
            }
        }
        return raw.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self) == tail
    }

    /// `matches` in the last 7 bytes of a buffer, where a word cannot be loaded: byte by byte (the
    /// text is then at most 7 bytes, all in `head`).
    ///
    /// It takes the two fields it needs rather than the literal, so that an inlined `matches`
    /// does not have to keep a copy of the whole literal in memory to pass it.
    static func matchesNearEnd(_ base: UnsafePointer<UInt8>, _ offset: Int, _ head: UInt64, _ length: Int) -> Bool {
        for position in 0..<length
        where base[offset &+ position] != UInt8(truncatingIfNeeded: head >> (8 * UInt64(position))) {
            return false
        }
        return true
    }

    /// Whether `bytes` are exactly the text (the bytes lie inside a buffer of `count` bytes at `base`).
    @inline(__always)
    func equals(_ bytes: UnsafeBufferPointer<UInt8>, in base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        bytes.count == length && matches(base, bytes.baseAddress! - base, count)
    }

    static let null = StateDocumentLiteral("null")
    static let `true` = StateDocumentLiteral("true")
    static let `false` = StateDocumentLiteral("false")
}

/// The keys of one kind of object, in the order the writer puts them (UTF-8 order).
///
/// The tables are made once and kept for the life of the process, in plain memory, so that reading
/// an object copies two pointers and counts no references.
struct StateDocumentKeys: @unchecked Sendable {
    /// Each key alone.
    let names: UnsafeBufferPointer<StateDocumentLiteral>
    /// Each key as the writer writes it at the start of a member: a line break, the indentation of
    /// the object's members, the quoted key, ` : `.
    let written: UnsafeBufferPointer<StateDocumentLiteral>

    var count: Int { names.count }

    /// - Parameters:
    ///   - names: The keys, in UTF-8 order.
    ///   - indentation: How many spaces the writer puts before each member.
    init(_ names: [String], indentation: Int) {
        let spaces = String(repeating: " ", count: indentation)
        self.names = Self.permanent(names.map { StateDocumentLiteral($0) })
        written = Self.permanent(names.map { StateDocumentLiteral("\n\(spaces)\"\($0)\" : ") })
    }

    private static func permanent(_ literals: [StateDocumentLiteral]) -> UnsafeBufferPointer<StateDocumentLiteral> {
        let buffer = UnsafeMutableBufferPointer<StateDocumentLiteral>.allocate(capacity: literals.count)
        _ = buffer.initialize(from: literals)
        return UnsafeBufferPointer(buffer)
    }

    static let state = StateDocumentKeys(
        ["abandoned", "attempts", "completed", "format", "history", "inProgress", "lastLaunched", "upgradedThrough"],
        indentation: 2)
    /// `completed` and `abandoned` entries: members at level 3.
    static let stepRecord = StateDocumentKeys(["id", "version"], indentation: 6)
    static let stepAttempts = StateDocumentKeys(["failed", "id", "interrupted", "version"], indentation: 6)
    /// `inProgress`: members at level 2.
    static let stepInProgress = StateDocumentKeys(["attempt", "id", "version"], indentation: 4)
    /// `history` entries: members at level 3.
    static let launchRecord = StateDocumentKeys(["from", "outcome", "steps", "time", "to"], indentation: 6)
    /// A history entry's steps: members at level 5.
    static let launchStep = StateDocumentKeys(
        ["abandoned", "attempt", "id", "milliseconds", "result"], indentation: 10)
}
