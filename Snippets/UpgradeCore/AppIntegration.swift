// The samples of Modules/UpgradeCore/UpgradeCore.docc/AppIntegration.md. The SwiftUI views compile
// where SwiftUI exists (a Mac builds them); the UIKit code compiles against UIKit on iOS and against
// the small stand-ins below elsewhere, so that every build checks its use of this package.

// snippet.make-upgrader
import Foundation
import Observation
import UpgradeCore
import UpgradeStorage

extension Upgrader {
    /// The app's upgrader, in the app alone: its extensions read the same state with the store
    /// alone, and link no step. On devices that ran the old appUpgradeTo_X_Y_Z updater, the app's
    /// first launch starts from the version it stored.
    static func forMyApp(at stateURL: URL) throws -> Upgrader {
        let store = try LegacyVersionAdopter(FileUpgradeStore(url: stateURL), key: "localAppVersion")
        return try Upgrader(store: store, policy: UpgradePolicy(giveUpAfter: 3)) {
            // A method of the old Objective-C updater, declared by hand. It ran on the main thread,
            // and it still does, holding it while it runs: the closure is @MainActor. Keep it short.
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
    // Stand-ins for the few UIKit and UserNotifications declarations the samples use, where UIKit
    // does not exist.
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
    @MainActor class UIOpenURLContext {
        let url = URL(fileURLWithPath: "/")
    }
    @MainActor class UIApplicationShortcutItem {}
    @MainActor class UIScene {
        class ConnectionOptions {
            var urlContexts: Set<UIOpenURLContext> { [] }
            var shortcutItem: UIApplicationShortcutItem? { nil }
            var userActivities: Set<NSUserActivity> { [] }
            var notificationResponse: UNNotificationResponse? { nil }
        }
    }
    extension UIOpenURLContext: Hashable {
        nonisolated static func == (left: UIOpenURLContext, right: UIOpenURLContext) -> Bool { left === right }
        nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
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
    @MainActor class UNNotificationResponse {}
    @MainActor class UNUserNotificationCenter {
        static func current() -> UNUserNotificationCenter { UNUserNotificationCenter() }
        weak var delegate: (any UNUserNotificationCenterDelegate)?
    }
    @MainActor protocol UNUserNotificationCenterDelegate: AnyObject {
        func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse)
            async
    }
#else
    import UIKit
    import UserNotifications
#endif
#if !canImport(Darwin)
    // Where Foundation has no user activities.
    @MainActor class NSUserActivity: Hashable {
        nonisolated static func == (left: NSUserActivity, right: NSUserActivity) -> Bool { left === right }
        nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }
#endif
#if canImport(WidgetKit)
    import WidgetKit
#else
    // A stand-in for WidgetKit's reload call, where WidgetKit does not exist.
    final class WidgetCenter: Sendable {
        static let shared = WidgetCenter()
        func reloadAllTimelines() {}
    }
#endif

/// Where the app goes for a link, a shortcut, a user activity or a notification it was opened for;
/// each reads the app's data. (It ignores a notification response it has handled already: the
/// system may hand the one that launched a scene both to the scene and to the notification
/// center's delegate.)
@MainActor enum Router {
    static func open(_ url: URL, in window: UIWindow?) {}
    static func perform(_ shortcut: UIApplicationShortcutItem, in window: UIWindow?) {}
    static func `continue`(_ activity: NSUserActivity, in window: UIWindow?) {}
    static func handle(_ response: UNNotificationResponse) {}
}

// snippet.show
// snippet.background-time
/// Time to finish the launch if the user leaves the app, asked for before the launch takes the
/// store's lock: iOS suspends an app within seconds of leaving it, and ends one that is suspended
/// while it holds a lock in a shared container.
@MainActor final class BackgroundTime {
    private var task = UIBackgroundTaskIdentifier.invalid

    /// - Parameter expired: Called on the main thread when the time runs out, before the task ends.
    init(name: String, expired: @escaping @MainActor @Sendable () -> Void) {
        task = UIApplication.shared.beginBackgroundTask(withName: name) { [weak self] in
            // Out of time: the upgrader records the running step's attempt as interrupted (not
            // counted) and gives up the store's lock before this returns; then the task may end.
            MainActor.assumeIsolated {
                expired()
                self?.end()
            }
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
#if canImport(UIKit)
    // snippet.show
    // snippet.first-frame
    /// Waits until the screen shows what the main thread has drawn so far: the frame that holds the
    /// launch screen is committed at the end of this turn of the main run loop, and a display link
    /// fires at each refresh of the screen after it. A step on the main actor that then holds the
    /// main thread leaves the launch screen on the screen, not a blank window.
    @MainActor enum Frames {
        static func shown() async {
            for _ in 0..<2 {  // two refreshes: the one after the commit, then the one that shows it
                await withCheckedContinuation { continuation in DisplayLinkWaiter.wait(continuation) }
            }
        }
    }

    /// One callback of a display link, then the link is gone.
    @MainActor private final class DisplayLinkWaiter: NSObject {
        private var continuation: CheckedContinuation<Void, Never>?

        static func wait(_ continuation: CheckedContinuation<Void, Never>) {
            let waiter = DisplayLinkWaiter()
            waiter.continuation = continuation
            // The display link keeps its target until it is invalidated.
            let link = CADisplayLink(target: waiter, selector: #selector(DisplayLinkWaiter.frame(_:)))
            link.add(to: .main, forMode: .common)
        }

        @objc private func frame(_ link: CADisplayLink) {
            link.invalidate()
            continuation?.resume()
            continuation = nil
        }
    }
// snippet.end
// snippet.hide
#else
    /// Where there is no display link (the stand-ins): one turn of the main actor.
    @MainActor enum Frames {
        static func shown() async { await Task.yield() }
    }
#endif

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
// snippet.show
// snippet.gate-model
/// The app's one launch of the upgrader, before anything reads its data: every window and every
/// scene of the process waits on it, and so does everything the app was opened for.
@MainActor @Observable
final class AppGate {
    static let shared = AppGate()

    enum Phase {
        /// The data may be read.
        case open
        /// The steps are running; no progress before the launch has counted them.
        case upgrading(UpgradeProgress?)
        /// Closed, and why: the launch has not run yet, protected data is unavailable, a step
        /// failed or waits, the launch was interrupted, or the app was downgraded. The next `open()`
        /// (the next time a scene becomes active, or Try Again) launches again.
        case closed(UpgradeGateState)
        /// The launch could not run: the upgrader could not read or write its state (the lock
        /// busy, say), or the app's version is not one.
        case couldNotLaunch(String)
    }

    private(set) var phase: Phase
    /// Closed after a failed step and below the mark; `UpgradeGate(opensAfterFailure: true)` opens
    /// after a failure for an app that can read its data between any two steps.
    private let decision = UpgradeGate()
    private var launch: Task<Void, Never>?
    private var waiting: [@MainActor () -> Void] = []

    private init() {
        // The cheap check, at once: the stored state read as an extension reads it (one read of a
        // few hundred bytes; no lock, no write, no legacy key). Open only with the mark at the
        // running version, as at almost every launch: the app's content shows from the first
        // frame. Closed with no state (a fresh install is the launch's to decide, once the data is
        // known to be readable), with steps pending, and while protected data is unavailable (a
        // prewarmed or background launch before the first unlock).
        let stored = try? UpgradeFollower(store: FileUpgradeStore(url: StateLocation.own()))
            .launch(currentVersion: Upgrader.version(of: .main))
        let state = stored.map(decision.state(after:)) ?? .launchNeeded
        phase = state.isOpen ? .open : .closed(state)
    }

    var isOpen: Bool {
        if case .open = phase { return true }
        return false
    }

    /// Runs `body` now if the gate is open, or else once it opens, in the order of the calls: a
    /// scene's swap to the content, then the link it was opened for.
    func whenOpen(_ body: @escaping @MainActor () -> Void) {
        if isOpen { body() } else { waiting.append(body) }
    }

    /// Runs the launch, once for the process, and again while the gate stays closed; every caller
    /// waits for its end. Call it from the foreground only.
    func open() async {
        if launch == nil { launch = Task { await run() } }
        await launch?.value
    }

    private func run() async {
        if !isOpen {
            phase = .upgrading(nil)
            // The launch screen on the screen before a step on the main actor can hold the thread.
            await Frames.shown()
        }
        do {
            let upgrader = try Upgrader.forMyApp(at: StateLocation.own())
            let version = try Upgrader.version(of: .main)
            let backgroundTime = BackgroundTime(name: "Upgrade steps") { upgrader.interruptLaunch() }
            defer { backgroundTime.end() }
            for try await progress in upgrader.runWithProgress(currentVersion: version) {
                if case .upgrading = phase { phase = .upgrading(progress) }
                guard let report = progress.report else { continue }
                Analytics.record(report)
                // Widgets that showed a placeholder while the app had work to do show the data now.
                if UpgradeGate.shouldReloadExtensions(after: report) { WidgetCenter.shared.reloadAllTimelines() }
                if !isOpen { settle(decision.state(after: report)) }
            }
        } catch {
            Analytics.record(error)
            // With the gate open the data was ready all along; only this launch's record failed.
            if !isOpen { phase = .couldNotLaunch("\(error)") }
        }
        if !isOpen { launch = nil }  // closed: the next open() launches again
    }

    private func settle(_ state: UpgradeGateState) {
        guard state.isOpen else {
            phase = .closed(state)
            return
        }
        phase = .open
        let held = waiting
        waiting = []
        for body in held { body() }
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
    /// Shows the steps' progress, or why the data waits, then `content`, the first view that reads
    /// the app's data.
    struct AppGateView<Content: View>: View {
        var gate: AppGate
        @ViewBuilder var content: () -> Content
        @Environment(\.scenePhase) private var scenePhase

        var body: some View {
            Group {
                switch gate.phase {
                case .open:
                    content()
                case .upgrading(let progress):
                    VStack(spacing: 12) {
                        ProgressView(value: progress?.fractionCompleted ?? 0)
                        Text(progress?.currentStep?.summary ?? "Updating…")
                    }
                    .padding()
                case .closed(.launchNeeded), .closed(.waitingForProtectedData), .closed(.interrupted):
                    ProgressView()  // the launch runs when the scene is active
                case .closed(let state):
                    tryAgain("Your data could not be updated (\(state)).")
                case .couldNotLaunch(let message):
                    tryAgain("Your data could not be updated: \(message)")
                }
            }
            // In the foreground only: a launch in the background (a push, a background fetch)
            // leaves the steps to the next time the app comes to the front.
            .task(id: scenePhase) {
                if scenePhase == .active { await gate.open() }
            }
        }

        private func tryAgain(_ message: String) -> some View {
            VStack(spacing: 12) {
                Text(message)
                Button("Try Again") { Task { await gate.open() } }
            }
            .padding()
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
                AppGateView(gate: .shared) { NotesList() }
                    // A link the app is opened with waits for the gate, as the content does.
                    .onOpenURL { url in AppGate.shared.whenOpen { Router.open(url, in: nil) } }
            }
        }
    }
// snippet.end
// snippet.hide
#endif

/// The app's launch screen: its look, a progress bar that follows `AppGate.shared.phase`, and when
/// the gate stays closed a Try Again button that calls `tryAgain`; nothing that reads the data.
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
        let gate = AppGate.shared
        window.rootViewController =
            gate.isOpen ? MainViewController() : LaunchScreenViewController { await gate.open() }
        window.makeKeyAndVisible()
        self.window = window
        // Every connected scene swaps its launch screen for the content when the gate opens,
        // whether it is active or not (an iPad window beside the active one, a scene in the app
        // switcher); then comes what the scene was opened for, which reads the data too.
        gate.whenOpen { [weak self] in self?.showContent() }
        let urls = connectionOptions.urlContexts.map(\.url)
        let shortcut = connectionOptions.shortcutItem
        let activities = connectionOptions.userActivities
        let response = connectionOptions.notificationResponse
        gate.whenOpen { [weak self] in
            for url in urls { Router.open(url, in: self?.window) }
            if let shortcut { Router.perform(shortcut, in: self?.window) }
            for activity in activities { Router.continue(activity, in: self?.window) }
            if let response { Router.handle(response) }
        }
    }

    // In the foreground only, as in the SwiftUI gate; each scene waits for the process's one launch.
    func sceneDidBecomeActive(_ scene: UIScene) {
        Task { await AppGate.shared.open() }
    }

    // What comes later waits for the gate in the same way.
    func scene(_ scene: UIScene, openURLContexts urlContexts: Set<UIOpenURLContext>) {
        let urls = urlContexts.map(\.url)
        AppGate.shared.whenOpen { [weak self] in
            for url in urls { Router.open(url, in: self?.window) }
        }
    }

    func scene(_ scene: UIScene, continue userActivity: NSUserActivity) {
        AppGate.shared.whenOpen { [weak self] in Router.continue(userActivity, in: self?.window) }
    }

    func windowScene(
        _ windowScene: UIWindowScene, performActionFor shortcutItem: UIApplicationShortcutItem,
        completionHandler: @escaping (Bool) -> Void
    ) {
        completionHandler(true)  // at once; the action itself waits for the gate
        AppGate.shared.whenOpen { [weak self] in Router.perform(shortcutItem, in: self?.window) }
    }

    private func showContent() {
        guard !(window?.rootViewController is MainViewController) else { return }
        window?.rootViewController = MainViewController()
    }
}
// snippet.end

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
// snippet.show
// snippet.uikit-app-delegate
final class AppDelegate: UIResponder, UIApplicationDelegate, UNUserNotificationCenterDelegate {
    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        // [XXAppUpdater updateToVersion] ran here, synchronously, before the first screen. Nothing
        // runs the steps here now, and nothing waits for them (no semaphore, no run-loop spin): this
        // launch may be in the background, before the device's first unlock; a main thread held at
        // launch is ended by the watchdog; and a step on the main actor would wait for it forever.
        // The scenes open the gate when they come to the foreground.
        UNUserNotificationCenter.current().delegate = self
        return true
    }

    // A background launch runs no step: they wait for the next foreground launch. Until the gate
    // is open, leave the data alone.
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]
    ) async -> UIBackgroundFetchResult {
        guard AppGate.shared.isOpen else { return .noData }
        return await Sync.fetchChanges()
    }

    // A tapped notification reads the data: it waits for the gate.
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        AppGate.shared.whenOpen { Router.handle(response) }
    }
}
// snippet.end

// snippet.hide
func notesForExtension() async -> [Note] {
    // snippet.show
    // snippet.extension-follower
    // In a share extension, a notification service extension: the store alone, no step.
    do {
        let follower = UpgradeFollower(store: try FileUpgradeStore(url: StateLocation.appGroup()))
        let report = try await follower.launch(currentVersion: Upgrader.version(of: .main))
        // deferred: the app has work to do (or has not launched since it was installed or
        // updated; its next launch upgrades the data), or protected data is unavailable (the
        // device locked since its restart). Show a placeholder until then.
        guard report.outcome == .upToDate else { return [] }
        return try NoteReader.read()
    } catch {
        return []  // the state unreadable: try at the next reload
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
