import StrictJSON
import UpgradeCore
import UpgradeFixtures
import VersionKit

/// What one simulated launch did: the keys of a fixture's `expect` object, plus the steps that
/// finished.
public struct LaunchObservation: Sendable, Hashable, CustomStringConvertible {
    /// How the launch ended; ``/UpgradeFixtures/SimulatedOutcome/crashed`` when the process died inside a step.
    public var outcome: SimulatedOutcome
    /// The ids of the steps whose action was started, in order, including one that failed or crashed.
    public var ran: [String]
    /// The ids of the steps abandoned in the launch, in order.
    public var abandoned: [String]
    /// The upgraded-through mark after the launch (for a crash: as the dead process left it).
    public var upgradedThrough: Version?
    /// The ids of the steps whose action finished, in order: ``ran`` without the failed or crashed one.
    public var finished: [String]
    /// Why a ``/UpgradeFixtures/SimulatedOutcome/deferred`` launch decided nothing, in words (`protected data unavailable`,
    /// `left to the app`, `ID said not now: REASON`); `nil` for other outcomes, or when not known.
    public var deferral: String?
    /// The version the launch adopted from a legacy key (a history's `legacyVersion`): the launch
    /// found no state, read the version under the key, and stored the state it started from; `nil`
    /// when it adopted nothing.
    public var adoptedFrom: Version?

    /// Creates an observation.
    ///
    /// - Parameters:
    ///   - outcome: How the launch ended.
    ///   - ran: The steps started, in order.
    ///   - abandoned: The steps abandoned, in order.
    ///   - upgradedThrough: The mark after the launch.
    ///   - finished: The steps that finished, in order.
    ///   - deferral: Why a deferred launch decided nothing, in words; `nil` by default.
    ///   - adoptedFrom: The version adopted from a legacy key; `nil` by default.
    package init(
        outcome: SimulatedOutcome, ran: [String] = [], abandoned: [String] = [], upgradedThrough: Version?,
        finished: [String] = [], deferral: String? = nil, adoptedFrom: Version? = nil
    ) {
        self.adoptedFrom = adoptedFrom
        self.outcome = outcome
        self.ran = ran
        self.abandoned = abandoned
        self.upgradedThrough = upgradedThrough
        self.finished = finished
        self.deferral = deferral
    }

    /// A deferral in the few words an observation keeps: `protected data unavailable`, `left to the
    /// app`, `ID said not now: REASON`. The store's own explanation of unavailable data is left out, so
    /// that a launch in memory and one against a file say the same.
    ///
    /// - Parameter deferral: The engine's reason.
    /// - Returns: The words.
    package static func words(for deferral: UpgradeDeferral) -> String {
        switch deferral {
        case .protectedDataUnavailable: "protected data unavailable"
        case .stepNotNow(let stepID, let reason): "\(stepID) said not now: \(reason)"
        case .leftToApp: "left to the app"
        }
    }

    /// The observation as the `launch` command prints it: one line of JSON with the keys `outcome`,
    /// `ran`, `abandoned` and `upgradedThrough`, in that order, `deferral` after them when
    /// ``deferral`` is known, and `adoptedFrom` last when the launch adopted a legacy version.
    package var jsonText: String { JSONWriter.compact(jsonValue) }

    package var jsonValue: JSONValue {
        var object = JSONObject(entries: [
            ("outcome", .string(outcome.rawValue)),
            ("ran", .array(ran.map { .string($0) })),
            ("abandoned", .array(abandoned.map { .string($0) })),
            ("upgradedThrough", upgradedThrough.map { .string($0.description) } ?? .null),
        ])
        if let deferral { object.append("deferral", .string(deferral)) }
        if let adoptedFrom { object.append("adoptedFrom", .string(adoptedFrom.description)) }
        return .object(object)
    }

    /// A one-line summary, such as `upgraded through 2.0, ran [a, b], abandoned []`, ending
    /// `, adopted from 1.2` when the launch adopted a legacy version.
    public var description: String {
        "\(outcome) through \(upgradedThrough.map { "\($0)" } ?? "nothing"), ran [\(ran.joined(separator: ", "))],"
            + " abandoned [\(abandoned.joined(separator: ", "))]" + (adoptedFrom.map { ", adopted from \($0)" } ?? "")
    }
}

extension LaunchObservation {
    /// Reads what the `launch` command printed; ``finished`` is left empty (the command does not
    /// print it).
    ///
    /// - Parameter jsonText: One JSON object with the keys `outcome`, `ran`, `abandoned` and
    ///   `upgradedThrough`, and optionally `deferral` and `adoptedFrom` (strings), and no other.
    /// - Throws: `SimulationError` when the text is not such an object.
    package init(jsonText: String) throws(SimulationError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(Array(jsonText.utf8))
        } catch {
            throw SimulationError("the launch output is not valid JSON (\(error.message)): \(jsonText)")
        }
        var deferral: String?
        if case .object(let object) = value, let given = object["deferral"] {
            guard case .string(let text) = given else {
                throw SimulationError("the launch output has a deferral that is not a string: \(jsonText)")
            }
            deferral = text
        }
        var adoptedFrom: Version?
        if case .object(let object) = value, let given = object["adoptedFrom"] {
            guard case .string(let text) = given, let version = Version(text) else {
                throw SimulationError("the launch output has an adoptedFrom that is not a version: \(jsonText)")
            }
            adoptedFrom = version
        }
        let optional = (deferral == nil ? 0 : 1) + (adoptedFrom == nil ? 0 : 1)
        guard case .object(let object) = value, object.count == 4 + optional,
            case .string(let outcomeText)? = object["outcome"], let outcome = SimulatedOutcome(rawValue: outcomeText),
            case .array(let ranValues)? = object["ran"], case .array(let abandonedValues)? = object["abandoned"],
            let markValue = object["upgradedThrough"]
        else { throw SimulationError("the launch output is not a launch observation: \(jsonText)") }
        func ids(_ values: [JSONValue]) throws(SimulationError) -> [String] {
            var result: [String] = []
            for value in values {
                guard case .string(let id) = value else {
                    throw SimulationError("the launch output has a step id that is not a string: \(jsonText)")
                }
                result.append(id)
            }
            return result
        }
        var mark: Version?
        switch markValue {
        case .null: mark = nil
        case .string(let text):
            guard let version = Version(text) else {
                throw SimulationError("the launch output has an invalid upgradedThrough: \(jsonText)")
            }
            mark = version
        default: throw SimulationError("the launch output has an invalid upgradedThrough: \(jsonText)")
        }
        self.init(
            outcome: outcome, ran: try ids(ranValues), abandoned: try ids(abandonedValues), upgradedThrough: mark,
            deferral: deferral, adoptedFrom: adoptedFrom)
    }
}
