import StrictJSON
import UpgradeCore
import VersionKit

/// Reads a fixture document strictly (the fixture format of the module's overview): an unknown key, a wrong type, a bad version,
/// a duplicate id or history name, an `expect` list of the wrong length, an empty `launches` list,
/// `giveUpAfter` below 1, an unknown behaviour or outcome, an expected step id that no step has, an
/// `until` below its `since`, a floor whose builds contain a step at or below its version, an
/// unknown or repeated `allow` entry, a launch that is `locked` and `expire`s, a follower that
/// `expire`s or an `expire` naming no step, a `legacyVersion` that is not a version, or an
/// `adoptedFrom` in a history without `legacyVersion` or naming another version, is a
/// ``FixtureError`` naming the file, the JSON path and what is wrong.
struct FixtureDecoder {
    let file: String
    /// The typed readers; their faults become ``FixtureError``s of this file in ``decode(_:)``.
    var shape: JSONShape { JSONShape() }

    func decode(_ bytes: [UInt8]) throws(FixtureError) -> Fixture {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw FixtureError(
                file: file, path: error.path, line: error.line, column: error.column,
                message: "invalid JSON: \(error.message)")
        }
        do {
            return try fixture(root)
        } catch {
            throw FixtureError(file: file, path: error.path, message: error.message)
        }
    }

    // MARK: - The document

    private func fixture(_ value: JSONValue) throws(JSONShapeFault) -> Fixture {
        let top = StrictJSON.JSONPath()
        let object = try shape.object(
            value, at: top, keys: ["name", "description", "policy", "steps", "floor", "histories", "versions"],
            required: ["name", "steps", "histories"])
        let name = try shape.nonEmptyString(object["name"]!, at: top.appending("name"))
        let summary = try object["description"].map { (value) throws(JSONShapeFault) in
            try shape.string(value, at: top.appending("description"))
        }
        let policy = try object["policy"].map { (value) throws(JSONShapeFault) in
            try self.policy(value, at: top.appending("policy"))
        }
        let steps = try self.steps(object["steps"]!, at: top.appending("steps"))
        let floor = try object["floor"].map { (value) throws(JSONShapeFault) in
            try self.floor(value, at: top.appending("floor"), steps: steps, stepsPath: top.appending("steps"))
        }
        let histories = try self.histories(
            object["histories"]!, at: top.appending("histories"),
            ids: Set(steps.map(\.id) + (floor.map { [$0.id] } ?? [])))
        var versions: [Version] = []
        if let list = object["versions"] {
            let path = top.appending("versions")
            for (index, element) in try shape.array(list, at: path).enumerated() {
                versions.append(try shape.version(element, at: path.appending(index)))
            }
        }
        return Fixture(
            name: name, summary: summary, policy: policy ?? UpgradePolicy(), steps: steps, floor: floor,
            histories: histories,
            versions: versions, file: file)
    }

    private func policy(_ value: JSONValue, at path: StrictJSON.JSONPath) throws(JSONShapeFault) -> UpgradePolicy {
        let object = try shape.object(
            value, at: path, keys: ["freshInstall", "downgrade", "giveUpAfter"], required: [])
        var policy = UpgradePolicy()
        if let fresh = object["freshInstall"] {
            let here = path.appending("freshInstall")
            let expected = "expected \"skip\", \"runAll\" or {\"upgradeFrom\": \"1.0\"}"
            switch fresh {
            case .string("skip"): policy.freshInstall = .skip
            case .string("runAll"): policy.freshInstall = .runAll
            case .string(let other):
                throw failure(here, "unknown freshInstall policy \(JSONWriter.quoted(other)); \(expected)")
            case .object:
                let inner = try shape.object(fresh, at: here, keys: ["upgradeFrom"], required: ["upgradeFrom"])
                policy.freshInstall = .upgradeFrom(
                    try shape.version(inner["upgradeFrom"]!, at: here.appending("upgradeFrom")))
            default:
                throw failure(here, "\(expected), found \(shape.describe(fresh))")
            }
        }
        if let downgrade = object["downgrade"] {
            let here = path.appending("downgrade")
            switch downgrade {
            case .string("keep"): policy.downgrade = .keep
            case .string("rewind"): policy.downgrade = .rewind
            case .string(let other):
                throw failure(
                    here, "unknown downgrade policy \(JSONWriter.quoted(other)); expected \"keep\" or \"rewind\"")
            default:
                throw failure(here, "expected \"keep\" or \"rewind\", found \(shape.describe(downgrade))")
            }
        }
        if let limit = object["giveUpAfter"] {
            let here = path.appending("giveUpAfter")
            switch limit {
            case .null: policy.giveUpAfter = nil
            case .integer(let count) where count >= 1: policy.giveUpAfter = count
            case .integer(let count):
                throw failure(here, "giveUpAfter must be at least 1, or null to never give up; found \(count)")
            default:
                throw failure(here, "expected a whole number of at least 1, or null, found \(shape.describe(limit))")
            }
        }
        return policy
    }

    // MARK: - Steps

    private func steps(_ value: JSONValue, at path: StrictJSON.JSONPath) throws(JSONShapeFault) -> [ScriptedStep] {
        var steps: [ScriptedStep] = []
        var firstIndexByID: [String: Int] = [:]
        for (index, element) in try shape.array(value, at: path).enumerated() {
            let here = path.appending(index)
            let object = try shape.object(
                element, at: here, keys: ["id", "version", "behavior", "durationMs", "since", "until", "allow"],
                required: ["version"])
            let (version, id, common) = try stepParts(object, at: here)
            let step = ScriptedStep(
                version: version, id: id, behavior: common.behavior, durationMs: common.durationMs,
                since: common.since, until: common.until, allow: try allow(object["allow"], at: here.appending("allow"))
            )
            if let first = firstIndexByID[step.id] {
                let origin = id == nil ? " (the default id of version \(version))" : ""
                throw failure(
                    here.appending(id == nil ? "version" : "id"),
                    "duplicate step id \(JSONWriter.quoted(step.id))\(origin): \(path.appending(first)) has it too;"
                        + " give one of them another \"id\"")
            }
            firstIndexByID[step.id] = index
            steps.append(step)
        }
        return steps
    }

    /// The keys a step and a floor share, read: `version`, `id`, `behavior`, `durationMs`, `since`, `until`.
    private func stepParts(_ object: JSONObject, at here: StrictJSON.JSONPath) throws(JSONShapeFault) -> (
        version: Version, id: String?,
        common: (behavior: StepBehavior, durationMs: Int?, since: Version?, until: Version?)
    ) {
        let version = try shape.version(object["version"]!, at: here.appending("version"))
        var id: String?
        if let given = object["id"] {
            id = try stepID(given, at: here.appending("id"))
        }
        let behavior = try object["behavior"].map { (value) throws(JSONShapeFault) in
            try self.behavior(value, at: here.appending("behavior"))
        }
        var duration: Int?
        if let given = object["durationMs"] {
            duration = try shape.integer(given, at: here.appending("durationMs"), minimum: 0, what: "durationMs")
        }
        let since = try object["since"].map { (value) throws(JSONShapeFault) in
            try shape.version(value, at: here.appending("since"))
        }
        let until = try object["until"].map { (value) throws(JSONShapeFault) in
            try shape.version(value, at: here.appending("until"))
        }
        if let since, let until, until < since {
            throw failure(
                here.appending("until"),
                "until \(until) is below since \(since): no build would contain it; \"since\" is the first app version"
                    + " whose build has it, \"until\" the last")
        }
        return (version, id, (behavior ?? .succeed, duration, since, until))
    }

    /// The `allow` list of a step: `"late"` and `"lost"`, each at most once.
    private func allow(_ value: JSONValue?, at path: StrictJSON.JSONPath) throws(JSONShapeFault) -> Set<FindingKind> {
        guard let value else { return [] }
        var kinds = Set<FindingKind>()
        for (index, element) in try shape.array(value, at: path).enumerated() {
            let here = path.appending(index)
            let text = try shape.string(element, at: here)
            guard let kind = FindingKind(rawValue: text) else {
                throw failure(here, "unknown finding \(JSONWriter.quoted(text)); expected \"late\" or \"lost\"")
            }
            if !kinds.insert(kind).inserted { throw failure(here, "\(JSONWriter.quoted(text)) is listed twice") }
        }
        return kinds
    }

    // MARK: - The floor

    private func floor(
        _ value: JSONValue, at path: StrictJSON.JSONPath, steps: [ScriptedStep], stepsPath: StrictJSON.JSONPath
    ) throws(JSONShapeFault) -> ScriptedStep {
        let object = try shape.object(
            value, at: path, keys: ["id", "version", "behavior", "durationMs", "since", "until"],
            required: ["version"])
        let (version, id, common) = try stepParts(object, at: path)
        let floor = ScriptedStep.floor(
            version, id: id, behavior: common.behavior, durationMs: common.durationMs, since: common.since,
            until: common.until)
        if let index = steps.firstIndex(where: { $0.id == floor.id }) {
            let origin = id == nil ? " (the default id of a floor at \(version))" : ""
            throw failure(
                path.appending(id == nil ? "version" : "id"),
                "duplicate step id \(JSONWriter.quoted(floor.id))\(origin): \(stepsPath.appending(index)) has it too;"
                    + " give one of them another \"id\"")
        }
        // In a build with a floor, a step at or below its version is a configuration error.
        for (index, step) in steps.enumerated() where step.version <= version {
            let from = [step.since, floor.since].compactMap { $0 }.max()
            let to = [step.until, floor.until].compactMap { $0 }.min()
            if let from, let to, to < from { continue }
            let builds =
                switch (from, to) {
                case (nil, nil): "every build"
                case (let from?, nil): "the builds from \(from) on"
                case (nil, let to?): "the builds up to \(to)"
                case (let from?, let to?): from == to ? "the build of \(from)" : "the builds from \(from) to \(to)"
                }
            throw failure(
                stepsPath.appending(index),
                "step \(JSONWriter.quoted(step.id)) (\(step.version)) is at or below the floor \(floor.id) (\(version)),"
                    + " and \(builds) contain both; in a build with a floor, a step at or below its version is a"
                    + " configuration error: end the step (\"until\") before the floor's \"since\", or lower the floor")
        }
        return floor
    }

    private func stepID(_ value: JSONValue, at path: StrictJSON.JSONPath) throws(JSONShapeFault) -> String {
        let id = try shape.nonEmptyString(value, at: path)
        if id.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw failure(path, "a step id may not contain control characters such as a line break")
        }
        return id
    }

    private func behavior(_ value: JSONValue, at path: StrictJSON.JSONPath) throws(JSONShapeFault) -> StepBehavior {
        let expected =
            "expected \"succeed\", \"fail\", \"crash\", {\"failTimes\": n}, {\"crashTimes\": n} or"
            + " {\"script\": [\"ok\", \"fail\", \"crash\", ...]}"
        switch value {
        case .string("succeed"): return .succeed
        case .string("fail"): return .fail
        case .string("crash"): return .crash
        case .string(let other):
            throw failure(path, "unknown behavior \(JSONWriter.quoted(other)); \(expected)")
        case .object(let object):
            let keys = ["failTimes", "crashTimes", "script"]
            _ = try shape.object(value, at: path, keys: keys, required: [])
            guard object.count == 1, let entry = object.entries.first else {
                let found = object.count == 0 ? "an empty object" : "several keys"
                throw failure(
                    path, "a behavior object has exactly one of the keys failTimes, crashTimes, script; found \(found)")
            }
            let here = path.appending(entry.key)
            switch entry.key {
            case "failTimes": return .failTimes(try shape.integer(entry.value, at: here, minimum: 1, what: "failTimes"))
            case "crashTimes":
                return .crashTimes(try shape.integer(entry.value, at: here, minimum: 1, what: "crashTimes"))
            default:
                let list = try shape.array(entry.value, at: here)
                if list.isEmpty {
                    throw failure(here, "a script needs at least one entry (\"ok\", \"fail\" or \"crash\")")
                }
                var results: [AttemptResult] = []
                for (index, element) in list.enumerated() {
                    let entryPath = here.appending(index)
                    guard case .string(let text) = element else {
                        throw failure(
                            entryPath, "expected \"ok\", \"fail\" or \"crash\", found \(shape.describe(element))")
                    }
                    guard let result = AttemptResult(rawValue: text) else {
                        throw failure(
                            entryPath,
                            "unknown script entry \(JSONWriter.quoted(text)); expected \"ok\", \"fail\" or \"crash\"")
                    }
                    results.append(result)
                }
                return .script(results)
            }
        default:
            throw failure(path, "\(expected), found \(shape.describe(value))")
        }
    }

    // MARK: - Histories

    private func histories(_ value: JSONValue, at path: StrictJSON.JSONPath, ids stepIDs: Set<String>)
        throws(JSONShapeFault)
        -> [FixtureHistory]
    {
        var histories: [FixtureHistory] = []
        var firstIndexByName: [String: Int] = [:]
        for (index, element) in try shape.array(value, at: path).enumerated() {
            let here = path.appending(index)
            let object = try shape.object(
                element, at: here, keys: ["name", "legacyVersion", "launches", "expect"],
                required: ["name", "launches"])
            let name = try shape.nonEmptyString(object["name"]!, at: here.appending("name"))
            if let first = firstIndexByName[name] {
                throw failure(
                    here.appending("name"),
                    "duplicate history name \(JSONWriter.quoted(name)): \(path.appending(first)) has it too")
            }
            firstIndexByName[name] = index
            let legacyVersion = try object["legacyVersion"].map { (value) throws(JSONShapeFault) in
                try shape.version(value, at: here.appending("legacyVersion"))
            }
            let launchesPath = here.appending("launches")
            let list = try shape.array(object["launches"]!, at: launchesPath)
            if list.isEmpty { throw failure(launchesPath, "a history needs at least one launch") }
            var launches: [Version] = []
            var followers: Set<Int> = []
            var conditions: [Int: LaunchCondition] = [:]
            for (position, launch) in list.enumerated() {
                let (version, follower, condition) = try self.launch(
                    launch, at: launchesPath.appending(position), stepIDs: stepIDs)
                launches.append(version)
                if follower { followers.insert(position) }
                if let condition { conditions[position] = condition }
            }
            var expectations: [LaunchExpectation]?
            if let expect = object["expect"] {
                let expectPath = here.appending("expect")
                let entries = try shape.array(expect, at: expectPath)
                guard entries.count == launches.count else {
                    throw failure(
                        expectPath,
                        "has \(entries.count) entr\(entries.count == 1 ? "y" : "ies") but launches has"
                            + " \(launches.count); give one expectation per launch (an empty object checks nothing)")
                }
                var list: [LaunchExpectation] = []
                for (position, entry) in entries.enumerated() {
                    list.append(
                        try expectation(
                            entry, at: expectPath.appending(position), stepIDs: stepIDs, legacyVersion: legacyVersion))
                }
                expectations = list
            }
            var history = FixtureHistory(
                name: name, launches: launches, expect: expectations, followers: followers, conditions: conditions)
            history.legacyVersion = legacyVersion
            histories.append(history)
        }
        return histories
    }

    private func expectation(
        _ value: JSONValue, at path: StrictJSON.JSONPath, stepIDs: Set<String>, legacyVersion: Version?
    ) throws(JSONShapeFault) -> LaunchExpectation {
        let object = try shape.object(
            value, at: path, keys: ["outcome", "ran", "abandoned", "upgradedThrough", "adoptedFrom"], required: [])
        var expectation = LaunchExpectation()
        if let outcome = object["outcome"] {
            let here = path.appending("outcome")
            let names = SimulatedOutcome.allCases.map(\.rawValue).joined(separator: ", ")
            guard case .string(let text) = outcome else {
                throw failure(here, "expected one of \(names), found \(shape.describe(outcome))")
            }
            guard let parsed = SimulatedOutcome(rawValue: text) else {
                throw failure(here, "unknown outcome \(JSONWriter.quoted(text)); expected one of \(names)")
            }
            expectation.outcome = parsed
        }
        for key in ["ran", "abandoned"] {
            guard let list = object[key] else { continue }
            let here = path.appending(key)
            var ids: [String] = []
            for (index, element) in try shape.array(list, at: here).enumerated() {
                let id = try shape.string(element, at: here.appending(index))
                guard stepIDs.contains(id) else {
                    let known = stepIDs.sorted().joined(separator: ", ")
                    throw failure(
                        here.appending(index),
                        "no step has the id \(JSONWriter.quoted(id)); the step ids are \(known.isEmpty ? "(none)" : known)"
                    )
                }
                ids.append(id)
            }
            if key == "ran" { expectation.ran = ids } else { expectation.abandoned = ids }
        }
        if let mark = object["upgradedThrough"] {
            let here = path.appending("upgradedThrough")
            if case .null = mark {
                expectation.upgradedThrough = .some(nil)
            } else {
                expectation.upgradedThrough = .some(try shape.version(mark, at: here))
            }
        }
        if let adopted = object["adoptedFrom"] {
            expectation.adoptedFrom = .some(try adoptedFrom(adopted, at: path.appending("adoptedFrom"), legacyVersion))
        }
        return expectation
    }

    /// An expectation's `adoptedFrom`: `null` (no adoption), or the history's `legacyVersion`, the
    /// only version a launch of it can adopt.
    private func adoptedFrom(_ value: JSONValue, at here: StrictJSON.JSONPath, _ legacyVersion: Version?)
        throws(JSONShapeFault) -> Version?
    {
        if case .null = value { return nil }
        let version = try shape.version(value, at: here)
        guard let legacyVersion else {
            throw failure(
                here,
                "adoptedFrom \(version) needs a legacy key: give the history \"legacyVersion\": \"\(version)\","
                    + " or expect null (no adoption)")
        }
        guard version == legacyVersion else {
            throw failure(
                here,
                "adoptedFrom \(version) is not the history's legacyVersion \(legacyVersion): a launch can adopt only"
                    + " the version under the legacy key")
        }
        return version
    }

    // MARK: - Values

    func failure(_ path: StrictJSON.JSONPath, _ message: String) -> JSONShapeFault {
        JSONShapeFault(path: path, message: message)
    }
}
