// The Swift sample of CONTRIBUTING.md; Scripts/check-snippets.py checks that it shows it exactly.

// snippet.hide
import UpgradeCore

enum SearchIndex {
    static func rebuild(resuming: Bool) async throws {}
}

func steps(store: any UpgradeStore) -> Upgrader {
    Upgrader(store: store) {
        // snippet.show
        // snippet.adding-a-step
        UpgradeStep("9.1", id: "reindex-notes", summary: "Rebuild the search index") { context in
            try await SearchIndex.rebuild(resuming: context.previousAttemptInterrupted)
        }
        // snippet.hide
    }
}
