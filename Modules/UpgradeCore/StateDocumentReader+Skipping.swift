import VersionKit

// Skip mode: the history validated exactly as `launchRecord()` and `launchStep()` read it, but not
// built (`document(withHistory: false)`, for a launch's quick look at the state).
//
// `skipLaunchRecord` and `skipLaunchStep` mirror `launchRecord()` and `launchStep()` call for call,
// so that they accept and reject exactly the same text, but keep nothing: the values are checked
// and dropped, and nothing is allocated for them (a string is checked in place; only one that is
// not all ASCII is decoded to check its UTF-8, as `string()` does; a number's form and range are
// checked, not its value; a version's form is checked without building the version).
//
// Each first tries the writer's exact layout of the object (`skipWrittenLaunchRecord`,
// `skipWrittenLaunchStep`): the fixed text between the values (line breaks, indentation, keys in
// order, ` : `, commas, brackets) is matched as a few 8-byte words, and each value is checked in
// place by the very validator the member loop calls for it. That cannot change what is accepted:
//
// - The layout path only ever accepts. On any difference from the writer's text, and on any value
//   its validator rejects, it gives up: the index goes back to the start of the object and the
//   general member loop reads the object from there and decides, as it would have without the
//   layout path.
// - When the layout path accepts an object, the member loop run from the same start accepts it too
//   and stops at the same index. The loop also tries first the writer's line break, indentation,
//   key and ` : ` for the next key in order, so it meets the members in the same order at the same
//   places. Each value is checked at the same index by the same validator, or, for `null`, `true`,
//   `false`, an outcome and a result, matched against the same literals the loop's readers match
//   (the layout allows no white space before them, the loop would: stricter only). And the commas,
//   line breaks, indentation and closing brackets between members and elements are structure and
//   white space that the loop's `nextMember()`, `skipArray(_:)` and `expect(_:)` read alike.
//
// So skip mode accepts and rejects exactly the documents the full reader accepts and rejects; the
// tests change every byte of a writer-layout document to check it (StateDocumentSkippingTests).

extension StateDocumentReader {
    // MARK: History entries

    /// Validates a history entry as `launchRecord()` reads it, without building it.
    ///
    /// - Parameter tables: `StateDocumentHistoryTables.shared`.
    mutating func skipLaunchRecord(_ tables: StateDocumentHistoryTables) throws(Fallback) {
        // The white space before the `{` (the member loop's `expect(_:)` skips it too).
        skipSpace()
        let start = index
        do {
            if try skipWrittenLaunchRecord(tables) { return }
        } catch {}
        // Not the writer's layout, or a fault: the member loop decides.
        index = start
        try expect(UInt8(ascii: "{"))
        var members = Members(tables.recordKeys)
        repeat {
            switch try member(&members) {
            case 0: try skipOptionalVersion()
            case 1: _ = try outcome()
            case 2: try skipArray { reader throws(Fallback) in try reader.skipLaunchStep(tables) }
            case 3: try skipDouble()
            default: try skipVersion()
            }
        } while try nextMember()
        guard members.complete else { throw Fallback() }
    }

    /// Validates a history entry's step as `launchStep()` reads it, without building it.
    ///
    /// - Parameter tables: `StateDocumentHistoryTables.shared`.
    mutating func skipLaunchStep(_ tables: StateDocumentHistoryTables) throws(Fallback) {
        // The white space before the `{` (the member loop's `expect(_:)` skips it too).
        skipSpace()
        let start = index
        do {
            if try skipWrittenLaunchStep(tables) { return }
        } catch {}
        // Not the writer's layout, or a fault: the member loop decides.
        index = start
        try expect(UInt8(ascii: "{"))
        var members = Members(tables.stepKeys)
        repeat {
            switch try member(&members) {
            case 0: _ = try boolean()
            case 1: _ = try integer()
            case 2: try skipString()
            case 3: try skipDouble()
            default: _ = try resultKind()
            }
        } while try nextMember()
        guard members.complete else { throw Fallback() }
    }

    // MARK: The writer's layout

    /// Validates a history entry laid out exactly as the writer writes it, at `index` (its `{`).
    ///
    /// Every value is checked by the validator `skipLaunchRecord`'s member loop calls for it, and
    /// the text between values is the text that loop reads there (see the top of this file).
    ///
    /// - Returns: `true` with `index` after the entry's `}`; `false` (or a throw) where the text
    ///   differs from the writer's or a value is rejected, with `index` anywhere: the caller then
    ///   reads the entry from its start with the member loop.
    @inline(__always)
    mutating func skipWrittenLaunchRecord(_ tables: StateDocumentHistoryTables) throws(Fallback) -> Bool {
        let text = tables.text
        // `{`, `"from" : `, and `null` or a version.
        guard skip(text.pointee.recordFrom) else { return false }
        if !skip(text.pointee.null) { try skipVersion() }
        // `, "outcome" : ` and one of the outcomes.
        guard skip(text.pointee.recordOutcome), skipOne(of: tables.outcomes) else { return false }
        // `, "steps" : [`, the steps, `], "time" : `.
        guard skip(text.pointee.recordSteps) else { return false }
        if !skip(text.pointee.noStepsThenTime) {
            guard skip(text.pointee.firstStep) else { return false }
            repeat {
                guard try skipWrittenLaunchStep(tables) else { return false }
            } while skip(text.pointee.nextStep)
            guard skip(text.pointee.stepsThenTime) else { return false }
        }
        try skipDouble()
        // `, "to" : `, a version, `}`.
        guard skip(text.pointee.recordTo) else { return false }
        try skipVersion()
        return skip(text.pointee.recordEnd)
    }

    /// Validates a step of a history entry laid out exactly as the writer writes it, at `index`
    /// (its `{`).
    ///
    /// Every value is checked by the validator `skipLaunchStep`'s member loop calls for it, and the
    /// text between values is the text that loop reads there (see the top of this file).
    ///
    /// - Returns: `true` with `index` after the step's `}`; `false` (or a throw) where the text
    ///   differs from the writer's or a value is rejected, with `index` anywhere: the caller then
    ///   reads the step from its start with the member loop.
    @inline(__always)
    mutating func skipWrittenLaunchStep(_ tables: StateDocumentHistoryTables) throws(Fallback) -> Bool {
        let text = tables.text
        // `{`, `"abandoned" : `, `false` or `true`, `, "attempt" : `.
        guard skip(text.pointee.stepAbandoned),
            skip(text.pointee.falseThenAttempt) || skip(text.pointee.trueThenAttempt)
        else { return false }
        _ = try integer()
        guard skip(text.pointee.stepID) else { return false }
        try skipString()
        guard skip(text.pointee.stepMilliseconds) else { return false }
        try skipDouble()
        // `, "result" : `, and one of the results with the step's `}`.
        guard skip(text.pointee.stepResult) else { return false }
        return skipOne(of: tables.resultsThenEnd)
    }

    /// Skips `literal` when the text at `index` begins with it.
    @inline(__always)
    mutating func skip(_ literal: StateDocumentLiteral) -> Bool {
        guard literal.matches(base, index, count) else { return false }
        index &+= literal.length
        return true
    }

    /// Skips the first of `literals` the text at `index` begins with; `false` when none.
    @inline(__always)
    mutating func skipOne(of literals: UnsafeBufferPointer<StateDocumentLiteral>) -> Bool {
        for literal in literals where skip(literal) { return true }
        return false
    }

    // MARK: Values

    /// Validates a string as `string()` reads it, without building it.
    @inline(__always)
    mutating func skipString() throws(Fallback) {
        var bits: UInt64 = 0
        let bytes = try rawString(&bits)
        if bits & 0x8080_8080_8080_8080 != 0,
            !String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
        {
            throw Fallback()
        }
    }

    /// Validates a version as `version()` reads it, without building it.
    @inline(__always)
    mutating func skipVersion() throws(Fallback) {
        skipSpace()
        let start = index
        if skipPlainVersion() { return }
        index = start
        let bytes = try rawString()
        if Self.plainVersion(bytes) == nil { _ = try Self.parsedVersion(bytes) }
    }

    /// Skips a quoted version in the plain form at `index`, in one pass over its bytes; `false`
    /// (with `index` anywhere) for any other text.
    ///
    /// It accepts exactly the strings whose bytes `plainVersion(_:)` accepts: 2 or 3 components of
    /// 1 to 10 digits, each at most 2^31 - 1. Those bytes are digits and dots, so `rawString()`
    /// reads the same string to the same end, and `version()` accepts it.
    @inline(__always)
    mutating func skipPlainVersion() -> Bool {
        guard index < count, base[index] == UInt8(ascii: "\"") else { return false }
        let limit = UInt64(Version.maximumComponentValue)
        var position = index &+ 1
        var completed = 0
        var value: UInt64 = 0
        var digits = 0
        while position < count {
            let byte = base[position]
            position &+= 1
            let digit = byte &- 0x30
            if digit < 10 {
                value = value &* 10 &+ UInt64(digit)
                digits &+= 1
                guard digits <= 10 else { return false }
                continue
            }
            // A component ends: it must have digits and lie in range.
            guard digits > 0, value <= limit else { return false }
            if byte == UInt8(ascii: "."), completed < 2 {
                completed &+= 1
                value = 0
                digits = 0
                continue
            }
            guard byte == UInt8(ascii: "\""), completed > 0 else { return false }
            index = position
            return true
        }
        return false
    }

    /// Validates `null` or a version as `optionalVersion()` reads it, without building it.
    mutating func skipOptionalVersion() throws(Fallback) {
        if try !isNull() { try skipVersion() }
    }

    /// Validates a JSON number as `double()` reads it, without computing its value.
    ///
    /// `double()` accepts a number of the right form exactly when its significand is 0 or its
    /// decimal exponent lies strictly between -300 and 260: the fast cases all lie in that range,
    /// and there the value is at least 10^-299 and below 10^279 (the significand has at most 19
    /// digits kept), so the standard library's parser always reads a normal value.
    ///
    /// A plain decimal (see `skipPlainDecimal()`) is accepted without `number()`; any other text is
    /// left to `number()` and that rule.
    @inline(__always)
    mutating func skipDouble() throws(Fallback) {
        skipSpace()
        let start = index
        if skipPlainDecimal() { return }
        index = start
        let (_, _, significand, exponent, _) = try number()
        guard significand == 0 || (exponent > -300 && exponent < 260) else { throw Fallback() }
    }

    /// Skips a plain decimal at `index`: `-`, if any, then `0` or a digit 1-9 and more digits, then
    /// `.` and at least one digit, if any, with at most 250 digits in all and no exponent, ended as
    /// `endOfNumber()` requires. `false` (with `index` anywhere) for any other text.
    ///
    /// `number()` reads such a number to the same end, and its decimal exponent (the integer digits
    /// it drops less the fraction digits it keeps) lies between -250 and 250, so `double()` accepts
    /// it whatever its digits.
    @inline(__always)
    mutating func skipPlainDecimal() -> Bool {
        guard index < count else { return false }
        if base[index] == UInt8(ascii: "-") { index &+= 1 }
        guard index < count else { return false }
        var digits = 1
        if base[index] != UInt8(ascii: "0") {
            digits = digitRun()
            guard digits > 0 else { return false }
        }
        index &+= digits
        if index < count, base[index] == UInt8(ascii: ".") {
            index &+= 1
            let fraction = digitRun()
            guard fraction > 0 else { return false }
            index &+= fraction
            digits &+= fraction
        }
        guard digits <= 250 else { return false }
        // Ended as `endOfNumber()` requires (so not by an exponent's `e` or `E`).
        guard index < count else { return true }
        switch base[index] {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"): return true
        default: return false
        }
    }

    /// How many ASCII digits follow at `index`, counted eight at a time where eight bytes remain.
    ///
    /// In a word, a byte is a digit when its high half is 3 and adding 6 to its low half does not
    /// reach 16; neither test carries into the next byte, so the lowest byte that fails one is the
    /// first that is not a digit.
    @inline(__always)
    func digitRun() -> Int {
        var position = index
        while count &- position >= 8 {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            let other =
                ((word & 0xF0F0_F0F0_F0F0_F0F0) ^ 0x3030_3030_3030_3030)
                | (((word & 0x0F0F_0F0F_0F0F_0F0F) &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0)
            if other != 0 { return position &- index &+ other.trailingZeroBitCount >> 3 }
            position &+= 8
        }
        while position < count, base[position] &- 0x30 < 10 { position &+= 1 }
        return position &- index
    }
}

/// Everything skip mode needs to validate a history, made once and kept for the life of the
/// process in plain memory, so that reading an entry copies a few pointers and counts no
/// references.
struct StateDocumentHistoryTables: @unchecked Sendable {
    /// The fixed text the writer puts between the values of a history entry (members at level 3)
    /// and of its steps (members at level 5), each named after what it matches (the text is in
    /// `init()`).
    struct Text {
        let recordFrom: StateDocumentLiteral
        let null: StateDocumentLiteral
        let recordOutcome: StateDocumentLiteral
        let recordSteps: StateDocumentLiteral
        let noStepsThenTime: StateDocumentLiteral
        let firstStep: StateDocumentLiteral
        let nextStep: StateDocumentLiteral
        let stepsThenTime: StateDocumentLiteral
        let recordTo: StateDocumentLiteral
        let recordEnd: StateDocumentLiteral
        let stepAbandoned: StateDocumentLiteral
        let falseThenAttempt: StateDocumentLiteral
        let trueThenAttempt: StateDocumentLiteral
        let stepID: StateDocumentLiteral
        let stepMilliseconds: StateDocumentLiteral
        let stepResult: StateDocumentLiteral
    }

    let recordKeys: StateDocumentKeys
    let stepKeys: StateDocumentKeys
    let text: UnsafePointer<Text>
    /// Each outcome, quoted, as `outcome()` matches it; `upgraded` first, the most common (at most
    /// one quoted name can match at a place, so the order changes only the speed).
    let outcomes: UnsafeBufferPointer<StateDocumentLiteral>
    /// Each step result, quoted, as `resultKind()` matches it, then the step's closing line.
    let resultsThenEnd: UnsafeBufferPointer<StateDocumentLiteral>

    static let shared = StateDocumentHistoryTables()

    private init() {
        recordKeys = .launchRecord
        stepKeys = .launchStep
        // Objects at level 2 (entries) and 4 (steps), their members one level deeper.
        func line(_ level: Int) -> String { "\n" + String(repeating: " ", count: 2 * level) }
        func key(_ name: String, _ level: Int) -> String { line(level) + "\"\(name)\" : " }
        let text = UnsafeMutablePointer<Text>.allocate(capacity: 1)
        text.initialize(
            to: Text(
                recordFrom: StateDocumentLiteral("{" + key("from", 3)),
                null: .null,
                recordOutcome: StateDocumentLiteral("," + key("outcome", 3)),
                recordSteps: StateDocumentLiteral("," + key("steps", 3) + "["),
                noStepsThenTime: StateDocumentLiteral("\n" + line(3) + "]," + key("time", 3)),
                firstStep: StateDocumentLiteral(line(4)),
                nextStep: StateDocumentLiteral("," + line(4)),
                stepsThenTime: StateDocumentLiteral(line(3) + "]," + key("time", 3)),
                recordTo: StateDocumentLiteral("," + key("to", 3)),
                recordEnd: StateDocumentLiteral(line(2) + "}"),
                stepAbandoned: StateDocumentLiteral("{" + key("abandoned", 5)),
                falseThenAttempt: StateDocumentLiteral("false," + key("attempt", 5)),
                trueThenAttempt: StateDocumentLiteral("true," + key("attempt", 5)),
                stepID: StateDocumentLiteral("," + key("id", 5)),
                stepMilliseconds: StateDocumentLiteral("," + key("milliseconds", 5)),
                stepResult: StateDocumentLiteral("," + key("result", 5))))
        self.text = UnsafePointer(text)
        let outcomes = [UpgradeOutcome.upgraded] + UpgradeOutcome.allCases.filter { $0 != .upgraded }
        self.outcomes = Self.permanent(outcomes.map { StateDocumentLiteral("\"\($0.rawValue)\"") })
        resultsThenEnd = Self.permanent(
            StateDocumentReader.resultKinds.map { StateDocumentLiteral("\"\($0.rawValue)\"" + line(4) + "}") })
    }

    private static func permanent(_ literals: [StateDocumentLiteral]) -> UnsafeBufferPointer<StateDocumentLiteral> {
        let buffer = UnsafeMutableBufferPointer<StateDocumentLiteral>.allocate(capacity: literals.count)
        _ = buffer.initialize(from: literals)
        return UnsafeBufferPointer(buffer)
    }
}
