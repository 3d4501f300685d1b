// The samples of Modules/UpgradeCore/UpgradeCore.docc/AppIntegration.md. The SwiftUI views compile
// where SwiftUI exists (a Mac builds them); the UIKit app delegate compiles against UIKit on iOS and
// against the small stand-ins below elsewhere, so that every build checks its use of this package.

// snippet.make-upgrader
import Foundation
import Observation
import UpgradeCore
import UpgradeStorage

extension Upgrader {
    /// The app's upgrader: its state in Application Support; on devices that ran the old
    /// appUpgradeTo_X_Y_Z updater, the first launch starts from the version it stored.
    static func forMyApp() throws -> Upgrader {
        let folder = try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        let store = try LegacyVersionAdopter(
            FileUpgradeStore(url: folder.appending(path: "AppUpgrade/upgrade-state.json")), key: "localAppVersion")
        return Upgrader(store: store, policy: UpgradePolicy(giveUpAfter: 3)) {
            UpgradeStep("2.0", id: "settings-to-json", summary: "Moving your settings") {
                try await Settings.moveToJSON()
            }
            UpgradeStep("2.1", id: "reindex-notes", summary: "Rebuilding the search index") { context in
                try await SearchIndex.rebuild(resuming: context.previousAttemptInterrupted)
            }
        }
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
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
// snippet.show
// snippet.gate-model
/// Runs the upgrade steps once at launch, before anything reads the app's data, and says how far
/// they have got.
@MainActor @Observable
final class LaunchGate {
    enum Phase {
        /// The steps are running; no progress before the launch has counted them.
        case upgrading(UpgradeProgress?)
        /// The data may be read.
        case ready
        /// The upgrader could not read or write its state, or the app's version is not one.
        case failed(String)
    }

    private(set) var phase = Phase.upgrading(nil)

    /// Runs the launch; the first screen calls it from its task.
    func open() async {
        do {
            let upgrader = try Upgrader.forMyApp()
            let version = try Upgrader.version(of: .main)
            for try await progress in upgrader.runWithProgress(currentVersion: version) {
                phase = .upgrading(progress)
                if let report = progress.report { Analytics.record(report) }
            }
            // Upgraded, up to date, a fresh install, a downgrade, or a failed step that the next
            // launch retries: the steps that finished are recorded, so the data may be read.
            phase = .ready
        } catch {
            phase = .failed("\(error)")
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
    /// Shows the steps' progress, then `content`, which is the first view to read the app's data.
    struct LaunchGateView<Content: View>: View {
        @State private var gate = LaunchGate()
        @ViewBuilder var content: () -> Content

        var body: some View {
            switch gate.phase {
            case .ready:
                content()
            case .upgrading(let progress):
                VStack(spacing: 12) {
                    ProgressView(value: progress?.fractionCompleted ?? 0)
                    Text(progress?.currentStep?.summary ?? "Updating…")
                }
                .padding()
                .task { await gate.open() }
            case .failed(let message):
                Text("Your data could not be updated: \(message)")
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
                LaunchGateView { NotesList() }
            }
        }
    }
// snippet.end
// snippet.hide
#endif

#if !canImport(UIKit)
    // Stand-ins for the few UIKit declarations the app delegate uses, where UIKit does not exist.
    @MainActor class UIResponder {}
    @MainActor protocol UIApplicationDelegate: AnyObject {}
    @MainActor class UIApplication {
        struct LaunchOptionsKey: Hashable {}
    }
    @MainActor class UIScreen {
        static let main = UIScreen()
        var bounds: CGRect { .zero }
    }
    @MainActor class UIViewController {
        init() {}
    }
    @MainActor class UIWindow {
        var rootViewController: UIViewController?
        init(frame: CGRect) {}
        func makeKeyAndVisible() {}
    }
#else
    import UIKit
#endif

/// The app's launch screen: its look, a label and a progress bar, and nothing that reads the data.
final class UpgradeProgressViewController: UIViewController {
    func show(_ progress: UpgradeProgress) {}
    func showFailure(_ error: any Error) {}
}

/// The app's first screen that reads its data.
final class MainViewController: UIViewController {}

// snippet.show
// snippet.uikit-delegate
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?

    func application(
        _ application: UIApplication,
        didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
    ) -> Bool {
        let launchScreen = UpgradeProgressViewController()
        let window = UIWindow(frame: UIScreen.main.bounds)
        window.rootViewController = launchScreen
        window.makeKeyAndVisible()
        self.window = window
        // Return at once: the steps run while the launch screen shows their progress, and the
        // main actor stays free, so the system's launch watchdog has nothing to end.
        Task {
            do {
                let upgrader = try Upgrader.forMyApp()
                let version = try Upgrader.version(of: .main)
                for try await progress in upgrader.runWithProgress(currentVersion: version) {
                    launchScreen.show(progress)
                }
                window.rootViewController = MainViewController()
            } catch {
                launchScreen.showFailure(error)
            }
        }
        return true
    }
}
// snippet.end

// snippet.hide
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
