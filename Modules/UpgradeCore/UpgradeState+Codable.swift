import VersionKit

// The state document is read strictly: an unknown key, a missing key or a value of the wrong type is
// an error, so that a damaged or foreign document is never taken for a valid one. A newer format is
// reported before anything else is read, since its shape may differ.

extension UpgradeState: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, upgradedThrough, lastLaunched, completed, abandoned, attempts, inProgress, history
    }

    /// Reads a state document.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: ``UnsupportedStateFormatError`` for a document of a newer format; `DecodingError`
    ///   for an unknown or missing key or a wrong value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let format = try container.decode(Int.self, forKey: .format)
        if format > Self.currentFormat {
            throw UnsupportedStateFormatError(found: format, supported: Self.currentFormat)
        }
        guard format >= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .format, in: container, debugDescription: "format \(format) is not a valid format number")
        }
        try decoder.rejectUnknownKeys(CodingKeys.self)
        self.format = format
        upgradedThrough = try container.decode(Version?.self, forKey: .upgradedThrough)
        lastLaunched = try container.decode(Version?.self, forKey: .lastLaunched)
        completed = try container.decode([StepRecord].self, forKey: .completed)
        abandoned = try container.decode([StepRecord].self, forKey: .abandoned)
        attempts = try container.decode([StepAttempts].self, forKey: .attempts)
        inProgress = try container.decode(StepInProgress?.self, forKey: .inProgress)
        history = try container.decode([LaunchRecord].self, forKey: .history)
    }

    /// Writes the state document, every key present (`null` for an absent value).
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error, if any.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(upgradedThrough, forKey: .upgradedThrough)
        try container.encode(lastLaunched, forKey: .lastLaunched)
        try container.encode(completed, forKey: .completed)
        try container.encode(abandoned, forKey: .abandoned)
        try container.encode(attempts, forKey: .attempts)
        try container.encode(inProgress, forKey: .inProgress)
        try container.encode(history, forKey: .history)
    }
}

/// Thrown while reading a state document written by a newer version of this package.
public struct UnsupportedStateFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format number found in the document.
    public let found: Int
    /// The newest format this code reads.
    public let supported: Int

    /// The two format numbers in a sentence.
    public var description: String {
        "the state has format \(found), but this version of AppUpgrade reads format \(supported) at most;"
            + " it was written by a newer version of the app and is left as it is"
    }
}

struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Throws when the keyed value being decoded has a key that `Keys` does not list, naming the
    /// first such key in UTF-8 order.
    ///
    /// `allKeys` comes in no fixed order (JSONDecoder keeps the keys in a dictionary), so the keys
    /// are sorted first: with several unknown keys, the same document always gets the same error.
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let present = try container(keyedBy: AnyCodingKey.self).allKeys
        guard
            let key = present.filter({ Keys(stringValue: $0.stringValue) == nil })
                .min(by: { $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8) })
        else { return }
        let known = Keys.allCases.map(\.stringValue).joined(separator: ", ")
        throw DecodingError.dataCorrupted(
            .init(
                codingPath: codingPath + [key],
                debugDescription: "unknown key \"\(key.stringValue)\"; the keys here are \(known)"))
    }
}

extension StepRecord {
    enum CodingKeys: String, CodingKey, CaseIterable { case id, version }

    /// Reads a record, rejecting unknown keys.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` for an unknown or missing key or a wrong value.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            version: try container.decode(Version.self, forKey: .version))
    }
}

extension StepAttempts {
    enum CodingKeys: String, CodingKey, CaseIterable { case id, version, failed, interrupted }

    /// Reads a count, rejecting unknown keys and counts below 1.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` for an unknown or missing key or a wrong value.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let failed = try container.decode(Int.self, forKey: .failed)
        guard failed >= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .failed, in: container,
                debugDescription: "a failed-attempt count must be at least 1, not \(failed)")
        }
        self.init(
            id: try container.decode(String.self, forKey: .id),
            version: try container.decode(Version.self, forKey: .version), failed: failed,
            lastAttemptInterrupted: try container.decode(Bool.self, forKey: .interrupted))
    }

    /// Writes a count, every key present.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error, if any.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(version, forKey: .version)
        try container.encode(failed, forKey: .failed)
        try container.encode(lastAttemptInterrupted, forKey: .interrupted)
    }
}

extension StepInProgress {
    enum CodingKeys: String, CodingKey, CaseIterable { case id, version, attempt }

    /// Reads a running-step record, rejecting unknown keys and attempts below 1.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` for an unknown or missing key or a wrong value.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let attempt = try container.decode(Int.self, forKey: .attempt)
        guard attempt >= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .attempt, in: container,
                debugDescription: "an attempt number must be at least 1, not \(attempt)")
        }
        self.init(
            id: try container.decode(String.self, forKey: .id),
            version: try container.decode(Version.self, forKey: .version), attempt: attempt)
    }
}

extension LaunchRecord {
    enum CodingKeys: String, CodingKey, CaseIterable { case time, from, to, outcome, steps }

    /// Reads a launch record, rejecting unknown keys.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` for an unknown or missing key or a wrong value.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            time: try container.decode(Double.self, forKey: .time),
            from: try container.decode(Version?.self, forKey: .from),
            to: try container.decode(Version.self, forKey: .to),
            outcome: try container.decode(UpgradeOutcome.self, forKey: .outcome),
            steps: try container.decode([Step].self, forKey: .steps))
    }

    /// Writes a launch record, every key present.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error, if any.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(time, forKey: .time)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(steps, forKey: .steps)
    }
}

extension LaunchRecord.Step {
    enum CodingKeys: String, CodingKey, CaseIterable { case id, attempt, result, abandoned, milliseconds }

    /// Reads a step record, rejecting unknown keys.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` for an unknown or missing key or a wrong value.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            attempt: try container.decode(Int.self, forKey: .attempt),
            result: try container.decode(StepReport.Result.Kind.self, forKey: .result),
            abandoned: try container.decode(Bool.self, forKey: .abandoned),
            milliseconds: try container.decode(Double.self, forKey: .milliseconds))
    }
}
