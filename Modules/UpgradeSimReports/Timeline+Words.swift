import UpgradeFixtures
import VersionKit

extension Timeline.Cell {
    /// The symbol drawn in the cell, so that no state is told by colour alone: `✓`, `✗`, `↯` and `⊘`
    /// followed by the attempt number when it is above 1 (or when the attempt failed or crashed).
    var symbol: String {
        switch self {
        case .finished(let attempt): attempt > 1 ? "✓\(attempt)" : "✓"
        case .failed(let attempt): "✗\(attempt)"
        case .crashed(let attempt): "↯\(attempt)"
        case .expired(let attempt): "⏱\(attempt)"
        case .abandoned(let attempt): "⊘" + (attempt.map(String.init) ?? "")
        case .notReached: "…"
        case .done: "·"
        case .above: "↑"
        case .notInBuild: "—"
        }
    }

    /// The CSS class of the cell's state (the colours are in the page's style sheet).
    var styleClass: String {
        switch self {
        case .finished: "c-ok"
        case .failed: "c-fail"
        case .crashed: "c-crash"
        case .expired: "c-expired"
        case .abandoned: "c-gone"
        case .notReached: "c-wait"
        case .done: "c-done"
        case .above: "c-above"
        case .notInBuild: "c-nobuild"
        }
    }

    /// What happened, in words: `finished (attempt 2)`, `failed at attempt 1`, `not in this build`.
    var phrase: String {
        switch self {
        case .finished(let attempt): attempt > 1 ? "finished at attempt \(attempt)" : "finished"
        case .failed(let attempt): "failed at attempt \(attempt)"
        case .crashed(let attempt): "crashed the app at attempt \(attempt)"
        case .expired(let attempt):
            "the background time expired while it ran, at attempt \(attempt), and the app was killed (not counted)"
        case .abandoned(let attempt?): "failed at attempt \(attempt) and was abandoned"
        case .abandoned(nil): "abandoned without running (its attempts had reached the limit)"
        case .notReached: "pending, not reached (the launch stopped before it)"
        case .done: "not pending (done, or at or below the mark)"
        case .above: "not pending (above the running version)"
        case .notInBuild: "not in this build"
        }
    }

    /// One example of each state, in the order the legend lists them.
    static let legend: [Timeline.Cell] = [
        .finished(attempt: 1), .failed(attempt: 1), .crashed(attempt: 1), .expired(attempt: 1),
        .abandoned(attempt: nil), .notReached,
        .done, .above, .notInBuild,
    ]

    /// The legend's words for a state, without attempt numbers.
    var legendPhrase: String {
        switch self {
        case .finished: "finished (a number: the attempt, above 1)"
        case .failed: "failed (the attempt)"
        case .crashed: "crashed the app (the attempt)"
        case .expired: "background time expired in it, app killed (the attempt, not counted)"
        case .abandoned: "abandoned (given up on)"
        case .notReached: "pending, not reached: the launch stopped first"
        case .done: "not pending: done, or at or below the mark"
        case .above: "not pending: above the running version"
        case .notInBuild: "not in this launch's build"
        }
    }
}

extension Timeline {
    /// A launch outcome in a short word for a column's head: `fresh`, `upgraded`, `up to date`.
    /// Outcomes are looked up by name, so that one this table does not know still shows as its name.
    static func shortOutcome(_ outcome: SimulatedOutcome) -> String {
        let words = [
            "freshInstall": "★ fresh", "upToDate": "up to date", "upgraded": "upgraded", "failed": "✗ failed",
            "crashed": "↯ crashed", "downgraded": "▼ down", "deferred": "deferred", "cancelled": "⏱ cancelled",
        ]
        return words[outcome.rawValue] ?? outcome.rawValue
    }

    /// A launch outcome in one short word, without a symbol: `fresh`, `failed`, `down`.
    static func shortWord(_ outcome: SimulatedOutcome) -> String {
        let words = ["freshInstall": "fresh", "upToDate": "up to date", "downgraded": "down"]
        return words[outcome.rawValue] ?? outcome.rawValue
    }

    /// A launch outcome in words for sentences: `fresh install`, `up to date`.
    static func outcomeWords(_ outcome: SimulatedOutcome) -> String {
        let words = [
            "freshInstall": "fresh install", "upToDate": "up to date", "downgraded": "downgraded",
        ]
        return words[outcome.rawValue] ?? outcome.rawValue
    }

    /// A mark in words: the version, or `none`.
    static func markWords(_ mark: Version?) -> String { mark.map(\.description) ?? "none" }
}
