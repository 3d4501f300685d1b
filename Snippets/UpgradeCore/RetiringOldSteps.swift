// The samples of Modules/UpgradeCore/UpgradeCore.docc/RetiringOldSteps.md and README.md.

import UpgradeCore
import UpgradeStorage

// snippet.hide
func migrateNotesToV2() throws {}
func renameThumbnailFolder() throws {}
func rebuildLibraryFromNotes() throws {}
func moveThumbnailsToCache() throws {}
func reindexSearch() async throws {}
let store = InMemoryUpgradeStore()
// snippet.show
// snippet.before
// Release 9.0: eighty steps, the oldest written for 1.1 in 2019.
let before = Upgrader(store: store) {
    UpgradeStep("1.1") { try migrateNotesToV2() }
    UpgradeStep("1.4") { try renameThumbnailFolder() }
    // ... 76 more ...
    UpgradeStep("8.2") { try moveThumbnailsToCache() }
    UpgradeStep("9.0") { try await reindexSearch() }
}
// snippet.end

// snippet.after
// Release 9.1: every step up to 8.0 deleted; one floor stands in for them.
let after = Upgrader(store: store) {
    // Runs on a device that last upgraded below 8.0 (or a fresh install under runAll), first,
    // instead of the 70 steps it replaces: it rebuilds what they migrated, from scratch.
    UpgradeStep("8.0") { try rebuildLibraryFromNotes() }.asFloor()
    UpgradeStep("8.2") { try moveThumbnailsToCache() }
    UpgradeStep("9.0") { try await reindexSearch() }
}
// snippet.end
_ = (before, after)
