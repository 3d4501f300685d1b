import UpgradeFleet

extension FleetReport {
    /// The Markdown form, for a CI job summary.
    var markdownReport: String {
        var lines = [
            "### upgrade-sim fleet: release \(Markdown.cell(release.description)) of \(Markdown.cell(subject))", "",
            "Installed base: \(Markdown.cell(installedFile)).", "",
        ]
        lines += devicesTable.markdownLines
        lines += ["", "#### Steps at the first launch of \(release)", ""]
        lines += steps.isEmpty ? ["None."] : stepsTable.markdownLines
        lines += ["", "#### Work per updating device", ""]
        lines += statisticsTable.markdownLines
        if durationMs == nil { lines += ["", "No step has `durationMs`: no times."] }
        lines += ["", "#### Candidate floors", ""]
        lines += floors.isEmpty ? ["None."] : floorsTable.markdownLines
        lines += ["", "#### Lost steps", ""]
        lines += lost.isEmpty ? ["None."] : Self.missedTable(lost).markdownLines
        lines += ["", "#### Late steps", ""]
        lines += late.isEmpty ? ["None."] : Self.missedTable(late).markdownLines
        return lines.joined(separator: "\n") + "\n"
    }
}
