/// A report of the simulator that `upgrade-sim` renders and prints: the one rendering shape of every
/// report (the libraries return the reports as values; the tool chooses the form and writes it).
package protocol RenderedReport {
    /// The forms this kind of report has, the first being the default (text).
    static var formats: [ReportFormat] { get }

    /// The report in the given form, ending with a line break.
    ///
    /// - Parameter format: One of ``formats``.
    /// - Returns: The text.
    func render(as format: ReportFormat) -> String
}

extension RenderedReport {
    /// Every form.
    package static var formats: [ReportFormat] { ReportFormat.allCases }
}
