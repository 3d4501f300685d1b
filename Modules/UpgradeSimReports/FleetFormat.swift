/// The forms a ``FleetReport`` can be written in.
public enum FleetFormat: String, Sendable, Hashable, CaseIterable {
    /// Tables for a person: the devices, the steps, the statistics, the candidate floors, lost and late.
    case text
    /// One JSON object with the keys of <doc:FleetView>, in a stable order.
    case json
    /// Markdown for a CI job summary: the same tables.
    case markdown
}

extension FleetReport {
    /// The report in the given form, ending with a line break.
    ///
    /// - Parameter format: The form.
    /// - Returns: The text.
    public func render(as format: FleetFormat) -> String {
        switch format {
        case .text: textReport
        case .json: jsonReport
        case .markdown: markdownReport
        }
    }
}
