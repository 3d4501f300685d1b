import UpgradeFixtures
import VersionKit

/// Draws a ``Timeline`` as one SVG element for the HTML report: launch heads across the top, step
/// labels down the left, a cell per step and launch, the mark as a line, and the mark's value under
/// each launch. Every cell, head and label carries a `<title>` (its text alternative); the colours
/// come from the page's style sheet and every state also has a symbol.
struct TimelineSVG: Sendable {
    /// The timeline.
    let timeline: Timeline
    /// A prefix for the element ids, unique in the page.
    let idPrefix: String

    /// Geometry, in CSS pixels.
    static let labelWidth = 190
    static let columnWidth = 64
    static let rowHeight = 22
    static let footHeight = 26

    /// The height of the launches' heads: a fourth line when some launch's outcome is not the one expected.
    var headHeight: Int { timeline.columns.contains { $0.mismatches.contains { $0.key == .outcome } } ? 64 : 52 }

    /// The grid's width.
    var width: Int { timeline.columns.count * Self.columnWidth + 4 }
    /// The drawings' height.
    var height: Int { headHeight + timeline.rows.count * Self.rowHeight + Self.footHeight + 4 }

    /// The step labels, one SVG element beside the grid, so that they stay in view while the grid
    /// scrolls; hidden from assistive technology, since every cell's title names its step. A narrow
    /// page narrows it with CSS, which cuts it on the right (`slice`) rather than scaling it.
    var labels: String {
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tll\" width=\"\(Self.labelWidth)\""
        out +=
            " height=\"\(height)\" viewBox=\"0 0 \(Self.labelWidth) \(height)\" preserveAspectRatio=\"xMinYMin slice\""
        out += " aria-hidden=\"true\">\n"
        out += "<g class=\"ft\"><text x=\"6\" y=\"\(headHeight - 8)\">step \\ launch</text></g>\n"
        out += rowLabels()
        out += "<g class=\"ft\"><text x=\"6\" y=\"\(y(timeline.rows.count) + 17)\">mark after the launch</text></g>\n"
        out += "</svg>"
        return out
    }

    /// The grid: heads, cells, the mark and the outlines, as one SVG element with its namespace, so
    /// that it also reads as an XML document of its own.
    var svg: String {
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tl\" width=\"\(width)\" height=\"\(height)\""
        out += " viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-labelledby=\"\(idPrefix)-title\">\n"
        let steps = timeline.rows.count
        out += "<title id=\"\(idPrefix)-title\">"
        out += HTMLText.escape(
            "Timeline of \(timeline.title): \(timeline.columns.count) launch\(timeline.columns.count == 1 ? "" : "es")"
                + " left to right, \(steps) step\(steps == 1 ? "" : "s") top to bottom in run order")
        out += "</title>\n"
        for column in timeline.columns.indices { out += head(column) + cells(column) }
        out += markLine()
        out += foot()
        for column in timeline.columns.indices { out += outline(column) }
        out += "</svg>"
        return out
    }

    private func x(_ column: Int) -> Int { 2 + column * Self.columnWidth }
    private func y(_ row: Int) -> Int { headHeight + row * Self.rowHeight }

    /// The y of the mark's line: under the last row whose version is at or below the mark.
    private func markY(_ mark: Version?) -> Int {
        guard let mark else { return y(0) }
        return y(timeline.rows.count { $0.version <= mark })
    }

    private func rowLabels() -> String {
        var out = ""
        for (index, row) in timeline.rows.enumerated() {
            let top = y(index)
            // A floor's row is told by its colour and its `≤ F`; its id follows.
            let label = (row.id == timeline.focus ? "▶ " : "") + row.id
            let kind = row.isFloor ? "the floor, standing in for every retired step at or below \(row.version)" : "step"
            let focused = row.id == timeline.focus
            out += "<g class=\"rl\(row.isFloor ? " floor" : "")\(focused ? " focus" : "")\"><title>"
            out += HTMLText.escape(
                "\(row.id): \(kind), version \(row.version), \(row.builds)"
                    + (focused ? " (the step the finding is about)" : ""))
            out += "</title><rect x=\"0\" y=\"\(top)\" width=\"\(Self.labelWidth)\" height=\"\(Self.rowHeight)\"/>"
            // The version first: on a narrow page the labels' box is cut on the right, not scaled.
            out += "<text class=\"v\" x=\"6\" y=\"\(top + 15)\">\(row.isFloor ? "≤ " : "")\(row.version)</text>"
            out += "<text x=\"46\" y=\"\(top + 15)\">\(HTMLText.escape(HTMLText.truncated(label, to: 21)))</text></g>\n"
        }
        return out
    }

    private func head(_ index: Int) -> String {
        let column = timeline.columns[index]
        let left = x(index)
        let middle = left + Self.columnWidth / 2
        var classes = ["hd"]
        if column.isFreshInstall { classes.append("fresh") }
        if column.isDowngrade { classes.append("down") }
        if !column.mismatches.isEmpty || column.note?.isFailure == true { classes.append("bad") }
        var title =
            "launch \(index + 1) at \(column.version): \(Timeline.outcomeWords(column.outcome))"
            + (column.isFreshInstall ? " (no state stored before it)" : "")
            + (column.isDowngrade ? " (below the mark \(Timeline.markWords(column.markBefore)))" : "")
            + (column.condition == .locked ? " (locked: protected data unavailable)" : "")
            + (column.deferral.map { " (deferred: \($0))" } ?? "")
            + "; mark \(Timeline.markWords(column.markBefore)) → \(Timeline.markWords(column.markAfter))"
        for difference in column.mismatches {
            title += "; MISMATCH \(difference.key.rawValue): expected \(difference.expected), got \(difference.got)"
        }
        if let note = column.note { title += "; \(note.text)" }
        let outcomeWrong = column.mismatches.contains { $0.key == .outcome }
        var out = "<g class=\"\(classes.joined(separator: " "))\"><title>\(HTMLText.escape(title))</title>"
        out += "<rect x=\"\(left + 1)\" y=\"1\" width=\"\(Self.columnWidth - 2)\" height=\"\(headHeight - 3)\"/>"
        let condition =
            switch column.condition {
            case .locked?: " locked"
            case .expire?: " expiry"
            case nil: ""
            }
        out += "<text class=\"n\" x=\"\(middle)\" y=\"13\" text-anchor=\"middle\">#\(index + 1)\(condition)</text>"
        out += "<text class=\"ver\" x=\"\(middle)\" y=\"29\" text-anchor=\"middle\">\(column.version)</text>"
        out += "<text class=\"oc\(outcomeWrong ? " wrong" : "")\" x=\"\(middle)\" y=\"44\" text-anchor=\"middle\">"
        out += "\(HTMLText.escape(Timeline.shortOutcome(column.outcome)))</text>"
        if let expected = column.mismatches.first(where: { $0.key == .outcome })?.expected {
            // The expected outcome is JSON text: a quoted name.
            let name = expected.filter { $0 != "\"" }
            out += "<text class=\"oc wrong\" x=\"\(middle)\" y=\"58\" text-anchor=\"middle\">"
            out += "≠ \(HTMLText.escape(SimulatedOutcome(rawValue: name).map(Timeline.shortWord) ?? name))</text>"
        }
        out += "</g>\n"
        return out
    }

    /// A frame around a launch that differs from its expectation or that the report points out.
    private func outline(_ index: Int) -> String {
        let column = timeline.columns[index]
        let left = x(index)
        var out = ""
        if !column.mismatches.isEmpty || column.note != nil {
            let height = timeline.rows.count * Self.rowHeight + headHeight + Self.footHeight - 2
            let severe = !column.mismatches.isEmpty || column.note?.isFailure == true
            out += "<rect class=\"\(severe ? "badcol" : "notecol")\" x=\"\(left + 1)\" y=\"1\""
            out += " width=\"\(Self.columnWidth - 2)\""
            out += " height=\"\(height)\"/>\n"
        }
        return out
    }

    private func cells(_ index: Int) -> String {
        let column = timeline.columns[index]
        let left = x(index)
        var out = ""
        for (row, step) in timeline.rows.enumerated() {
            let cell = timeline.cells[row][index]
            let top = y(row)
            var classes = ["cell", cell.styleClass]
            var title = "launch \(index + 1) at \(column.version), \(step.id): \(cell.phrase)"
            if timeline.expectedNotRun[index].contains(step.id) {
                classes.append("miss")
                title += "; MISMATCH: expected to run, did not"
            }
            if timeline.runNotExpected[index].contains(step.id) {
                classes.append("extra")
                title += "; MISMATCH: ran, not expected to"
            }
            out += "<g class=\"\(classes.joined(separator: " "))\"><title>\(HTMLText.escape(title))</title>"
            out += "<rect x=\"\(left + 2)\" y=\"\(top + 2)\" width=\"\(Self.columnWidth - 4)\""
            out += " height=\"\(Self.rowHeight - 4)\" rx=\"3\"/>"
            out += "<text x=\"\(left + Self.columnWidth / 2)\" y=\"\(top + 15)\" text-anchor=\"middle\">"
            out += "\(cell.symbol)</text></g>\n"
        }
        return out
    }

    /// The mark after each launch, as one line stepping across the columns, and where a launch
    /// expected another mark, that mark as a dashed line in its column.
    private func markLine() -> String {
        guard !timeline.columns.isEmpty else { return "" }
        var path = ""
        var out = ""
        for (index, column) in timeline.columns.enumerated() {
            let level = markY(column.markAfter)
            path += index == 0 ? "M\(x(0)) \(level)" : " V\(level)"
            path += " H\(x(index) + Self.columnWidth)"
            if case .some(let expected) = timeline.expectedMark[index] {
                let expectedLevel = markY(expected)
                out += "<g class=\"markexp\"><title>"
                out += HTMLText.escape(
                    "launch \(index + 1): expected the mark at \(Timeline.markWords(expected)),"
                        + " got \(Timeline.markWords(column.markAfter))")
                out += "</title><line x1=\"\(x(index) + 2)\" y1=\"\(expectedLevel)\" x2=\"\(x(index + 1) - 2)\""
                out += " y2=\"\(expectedLevel)\"/></g>\n"
            }
        }
        return "<path class=\"mark\" d=\"\(path)\"><title>the upgraded-through mark after each launch</title></path>\n"
            + out
    }

    private func foot() -> String {
        let top = y(timeline.rows.count)
        var out = ""
        var previous: Version?? = nil
        for (index, column) in timeline.columns.enumerated() {
            let changed = previous.map { $0 != column.markAfter } ?? true
            let wrong = timeline.expectedMark[index] != nil
            let text = (wrong ? "≠ " : "") + Timeline.markWords(column.markAfter)
            out += "<g class=\"ft\(changed ? " moved" : "")\(wrong ? " wrong" : "")\"><title>"
            out += HTMLText.escape(
                "launch \(index + 1): mark after it \(Timeline.markWords(column.markAfter))"
                    + (timeline.expectedMark[index].map { ", expected \(Timeline.markWords($0))" } ?? ""))
            out += "</title><text x=\"\(x(index) + Self.columnWidth / 2)\" y=\"\(top + 17)\" text-anchor=\"middle\">"
            out += "\(text)</text></g>\n"
            previous = .some(column.markAfter)
        }
        return out
    }
}
