import UpgradeReplay

extension Timeline {
    /// Each launch in a few words, for the text report: `1.0 fresh`, `2.0 failed move-settings (1)`,
    /// `2.0 upgraded move-settings`, `2.0.1 up to date`, `2.0 locked: deferred (protected data
    /// unavailable)`, `2.0 cancelled reindex (1, time expired)`. A failed or crashed step carries its
    /// attempt in parentheses; steps given up on follow `gave up`; a deferred launch its reason when known;
    /// a launch that adopted a legacy version says so first: `3.0 adopted 2.5, upgraded move-settings`.
    ///
    /// - Parameter observations: What each launch did, as the timeline was derived from.
    /// - Returns: One phrase per launch.
    func story(of observations: [LaunchObservation]) -> [String] {
        let rowOf = Dictionary(rows.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        return zip(columns, observations).enumerated().map { index, pair in
            let (column, observation) = pair
            func cell(_ id: String) -> Cell? { rowOf[id].map { cells[$0][index] } }
            var text =
                "\(column.version) " + (column.condition == .locked ? "locked: " : "")
                + (observation.adoptedFrom.map { "adopted \($0), " } ?? "")
            switch observation.outcome.rawValue {
            case "deferred": return text + "deferred" + (column.deferral.map { " (\($0))" } ?? "")
            case "freshInstall": return text + "fresh"
            case "upToDate": return text + "up to date"
            case "downgraded":
                text += "downgraded"
                if column.markAfter != column.markBefore {
                    text +=
                        " (mark \(Timeline.markWords(column.markBefore)) to \(Timeline.markWords(column.markAfter)))"
                }
                return text
            default: text += observation.outcome.rawValue
            }
            let gaveUp = Set(observation.abandoned)
            let ran = observation.ran.filter { !gaveUp.contains($0) }.map { id in
                switch cell(id) {
                case .failed(let attempt)?, .crashed(let attempt)?: "\(id) (\(attempt))"
                case .expired(let attempt)?: "\(id) (\(attempt), time expired)"
                default: id
                }
            }
            let abandoned = observation.abandoned.map { id in
                if case .abandoned(let attempt?)? = cell(id) { return "\(id) (\(attempt))" }
                return id
            }
            if !ran.isEmpty { text += " " + ran.joined(separator: ", ") }
            if !abandoned.isEmpty {
                text += (ran.isEmpty ? ", " : "; ") + "gave up " + abandoned.joined(separator: ", ")
            }
            return text
        }
    }
}
