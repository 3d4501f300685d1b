// The samples of Modules/UpgradeObjC/UpgradeObjC.docc/AdoptingObjectiveCSteps.md.

// snippet.hide
import Foundation
import UpgradeCore
import UpgradeObjC
import UpgradeStorage

@MainActor func launch() async throws {
    // snippet.show
    // snippet.launch
    // At launch, on the main actor, instead of [XXAppUpdater updateToVersion]. The steps stay
    // XXAppUpdater's + (BOOL)appUpgradeTo_X_Y_Z methods, found at run time as before; the version
    // the pattern stored under "localAppVersion" in the standard defaults is where the first launch
    // starts from.
    let folder = try FileManager.default.url(
        for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
    let store = try LegacyVersionAdopter(
        FileUpgradeStore(url: folder.appending(path: "AppUpgrade/upgrade-state.json")),
        key: "localAppVersion")
    let upgrader = try Upgrader(store: store, policy: UpgradePolicy(giveUpAfter: 3)) {
        try UpgradeStep.objectiveCMethods(ofClassNamed: "XXAppUpdater")
    }
    let report = try await upgrader.run(bundle: .main)  // CFBundleShortVersionString
    // snippet.end
    // snippet.hide
    _ = report
}

func mixed(store: FileUpgradeStore) throws -> Upgrader {
    // snippet.show
    // snippet.mixed
    // Release 9.2: the methods up to 8.0 deleted behind a floor, new steps written in Swift.
    let upgrader = try Upgrader(store: store) {
        UpgradeStep("8.0") { try rebuildLibraryFromNotes() }.asFloor()
        try UpgradeStep.objectiveCMethods(ofClassNamed: "XXAppUpdater")
        UpgradeStep("9.2", id: "reindex-search") { try await reindexSearch() }
    }
    // snippet.hide
    return upgrader
}

func rebuildLibraryFromNotes() throws {}
func reindexSearch() async throws {}
