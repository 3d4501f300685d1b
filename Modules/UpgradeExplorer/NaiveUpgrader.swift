import UpgradeFixtures
import UpgradeReplay
import VersionKit

/// The naive `appUpgradeTo_X_Y_Z` pattern of the Objective-C snippet this package replaces, as a
/// launch function, so that `explore --engine naive` can show where it breaks the guarantees.
///
/// Its whole state is one stored version, or none. At a launch at C:
/// - pending are the steps whose version is greater than the stored one under the naive comparison
///   (component by component over the shorter length; if equal so far, the longer list is greater;
///   no stored version is an empty list, so every step is pending); there is no upper bound at C;
/// - the pending steps run in ascending order under the same comparison; a failure stops the loop;
///   a crash ends the process with nothing written;
/// - after the loop, finished or stopped, the stored version becomes C.
///
/// Scripted behaviours count attempts as `run` does: failed or crashed attempts since the step last
/// finished, plus one.
///
/// With builds that differ (steps' `since` and `until`), a launch at C runs the methods of the build
/// of C, as the app's code of that version has them: a removed step's method is simply gone. The
/// pattern has no floor; a fixture's floor is the method a team would write for version F, run as
/// any other (pending when the stored version is below F).
package struct NaiveUpgrader: Sendable {
    /// What the naive pattern keeps between launches, plus the simulator's attempt counts.
    package struct State: Sendable, Hashable {
        /// The stored version as the list of numbers it was written with, or `nil` before the first launch.
        package var storedVersion: [Int]?
        /// Failed or crashed attempts per step (by declaration index, the floor last) since it last finished.
        var failedAttempts: [Int]

        /// The state before the first launch: nothing stored.
        ///
        /// - Parameter stepCount: How many steps the upgrader has, its floor included.
        /// - Returns: The state.
        package static func initial(stepCount: Int) -> State {
            State(storedVersion: nil, failedAttempts: Array(repeating: 0, count: stepCount))
        }
    }

    /// The steps, in declaration order, then the floor, if any.
    package let steps: [ScriptedStep]
    /// Each step's version as the snippet reads it, for `NaivePattern.compareVersion(_:_:)`.
    private let components: [[Int32]]
    private let releases: Releases
    /// The run order of each build's methods, as indices into ``steps``.
    private let runOrders: [[Int]]

    /// Creates the naive upgrader for a fixture's steps and floor.
    ///
    /// - Parameters:
    ///   - steps: The steps, in declaration order.
    ///   - floor: The floor, run as the method of its version; `nil` by default.
    package init(steps: [ScriptedStep], floor: ScriptedStep? = nil) {
        let all = steps + (floor.map { [$0] } ?? [])
        self.steps = all
        let components = all.map { Self.components(of: $0.version).map { Int32(clamping: $0) } }
        self.components = components
        releases = Releases(steps: steps, floor: floor)
        runOrders = releases.builds.map { build in
            let methods = build.steps + (build.hasFloor ? [steps.count] : [])
            // Stable: the snippet's sort is not, but ties are a fault of its comparison, not of the order.
            return methods.sorted { a, b in
                let order = NaivePattern.compareVersion(components[a], components[b])
                return order != 0 ? order < 0 : a < b
            }
        }
    }

    static func components(of version: Version) -> [Int] {
        version.componentCount == 3 ? [version.major, version.minor, version.patch] : [version.major, version.minor]
    }

    /// One launch of the naive pattern at `version`.
    ///
    /// - Parameters:
    ///   - version: The running version.
    ///   - state: The state before the launch.
    /// - Returns: What the launch did, and the state after it.
    package func launch(at version: Version, from state: State) -> (observation: LaunchObservation, state: State) {
        launch(at: version, from: state, locked: false, expiring: -1)
    }

    /// One launch of the naive pattern under a device condition, for `explore`: `locked`, it reads the
    /// stored version as missing (a locked device's `UserDefaults` read as empty), runs every step of
    /// its build as on a fresh install and stores C; with the background time expiring in the step at
    /// declaration index `expiring`, the process dies there as in a crash (the pattern has no expiry
    /// handler), though the scripted behaviour's attempt is not used up: the expiry is not the script's
    /// doing, and counting it would make every step's count part of the state for nothing.
    func launch(at version: Version, from state: State, locked: Bool, expiring: Int) -> (
        observation: LaunchObservation, state: State
    ) {
        var state = state
        let stored = locked ? [] : (state.storedVersion ?? []).map { Int32(clamping: $0) }
        var ran: [String] = []
        var finished: [String] = []
        var outcome = SimulatedOutcome.upToDate
        for index in runOrders[releases.build(at: version)]
        where NaivePattern.compareVersion(stored, components[index]) < 0 {
            let step = steps[index]
            ran.append(step.id)
            let attempt = state.failedAttempts[index] + 1
            if index == expiring {
                let through = state.storedVersion.map(Self.version(of:))
                return (
                    LaunchObservation(outcome: .crashed, ran: ran, upgradedThrough: through, finished: finished), state
                )
            }
            switch step.behavior.result(forAttempt: attempt) {
            case .ok:
                state.failedAttempts[index] = 0
                finished.append(step.id)
                outcome = .upgraded
                continue
            case .fail:
                state.failedAttempts[index] = attempt
                outcome = .failed
            case .crash:
                // The process dies: nothing is written, so the stored version stays.
                state.failedAttempts[index] = attempt
                let through = state.storedVersion.map(Self.version(of:))
                return (
                    LaunchObservation(
                        outcome: .crashed, ran: ran, upgradedThrough: through, finished: finished),
                    state
                )
            }
            break
        }
        state.storedVersion = Self.components(of: version)
        return (LaunchObservation(outcome: outcome, ran: ran, upgradedThrough: version, finished: finished), state)
    }

    static func version(of components: [Int]) -> Version {
        Version(major: components[0], minor: components[1], patch: components.count > 2 ? components[2] : nil)
    }
}
