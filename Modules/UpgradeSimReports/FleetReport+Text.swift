import UpgradeFleet

extension FleetReport {
    /// The fixture and installed base the report is about: `"notes" (FILE)`.
    var subject: String {
        "\"\(fixtureName)\"" + (fixtureFile.map { " (\($0))" } ?? "")
    }

    /// The devices, updating and current, as a table.
    var devicesTable: FleetTable {
        FleetTable(
            header: ["devices", "count", "share"],
            rows: [
                ["all", devices.description, FleetNumbers.tableShare(1)],
                ["updating (below \(release))", updating.description, FleetNumbers.tableShare(share(of: updating))],
                ["current (\(release) or above)", current.description, FleetNumbers.tableShare(share(of: current))],
            ])
    }

    /// The steps with the devices that run them.
    var stepsTable: FleetTable {
        FleetTable(header: ["step", "version", "devices", "share"], rows: steps.map(Self.row))
    }

    /// Steps and time per updating device.
    var statisticsTable: FleetTable {
        var table = FleetTable(header: ["", "mean", "median", "p90", "max"])
        table.rows.append(Self.row("steps", stepsPerDevice))
        if let durationMs { table.rows.append(Self.row("time (ms)", durationMs)) }
        return table
    }

    /// The candidate floors.
    var floorsTable: FleetTable {
        FleetTable(
            header: ["floor at", "retires", "devices", "share"],
            rows: floors.map {
                [$0.version.description, "\($0.retires)", $0.devices.description, FleetNumbers.tableShare($0.share)]
            })
    }

    /// Lost or late steps.
    static func missedTable(_ steps: [FleetStep]) -> FleetTable {
        FleetTable(header: ["step", "version", "devices", "share"], rows: steps.map(row))
    }

    /// A step's row: the floor's id is marked `(floor)`.
    static func row(_ step: FleetStep) -> [String] {
        [
            step.id + (step.isFloor ? " (floor)" : ""), step.version.description, step.devices.description,
            step.shareText,
        ]
    }

    /// A row of statistics.
    static func row(_ title: String, _ statistics: FleetStatistics) -> [String] {
        [
            title, FleetNumbers.decimal(statistics.mean, places: FleetNumbers.meanPlaces), "\(statistics.p50)",
            "\(statistics.p90)", "\(statistics.max)",
        ]
    }

    /// A count's share of all devices, from 0 to 1.
    func share(of count: DeviceCount) -> Double { Double(count.units) / Double(devices.units) }

    /// The text form.
    var textReport: String {
        var lines = ["Release \(release) of \(subject) over the installed base \(installedFile)", ""]
        lines += devicesTable.textLines
        lines += [
            "", "Steps at the first launch of \(release), in run order (the devices below a step's version run it):",
        ]
        lines += steps.isEmpty ? ["  none"] : stepsTable.textLines
        lines += ["", "Work per updating device (weighted by devices; p90: 90% of them do at most this):"]
        lines += statisticsTable.textLines
        if durationMs == nil { lines.append("  (no step has durationMs: no times)") }
        lines += [
            "", "Candidate floors (a floor at F retires the steps at or below F; the devices below F run it instead):",
        ]
        lines += floors.isEmpty ? ["  none"] : floorsTable.textLines
        lines += ["", "Lost (\(release)'s build no longer has them; the devices below them never run them):"]
        lines += lost.isEmpty ? ["  none"] : Self.missedTable(lost).textLines
        lines += ["", "Late (added to a build after these devices had passed their version; never run on them):"]
        lines += late.isEmpty ? ["  none"] : Self.missedTable(late).textLines
        return lines.joined(separator: "\n") + "\n"
    }
}
