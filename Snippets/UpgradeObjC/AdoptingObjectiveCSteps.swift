// The samples of Modules/UpgradeObjC/UpgradeObjC.docc/AdoptingObjectiveCSteps.md.

// snippet.hide
import Foundation
import Testing
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
        try XXAppUpdaterSteps.steps()
    }
    let report = try await upgrader.run(bundle: .main)  // CFBundleShortVersionString
    // snippet.end
    // snippet.hide
    _ = report
}

// snippet.show
// snippet.expected
/// XXAppUpdater's step methods, written down: a method that is not loaded (a category left out by the
/// linker, a file left out of the target) or one that two categories define is an error before
/// anything runs, instead of a step that never runs.
enum XXAppUpdaterSteps {
    /// Every appUpgradeTo_ method of XXAppUpdater; a new method adds its line here.
    static let ids = [
        "appUpgradeTo_1_1", "appUpgradeTo_1_2", "appUpgradeTo_2_0", "appUpgradeTo_2_1", "appUpgradeTo_3_0",
    ]

    static func steps() throws -> [UpgradeStep] {
        // +appUpgradeTo_2_0 is in the class and, on purpose, in a category that overrides it.
        try UpgradeStep.objectiveCMethods(
            ofClassNamed: "XXAppUpdater", expecting: ids, overridden: ["appUpgradeTo_2_0"])
    }
}
// snippet.end

// snippet.unit-test
// In the app's unit tests (hosted in the app, so that its classes and categories are loaded as at launch):
@Test func everyObjectiveCStepIsLoaded() throws {
    // Fails, naming each method, when one is missing, unexpected, or defined twice by mistake.
    #expect(throws: Never.self) { try XXAppUpdaterSteps.steps() }
}
// snippet.end
// snippet.hide

func mixed(store: FileUpgradeStore) throws -> Upgrader {
    // snippet.show
    // snippet.mixed
    // Release 9.2: the methods up to 8.0 deleted (their ids too) behind a floor, new steps in Swift.
    let upgrader = try Upgrader(store: store) {
        UpgradeStep("8.0") { try rebuildLibraryFromNotes() }.asFloor()
        try XXAppUpdaterSteps.steps()
        UpgradeStep("9.2", id: "reindex-search") { try await reindexSearch() }
    }
    // snippet.hide
    return upgrader
}

func rebuildLibraryFromNotes() throws {}
func reindexSearch() async throws {}
