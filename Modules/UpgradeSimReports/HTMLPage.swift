/// The frame of an HTML report: one self-contained page (inline CSS and SVG, no script, nothing
/// fetched), with a heading, a summary, the legend and the sections.
struct HTMLPage: Sendable {
    /// The page's title and first heading.
    var title: String
    /// The summary's figures, in order: a label and a value.
    var figures: [(label: String, value: String)]
    /// A sentence under the summary, already HTML.
    var introduction: String
    /// The sections, already HTML, in order.
    var sections: [String]

    /// The whole document.
    var html: String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out +=
            "<title>\(HTMLText.escape(title))</title>\n<style>\n\(HTMLStyle.sheet)</style>\n</head>\n<body>\n<main>\n"
        out += "<h1>\(HTMLText.escape(title))</h1>\n<dl class=\"stats\">\n"
        for figure in figures {
            out += "<div><dt>\(HTMLText.escape(figure.label))</dt><dd>\(HTMLText.escape(figure.value))</dd></div>\n"
        }
        out += "</dl>\n<p>\(introduction)</p>\n"
        out += Self.legend
        out += sections.joined()
        out += "</main>\n</body>\n</html>\n"
        return out
    }

    /// The legend: every cell state with its colour and symbol, and the marks drawn on launches.
    static var legend: String {
        var out = "<details class=\"legend\" open>\n<summary>Legend</summary>\n<ul>\n"
        for cell in Timeline.Cell.legend {
            out += "<li><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sw\" width=\"34\" height=\"20\""
            out += " aria-hidden=\"true\"><g class=\"cell \(cell.styleClass)\"><rect x=\"1\" y=\"1\" width=\"32\""
            out += " height=\"18\" rx=\"3\"/><text x=\"17\" y=\"14\" text-anchor=\"middle\">\(cell.symbol)</text></g>"
            out += "</svg>\(HTMLText.escape(cell.legendPhrase))</li>\n"
        }
        let marks: [(String, String)] = [
            (
                "<path class=\"mark\" d=\"M1 10 H33\"/>",
                "the upgraded-through mark after each launch: steps above the line are done or skipped"
            ),
            ("<g class=\"hd fresh\"><rect x=\"1\" y=\"1\" width=\"32\" height=\"18\"/></g>", "★ fresh install"),
            ("<g class=\"hd down\"><rect x=\"1\" y=\"1\" width=\"32\" height=\"18\"/></g>", "▼ launch below the mark"),
            (
                "<g class=\"rl floor\"><rect x=\"1\" y=\"1\" width=\"32\" height=\"18\"/></g>",
                "the floor (≤ its version)"
            ),
            (
                "<rect class=\"badcol\" x=\"2\" y=\"2\" width=\"30\" height=\"16\"/>",
                "≠ a launch that differs from what is expected (expected and got in its title and listed below);"
                    + " in explore, the launch where a guarantee broke or a finding shows (▶ its step)"
            ),
            (
                "<g class=\"cell c-done miss\"><rect x=\"2\" y=\"2\" width=\"30\" height=\"16\" rx=\"3\"/></g>",
                "dashed: expected to run, did not; solid red: ran, not expected to"
            ),
        ]
        for (drawing, words) in marks {
            out += "<li><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sw\" width=\"34\" height=\"20\""
            out += " aria-hidden=\"true\">\(drawing)</svg>\(HTMLText.escape(words))</li>\n"
        }
        out += "</ul>\n<p>Hover or focus a cell for what happened to that step in that launch; each history"
        out += " also has a text version.</p>\n</details>\n"
        return out
    }

    /// One history: its heading, its timeline in a box that scrolls sideways on its own, what differs,
    /// and a text version of each launch.
    ///
    /// - Parameters:
    ///   - timeline: The history's timeline.
    ///   - id: An id unique in the page.
    ///   - status: The badge, such as `FAIL` or `LATE`.
    ///   - failed: Whether the badge and frame are drawn as a failure.
    ///   - heading: The heading's text.
    ///   - details: Lines under the heading, plain text.
    ///   - about: What the fixture shows (its description), plain text, with the text version.
    ///   - story: One phrase per launch, plain text.
    /// - Returns: The section's HTML.
    static func section(
        timeline: Timeline, id: String, status: String, failed: Bool, heading: String, details: [String],
        about: String? = nil, story: [String]
    ) -> String {
        var out = "<section class=\"h \(failed ? "fail" : "pass")\" id=\"\(id)\">\n"
        out += "<h3><span class=\"badge\">\(failed ? "✗" : "✓") \(HTMLText.escape(status))</span> "
        out += "\(HTMLText.escape(heading))</h3>\n"
        for line in details { out += "<p class=\"meta\">\(HTMLText.escape(line))</p>\n" }
        let drawing = TimelineSVG(timeline: timeline, idPrefix: id)
        out += "<div class=\"tlw\">\n\(drawing.labels)\n"
        out += "<div class=\"box\" tabindex=\"0\" role=\"region\" aria-label=\"\(HTMLText.escape(heading))\">\n"
        out += drawing.svg
        out += "\n</div>\n</div>\n"
        let differences = timeline.columns.enumerated().flatMap { index, column in
            column.mismatches.map { (index, column, $0) }
        }
        if !differences.isEmpty {
            out += "<ul class=\"mm\">\n"
            for (index, column, difference) in differences {
                out += "<li>launch \(index + 1) (\(column.version)), \(difference.key.rawValue): expected "
                out += "<code>\(HTMLText.escape(difference.expected))</code>, got "
                out += "<code>\(HTMLText.escape(difference.got))</code></li>\n"
            }
            out += "</ul>\n"
        }
        out += "<details class=\"story\"><summary>Text version</summary>\n"
        if let about { out += "<p>\(HTMLText.escape(about))</p>\n" }
        out += "<ol>\n"
        for phrase in story { out += "<li>\(HTMLText.escape(phrase))</li>\n" }
        out += "</ol>\n</details>\n</section>\n"
        return out
    }
}
