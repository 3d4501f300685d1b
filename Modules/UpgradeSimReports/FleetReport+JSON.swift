import StrictJSON
import UpgradeFleet

extension FleetReport {
    /// The JSON form: one object with the keys `release`, `devices`, `updating`, `current`, `steps`,
    /// `stepsPerDevice`, `durationMs`, `floors`, `lost` and `late`, in that order.
    var jsonReport: String { JSONWriter.pretty(jsonValue) + "\n" }

    /// The report as a JSON value.
    var jsonValue: JSONValue {
        var object = JSONObject()
        object.append("release", .string(release.description))
        object.append("devices", Self.json(devices))
        object.append("updating", Self.json(updating))
        object.append("current", Self.json(current))
        object.append("steps", .array(steps.map(\.jsonValue)))
        object.append("stepsPerDevice", stepsPerDevice.jsonValue)
        object.append("durationMs", durationMs?.jsonValue ?? .null)
        object.append(
            "floors",
            .array(
                floors.map { floor in
                    .object(
                        JSONObject(entries: [
                            ("version", .string(floor.version.description)),
                            ("retires", .integer(floor.retires)),
                            ("devices", Self.json(floor.devices)),
                            ("share", Self.json(share: floor.share)),
                        ]))
                }))
        object.append("lost", .array(lost.map(\.jsonValue)))
        object.append("late", .array(late.map(\.jsonValue)))
        return .object(object)
    }

    /// A count as a JSON number, exactly as the installed base's precision gives it.
    static func json(_ count: DeviceCount) -> JSONValue { .number(count.description) }

    /// A share as a JSON number of at most 6 decimal places.
    static func json(share: Double) -> JSONValue {
        .number(FleetNumbers.decimal(share, places: FleetNumbers.jsonSharePlaces))
    }
}

extension FleetStep {
    var jsonValue: JSONValue {
        .object(
            JSONObject(entries: [
                ("id", .string(id)),
                ("version", .string(version.description)),
                ("devices", FleetReport.json(devices)),
                ("share", FleetReport.json(share: share)),
            ]))
    }
}

extension FleetStatistics {
    var jsonValue: JSONValue {
        .object(
            JSONObject(entries: [
                ("mean", .number(FleetNumbers.decimal(mean, places: FleetNumbers.meanPlaces))),
                ("p50", .integer(p50)),
                ("p90", .integer(p90)),
                ("max", .integer(max)),
            ]))
    }
}
