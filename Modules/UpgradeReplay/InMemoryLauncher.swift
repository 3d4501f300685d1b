import Foundation
import UpgradeCore
import UpgradeStorage
import VersionKit

/// Launches a simulated app in memory again and again, each time from a chosen state, reusing one
/// store and one upgrader per build: for walks that branch, such as `explore`. Use it from one task at
/// a time.
package final class InMemoryLauncher {
    /// The app launched.
    package let app: SimulatedApp
    private let store = InMemoryUpgradeStore()
    /// One upgrader per build of the app.
    private let upgraders: [Upgrader]

    /// Prepares the launcher.
    ///
    /// - Parameter app: The app to launch.
    package init(app: SimulatedApp) {
        self.app = app
        upgraders = app.releases.builds.indices.map { [store] build in
            var upgrader = app.makeUpgrader(store: store, build: build)
            upgrader.observer = LaunchProbe.observe
            return upgrader
        }
    }

    /// Performs one launch from a given state and returns what it did and the state it left (for a
    /// crash: as the dead process left it).
    ///
    /// - Parameters:
    ///   - version: The version of the app that is launching.
    ///   - state: The stored state before the launch; `nil` for a fresh install.
    /// - Returns: The observation and the stored state after the launch.
    /// - Throws: An engine error other than a simulated crash.
    package func launch(at version: Version, from state: UpgradeState?) async throws -> (
        observation: LaunchObservation, state: UpgradeState?
    ) {
        store.reset(to: state)
        let upgrader = upgraders[app.releases.build(at: version)]
        let observation = try await app.launch(at: version, with: upgrader, mode: .simulated, memoryStore: store)
        return (observation, store.state)
    }
}
