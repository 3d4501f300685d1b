import StrictJSON
import UpgradeCore
import VersionKit

extension Fixture {
    /// The fixture as a JSON document that ``FixtureLoader`` reads back to an equal fixture (apart
    /// from ``file``): keys in the order of the fixture format, defaults left out (a default policy key,
    /// a step id equal to the step-name form of its version, a floor id equal to `upgradeFloor_A_B[_C]`,
    /// a `succeed` behaviour, an empty `allow` list), two-space indentation and a final line break.
    ///
    /// `explore` prints the histories it finds this way, so that they can be saved and replayed.
    public var jsonText: String { JSONWriter.pretty(jsonValue) + "\n" }

    package var jsonValue: JSONValue {
        var object = JSONObject()
        object.append("name", .string(name))
        if let summary { object.append("description", .string(summary)) }
        let policyObject = policy.jsonObject
        if policyObject.count > 0 { object.append("policy", .object(policyObject)) }
        object.append("steps", .array(steps.map(\.jsonValue)))
        if let floor { object.append("floor", floor.jsonValue(defaultID: floor.version.floorID)) }
        if !versions.isEmpty { object.append("versions", .array(versions.map { .string($0.description) })) }
        object.append("histories", .array(histories.map(\.jsonValue)))
        return .object(object)
    }
}

extension UpgradePolicy {
    /// The keys that differ from the defaults.
    var jsonObject: JSONObject {
        var object = JSONObject()
        switch freshInstall {
        case .skip: break
        case .runAll: object.append("freshInstall", .string("runAll"))
        case .upgradeFrom(let version):
            object.append("freshInstall", .object(JSONObject(entries: [("upgradeFrom", .string(version.description))])))
        }
        if downgrade == .rewind { object.append("downgrade", .string("rewind")) }
        if let giveUpAfter { object.append("giveUpAfter", .integer(giveUpAfter)) }
        return object
    }
}

extension ScriptedStep {
    package var jsonValue: JSONValue { jsonValue(defaultID: version.stepName) }

    /// The step's object, without its id when it is `defaultID`.
    package func jsonValue(defaultID: String) -> JSONValue {
        var object = JSONObject()
        if id != defaultID { object.append("id", .string(id)) }
        object.append("version", .string(version.description))
        if behavior != .succeed { object.append("behavior", behavior.jsonValue) }
        if let durationMs { object.append("durationMs", .integer(durationMs)) }
        if let since { object.append("since", .string(since.description)) }
        if let until { object.append("until", .string(until.description)) }
        if !allow.isEmpty {
            let kinds = FindingKind.allCases.filter(allow.contains)
            object.append("allow", .array(kinds.map { .string($0.rawValue) }))
        }
        return .object(object)
    }
}

extension StepBehavior {
    package var jsonValue: JSONValue {
        switch self {
        case .succeed: .string("succeed")
        case .fail: .string("fail")
        case .crash: .string("crash")
        case .failTimes(let count): .object(JSONObject(entries: [("failTimes", .integer(count))]))
        case .crashTimes(let count): .object(JSONObject(entries: [("crashTimes", .integer(count))]))
        case .script(let entries):
            .object(JSONObject(entries: [("script", .array(entries.map { .string($0.rawValue) }))]))
        }
    }
}

extension FixtureHistory {
    package var jsonValue: JSONValue {
        var object = JSONObject()
        object.append("name", .string(name))
        if let legacyVersion { object.append("legacyVersion", .string(legacyVersion.description)) }
        object.append(
            "launches",
            .array(
                launches.indices.map { position in
                    let version = JSONValue.string(launches[position].description)
                    let condition = conditions[position]
                    guard followers.contains(position) || condition != nil else { return version }
                    var object = JSONObject(entries: [("version", version)])
                    if followers.contains(position) { object.append("follower", .bool(true)) }
                    switch condition {
                    case .locked?: object.append("locked", .bool(true))
                    case .expire(let id)?: object.append("expire", .string(id))
                    case nil: break
                    }
                    return .object(object)
                }))
        if let expect { object.append("expect", .array(expect.map(\.jsonValue))) }
        return .object(object)
    }
}

extension JSONValue {
    /// The `launches` member of a history's object; `.null` for anything else.
    package var launchesValue: JSONValue {
        guard case .object(let object) = self, let launches = object["launches"] else { return .null }
        return launches
    }
}

extension LaunchExpectation {
    package var jsonValue: JSONValue {
        var object = JSONObject()
        if let outcome { object.append("outcome", .string(outcome.rawValue)) }
        if let ran { object.append("ran", .array(ran.map { .string($0) })) }
        if let abandoned { object.append("abandoned", .array(abandoned.map { .string($0) })) }
        if let upgradedThrough {
            object.append("upgradedThrough", upgradedThrough.map { .string($0.description) } ?? .null)
        }
        if let adoptedFrom { object.append("adoptedFrom", adoptedFrom.map { .string($0.description) } ?? .null) }
        return .object(object)
    }
}
