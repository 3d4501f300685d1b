// The samples of Modules/UpgradeCore/UpgradeCore.docc/AppIntegration.md. The SwiftUI views compile
// where SwiftUI exists (a Mac builds them); the UIKit code compiles against UIKit on iOS and against
// the small stand-ins below elsewhere, so that every build checks its use of this package.

// snippet.make-upgrader
import Foundation
import Observation
import UpgradeCore
import UpgradeStorage

extension Upgrader {
    /// The app's upgrader, the same in the app and in its extensions (keep it in a framework or a
    /// package that both link). On devices that ran the old appUpgradeTo_X_Y_Z updater, the app's
    /// first launch starts from the version it stored.
    static func forMyApp(at stateURL: URL) throws -> Upgrader {
        let store = try LegacyVersionAdopter(FileUpgradeStore(url: stateURL), key: "localAppVersion")
        return try Upgrader(store: store, policy: UpgradePolicy(giveUpAfter: 3)) {
            // A method of the old Objective-C updater, declared by hand. It ran on the main thread,
            // and it still does: the closure is @MainActor.
            try UpgradeStep(named: "appUpgradeTo_1_9") { @MainActor in
                XXAppUpdater.appUpgradeTo_1_9()
            }
            UpgradeStep("2.0", id: "settings-to-json", summary: "Moving your settings") {
                try await Settings.moveToJSON()
            }
            UpgradeStep("2.1", id: "reindex-notes", summary: "Rebuilding the search index") { context in
                try await SearchIndex.rebuild(resuming: context.previousAttemptInterrupted)
            }
        }
    }
}

enum StateLocation {
    /// The state file in the app's own Application Support folder, in a folder named after the
    /// app's bundle identifier: on macOS, Application Support is shared by every app of the user
    /// that is not sandboxed. Written out, since an extension's bundle identifier is its own.
    static func own() throws -> URL {
        let support = try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        return support.appending(path: "com.example.notes/AppUpgrade/upgrade-state.json")
    }
}
// snippet.end

// snippet.hide
enum Settings {
    static func moveToJSON() async throws {}
}

enum SearchIndex {
    static func rebuild(resuming: Bool) async throws {}
}

enum Analytics {
    static func record(_ report: UpgradeReport) {}
    static func record(_ error: any Error) {}
}

/// Stands for the app's Objective-C class of `+ (BOOL)appUpgradeTo_X_Y_Z` methods, which UIKit-era
/// code calls on the main thread.
// swift-format-ignore: AlwaysUseLowerCamelCase
@MainActor enum XXAppUpdater {
    static func appUpgradeTo_1_9() -> Bool { true }
}

struct Note: Sendable {}

enum NoteReader {
    static func read() throws -> [Note] { [] }
}

enum Sync {
    @MainActor static func fetchChanges() async -> UIBackgroundFetchResult { .newData }
}

struct NotAnAppGroupMember: Error {}

#if !canImport(Darwin)
    // A stand-in where Foundation has no app groups.
    extension FileManager {
        func containerURL(forSecurityApplicationGroupIdentifier identifier: String) -> URL? { nil }
    }
#endif

// snippet.show
// snippet.app-group
extension StateLocation {
    /// The state file in the app group's container, where the app's extensions find it too.
    static func appGroup() throws -> URL {
        guard
            let container = FileManager.default.containerURL(
                forSecurityApplicationGroupIdentifier: "group.com.example.notes")
        else { throw NotAnAppGroupMember() }
        return container.appending(path: "Library/Application Support/AppUpgrade/upgrade-state.json")
    }

    /// The app group's state file, after moving there the state that earlier versions of the app
    /// kept in its own container. Without the move, the group's missing file would be a fresh
    /// install, and under the `skip` policy every pending step would count as done without
    /// running. The app alone calls it, from its one gate, before its first launch on the group's
    /// file; an extension that finds no state there defers to the app.
    static func movedToAppGroup() throws -> URL {
        let old = try own()
        let new = try appGroup()
        let files = FileManager.default
        guard files.fileExists(atPath: old.path), !files.fileExists(atPath: new.path) else { return new }
        try files.createDirectory(at: new.deletingLastPathComponent(), withIntermediateDirectories: true)
        // The history first, which may be missing; then the state, whose move is the one that counts.
        try? files.moveItem(atPath: old.path + ".history.jsonl", toPath: new.path + ".history.jsonl")
        try files.moveItem(at: old, to: new)
        return new
    }
}
// snippet.end

// snippet.hide
#if !canImport(UIKit)
    // Stand-ins for the few UIKit declarations the samples use, where UIKit does not exist.
    @MainActor class UIResponder {}
    @MainActor protocol UIApplicationDelegate: AnyObject {}
    @MainActor protocol UIWindowSceneDelegate: AnyObject {
        var window: UIWindow? { get set }
    }
    struct UIBackgroundTaskIdentifier: Hashable, Sendable {
        static let invalid = UIBackgroundTaskIdentifier()
    }
    enum UIBackgroundFetchResult: Sendable {
        case newData, noData, failed
    }
    @MainActor class UIApplication {
        struct LaunchOptionsKey: Hashable {}
        static let shared = UIApplication()
        func beginBackgroundTask(
            withName name: String?, expirationHandler: (@MainActor @Sendable () -> Void)? = nil
        ) -> UIBackgroundTaskIdentifier { .invalid }
        func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {}
    }
    @MainActor class UIScene {
        class ConnectionOptions {}
    }
    @MainActor class UISceneSession {}
    @MainActor class UIWindowScene: UIScene {}
    @MainActor class UIViewController {
        init(nibName: String?, bundle: Bundle?) {}
        required init?(coder: NSCoder) {}
        convenience init() { self.init(nibName: nil, bundle: nil) }
    }
    @MainActor class UIWindow {
        var rootViewController: UIViewController?
        init(windowScene: UIWindowScene) {}
        func makeKeyAndVisible() {}
    }
#else
    import UIKit
#endif

// snippet.show
// snippet.background-time
/// Time to finish the launch if the user leaves the app, asked for before the launch takes the
/// store's lock: iOS ends an app that is suspended while it holds a lock in a shared container.
@MainActor final class BackgroundTime {
    private var task = UIBackgroundTaskIdentifier.invalid

    init(name: String) {
        task = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            // Out of time (UIKit calls this on the main thread): if the system ends the app now, the
            // running step counts as interrupted and runs again at the next launch.
            MainActor.assumeIsolated { self?.end() }
        }
    }

    func end() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}
// snippet.end

// snippet.hide
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
// snippet.show
// snippet.gate-model
/// The app's one launch of the upgrader, before anything reads its data: every window and every
/// scene of the process waits on it.
@MainActor @Observable
final class LaunchGate {
    static let shared = LaunchGate()

    enum Phase {
        /// The steps are running; no progress before the launch has counted them.
        case upgrading(UpgradeProgress?)
        /// The data may be read.
        case ready
        /// The upgrader could not read or write its state (the lock busy, say), or the app's
        /// version is not one. The next `open()` tries again.
        case failed(String)
    }

    private(set) var phase: Phase
    private var launch: Task<Void, Never>?

    private init() {
        // The cheap check, at once: one read of a few hundred bytes, no lock, no write. With nothing
        // pending, as at almost every launch, the app's content shows from the first frame.
        let plan = try? Upgrader.forMyApp(at: StateLocation.own()).plan(currentVersion: Upgrader.version(of: .main))
        phase = plan?.stepsToRun.isEmpty == true ? .ready : .upgrading(nil)
    }

    /// Runs the launch, once for the process, and again after a failure; every caller waits for
    /// its end. Call it from the foreground only.
    func open() async {
        if case .failed = phase {
            phase = .upgrading(nil)
            launch = nil
        }
        if launch == nil { launch = Task { await run() } }
        await launch?.value
    }

    private func run() async {
        let backgroundTime = BackgroundTime(name: "Upgrade steps")
        defer { backgroundTime.end() }
        do {
            let upgrader = try Upgrader.forMyApp(at: StateLocation.own())
            let version = try Upgrader.version(of: .main)
            for try await progress in upgrader.runWithProgress(currentVersion: version) {
                if case .upgrading = phase { phase = .upgrading(progress) }
                if let report = progress.report { Analytics.record(report) }
            }
            // Upgraded, up to date, a fresh install, a downgrade, or a failed step that the next
            // launch retries: the steps that finished are recorded, so the data may be read.
            phase = .ready
        } catch {
            Analytics.record(error)
            // With nothing pending the data was ready all along; only this launch's record failed.
            if case .upgrading = phase { phase = .failed("\(error)") }
        }
    }
}
// snippet.end

// snippet.hide
#if canImport(SwiftUI)
    import SwiftUI

    struct NotesList: View {
        var body: some View { Text("Notes") }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    // snippet.show
    // snippet.swiftui-gate
    /// Shows the steps' progress, or a way to try again, then `content`, the first view that reads
    /// the app's data.
    struct LaunchGateView<Content: View>: View {
        var gate: LaunchGate
        @ViewBuilder var content: () -> Content
        @Environment(\.scenePhase) private var scenePhase

        var body: some View {
            Group {
                switch gate.phase {
                case .ready:
                    content()
                case .upgrading(let progress):
                    VStack(spacing: 12) {
                        ProgressView(value: progress?.fractionCompleted ?? 0)
                        Text(progress?.currentStep?.summary ?? "Updating…")
                    }
                    .padding()
                case .failed(let message):
                    VStack(spacing: 12) {
                        Text("Your data could not be updated: \(message)")
                        Button("Try Again") { Task { await gate.open() } }
                    }
                    .padding()
                }
            }
            // In the foreground only: a launch in the background (a push, a background fetch)
            // leaves the steps to the next time the app comes to the front.
            .task(id: scenePhase) {
                if scenePhase == .active { await gate.open() }
            }
        }
    }

    // The app's entry point, marked @main in the app:
    // snippet.hide
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    // snippet.show
    struct NotesApp: App {
        var body: some Scene {
            WindowGroup {
                // Every window shows the one gate of the process: one launch for all of them.
                LaunchGateView(gate: .shared) { NotesList() }
            }
        }
    }
// snippet.end
// snippet.hide
#endif

/// The app's launch screen: its look, a progress bar that follows `LaunchGate.shared.phase`, and
/// after a failure a Try Again button that calls `tryAgain`; nothing that reads the data.
final class LaunchScreenViewController: UIViewController {
    let tryAgain: @MainActor () async -> Void

    init(tryAgain: @escaping @MainActor () async -> Void) {
        self.tryAgain = tryAgain
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }
}

/// The app's first screen that reads its data.
final class MainViewController: UIViewController {}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
// snippet.show
// snippet.uikit-scene
final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?

    func scene(
        _ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions
    ) {
        guard let windowScene = scene as? UIWindowScene else { return }
        let window = UIWindow(windowScene: windowScene)
        window.rootViewController = firstViewController()
        window.makeKeyAndVisible()
        self.window = window
    }

    // In the foreground only, as in the SwiftUI gate; each scene waits for the process's one launch.
    func sceneDidBecomeActive(_ scene: UIScene) {
        Task { await openGate() }
    }

    private func openGate() async {
        await LaunchGate.shared.open()
        guard !(window?.rootViewController is MainViewController) else { return }
        window?.rootViewController = firstViewController()
    }

    /// The app's content once the gate is open (from the first frame when nothing is pending), its
    /// launch screen until then.
    private func firstViewController() -> UIViewController {
        if case .ready = LaunchGate.shared.phase { return MainViewController() }
        return LaunchScreenViewController { [weak self] in await self?.openGate() }
    }
}
// snippet.end

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
// snippet.show
// snippet.uikit-app-delegate
final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // [XXAppUpdater updateToVersion] ran here, synchronously, before the first screen. Nothing
        // runs the steps here now, and nothing waits for them (no semaphore, no run-loop spin): this
        // launch may be in the background, before the device's first unlock; a main thread held at
        // launch is ended by the watchdog; and a step on the main actor would wait for it forever.
        // The scenes open the gate when they come to the foreground.
        return true
    }

    // A background launch runs no step: they wait for the next foreground launch. Until the gate
    // is open, leave the data alone.
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]
    ) async -> UIBackgroundFetchResult {
        guard case .ready = LaunchGate.shared.phase else { return .noData }
        return await Sync.fetchChanges()
    }
}
// snippet.end

// snippet.hide
func notesForExtension() async -> [Note] {
    // snippet.show
    // snippet.extension-follower
    // In a widget's timeline provider, a share extension, a notification service extension:
    do {
        let upgrader = try Upgrader.forMyApp(at: StateLocation.appGroup())
        let report = try await upgrader.run(bundle: .main, role: .follower)
        // deferred: the app has steps to run, or has not launched since it was installed or
        // updated; its next launch upgrades the data. Show a placeholder until then.
        guard report.outcome == .upToDate else { return [] }
        return try NoteReader.read()
    } catch {
        return []  // unreadable (before the device's first unlock, for one): try at the next reload
    }
    // snippet.hide
}

func debugMenu(upgrader: Upgrader) async throws {
    // snippet.show
    // snippet.debug-menu
    // "Run the upgrade steps again" in a debug build: the next launch is a fresh install.
    try await upgrader.reset()
    // snippet.hide
}

func supersededCheck(upgrader: Upgrader) throws {
    // snippet.show
    // snippet.superseded
    // Before opening data that a newer version of the app may have changed (after a downgrade):
    if try upgrader.hasBeenSuperseded(currentVersion: Upgrader.version(of: .main)) {
        // Open it read-only, or ask the user to update.
    }
    // snippet.hide
}
