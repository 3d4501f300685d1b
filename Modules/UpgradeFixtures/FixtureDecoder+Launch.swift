import StrictJSON
import VersionKit

extension FixtureDecoder {
    /// One entry of `launches`: a version string, or a launch object such as
    /// `{"version": "2.0", "follower": true}`, `{"version": "2.0", "locked": true}` or
    /// `{"version": "2.0", "expire": "ID"}`.
    ///
    /// `locked` together with `expire` is an error (a launch that cannot read its data runs no step
    /// to expire in), and so is `follower` with `expire` (a follower runs nothing); `expire` must name
    /// a step of the fixture. Whether the launch reaches that step is the replay's question: a launch
    /// that does not is a mismatch, not a fault of the fixture.
    func launch(_ value: JSONValue, at path: StrictJSON.JSONPath, stepIDs: Set<String>) throws(JSONShapeFault) -> (
        version: Version, follower: Bool, condition: LaunchCondition?
    ) {
        switch value {
        case .object: break
        case .string, .integer, .number: return (try shape.version(value, at: path), false, nil)
        default:
            throw failure(
                path,
                "expected a version string, such as \"2.0\", or a launch object, such as"
                    + " {\"version\": \"2.0\", \"follower\": true}, {\"version\": \"2.0\", \"locked\": true} or"
                    + " {\"version\": \"2.0\", \"expire\": \"ID\"}; found \(shape.describe(value))")
        }
        let object = try shape.object(
            value, at: path, keys: ["version", "follower", "locked", "expire"], required: ["version"])
        let version = try shape.version(object["version"]!, at: path.appending("version"))
        let follower = try object["follower"].map { value throws(JSONShapeFault) in
            try shape.bool(value, at: path.appending("follower"))
        }
        let locked = try object["locked"].map { value throws(JSONShapeFault) in
            try shape.bool(value, at: path.appending("locked"))
        }
        var condition: LaunchCondition? = locked == true ? .locked : nil
        if let given = object["expire"] {
            let here = path.appending("expire")
            let id = try shape.string(given, at: here)
            if locked == true {
                throw failure(
                    here,
                    "a launch cannot both be \"locked\" and \"expire\": a locked launch runs no step, so no step's"
                        + " background time can expire; write two launches")
            }
            if follower == true {
                throw failure(
                    here,
                    "a follower launch cannot \"expire\": a follower runs no step; drop \"follower\" or \"expire\"")
            }
            guard stepIDs.contains(id) else {
                let known = stepIDs.sorted().joined(separator: ", ")
                throw failure(
                    here,
                    "no step has the id \(JSONWriter.quoted(id)); the step ids are \(known.isEmpty ? "(none)" : known)")
            }
            condition = .expire(stepID: id)
        }
        return (version, follower ?? false, condition)
    }
}
