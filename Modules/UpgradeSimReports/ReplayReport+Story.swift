import UpgradeCore
import UpgradeReplay

extension FixtureResult {
    /// The timeline of one of this fixture's histories, with the fixture's steps, policy and
    /// expectations when ``fixture`` is known (without them, the cells are left out).
    ///
    /// - Parameter history: One of ``histories``.
    /// - Returns: The timeline.
    func timeline(of history: HistoryResult) -> Timeline {
        Timeline(
            title: "\(name) / \(history.name)", steps: fixture?.steps ?? [], floor: fixture?.floor,
            policy: fixture?.policy ?? UpgradePolicy(), launches: history.launches,
            observations: history.observations,
            expectations: fixture?.histories.first { $0.name == history.name }?.expect,
            followers: fixture?.histories.first { $0.name == history.name }?.followers ?? [],
            conditions: fixture?.histories.first { $0.name == history.name }?.conditions ?? [:])
    }
}

extension ReplayReport {
    /// The widest line the text report writes where it can choose.
    static let storyWidth = 100

    /// The text report: each fixture, and under it each history as its path, on one line where it
    /// fits (`PASS NAME: 1.0 fresh · 2.0 upgraded a`), else on the lines under its name; a failing
    /// history one launch a line with each expected-against-got under its launch; the closing line
    /// `N passed, M failed`.
    var storyText: String { storyText(failuresOnly: false) }

    /// The text report, or with `failuresOnly` (`run --failures-only`) only its failing fixtures and
    /// histories, each fixture's line saying how many of its histories failed, and the closing line
    /// (`N passed, M failed`, counting every history).
    ///
    /// - Parameter failuresOnly: Whether to leave out the fixtures and histories that passed.
    /// - Returns: The text, ending with a line break.
    package func storyText(failuresOnly: Bool) -> String {
        var lines: [String] = []
        for fixture in fixtures where !(failuresOnly && fixture.passed) {
            lines.append(fixture.headline(failuresOnly: failuresOnly))
            for history in fixture.histories where !(failuresOnly && history.passed) {
                let story = fixture.timeline(of: history).story(of: history.observations)
                let head = "  \(history.passed ? "PASS" : "FAIL") \(history.name)"
                let line = head + ": " + story.joined(separator: " · ")
                if history.passed {
                    lines += line.count <= Self.storyWidth ? [line] : [head] + Self.wrap(path: story)
                    continue
                }
                lines.append(head)
                for (index, piece) in story.enumerated() {
                    lines += Self.wrap("       \(index + 1). ", piece)
                    for mismatch in history.mismatches where mismatch.launch == index + 1 {
                        lines.append(
                            "            \(mismatch.key.rawValue): expected \(mismatch.expected), got \(mismatch.got)")
                    }
                }
            }
        }
        lines.append(summaryLine)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The launches' phrases joined by ` · `, on lines indented by seven spaces, each as full as fits
    /// ``storyWidth``; a phrase longer than a line broken after its commas.
    static func wrap(path: [String]) -> [String] {
        let indent = "       "
        var lines: [String] = []
        var line = ""
        func add(_ text: String) {
            if !line.isEmpty, line.count + 1 + text.count > storyWidth {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? indent : " ") + text
        }
        for (index, piece) in path.enumerated() {
            let text = piece + (index + 1 < path.count ? " ·" : "")
            if indent.count + text.count <= storyWidth {
                add(text)
                continue
            }
            let parts = text.split(separator: ", ", omittingEmptySubsequences: false)
            for (partIndex, part) in parts.enumerated() { add(part + (partIndex + 1 < parts.count ? "," : "")) }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `lead` and the text on one line when it fits ``storyWidth``; otherwise broken after commas,
    /// the lines after the first indented under the text.
    static func wrap(_ lead: String, _ text: String) -> [String] {
        if lead.count + text.count <= storyWidth { return [lead + text] }
        let indent = String(repeating: " ", count: lead.count + 2)
        var lines: [String] = []
        var line = lead
        let parts = text.split(separator: ", ", omittingEmptySubsequences: false)
        for (index, part) in parts.enumerated() {
            let word = part + (index + 1 < parts.count ? "," : "")
            if line.count > indent.count, line.count + 1 + word.count > storyWidth {
                lines.append(line)
                line = indent
            }
            line += (line == lead || line == indent ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }
}
