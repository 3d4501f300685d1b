import UpgradeFleet

extension FleetReport: RenderedReport {
    /// Text, JSON (the keys of <doc:/UpgradeFleet/FleetView>) and Markdown: a fleet view has no JUnit or
    /// HTML form.
    package static var formats: [ReportFormat] { [.text, .json, .markdown] }

    /// The report in the given form, ending with a line break: tables for a person (the devices, the
    /// steps, the statistics, the candidate floors, lost and late), one JSON object with a stable key
    /// order, or Markdown for a CI job summary with the same tables.
    ///
    /// - Parameter format: One of ``formats``.
    /// - Returns: The text.
    package func render(as format: ReportFormat) -> String {
        switch format {
        case .text: textReport
        case .json: jsonReport
        case .markdown: markdownReport
        case .junit, .html: preconditionFailure("a fleet report has no \(format) form (FleetReport.formats)")
        }
    }
}
