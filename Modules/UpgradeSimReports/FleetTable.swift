/// A table of the fleet report, written as aligned text columns or as a Markdown table.
struct FleetTable: Sendable {
    /// The column titles; the first column is left-aligned, the others right-aligned (numbers).
    var header: [String]
    /// The rows, each with one cell per column.
    var rows: [[String]] = []

    /// The table as text lines indented by two spaces, each column as wide as its widest cell.
    var textLines: [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            let cells = row.indices.map { column in
                let padding = String(repeating: " ", count: widths[column] - row[column].count)
                return column == 0 ? row[column] + padding : padding + row[column]
            }
            var line = "  " + cells.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// The table in Markdown, its cells escaped.
    var markdownLines: [String] {
        let line = { (cells: [String]) in "| " + cells.map(Markdown.cell).joined(separator: " | ") + " |" }
        let rule = "| " + header.indices.map { $0 == 0 ? "---" : "---:" }.joined(separator: " | ") + " |"
        return [line(header), rule] + rows.map(line)
    }
}
