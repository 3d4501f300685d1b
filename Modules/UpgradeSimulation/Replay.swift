import Foundation
import StrictJSON
import UpgradeCore
import UpgradeStorage
import VersionKit

/// One launch whose observation differs from its fixture's expectation on one key.
public struct Mismatch: Sendable, Hashable, CustomStringConvertible {
    /// The expectation key that differs.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        /// The outcome.
        case outcome
        /// The steps started.
        case ran
        /// The steps abandoned.
        case abandoned
        /// The mark after the launch.
        case upgradedThrough
    }

    /// The fixture's name.
    public var fixture: String
    /// The history's name.
    public var history: String
    /// Which launch of the history, from 1.
    public var launch: Int
    /// The app version of that launch.
    public var version: Version
    /// The key that differs.
    public var key: Key
    /// The expected value, as JSON: `"failed"`, `["a", "b"]`, `"2.0"`, `null`.
    public var expected: String
    /// The observed value, as JSON.
    public var got: String
    /// The device's condition at that launch (`locked`, or an expiry), if any.
    public var condition: LaunchCondition?

    /// Creates a mismatch.
    ///
    /// - Parameters:
    ///   - fixture: The fixture's name.
    ///   - history: The history's name.
    ///   - launch: Which launch, from 1.
    ///   - version: The launch's app version.
    ///   - key: The key that differs.
    ///   - expected: The expected value, as JSON.
    ///   - got: The observed value, as JSON.
    ///   - condition: The device's condition at that launch; none by default.
    package init(
        fixture: String, history: String, launch: Int, version: Version, key: Key, expected: String, got: String,
        condition: LaunchCondition? = nil
    ) {
        self.condition = condition
        self.fixture = fixture
        self.history = history
        self.launch = launch
        self.version = version
        self.key = key
        self.expected = expected
        self.got = got
    }

    /// `FIXTURE / HISTORY / launch N (VERSION) / KEY: expected E, got G`; the version followed by the
    /// launch's condition when it has one, such as `(2.0, locked)`.
    public var description: String {
        let launchText = "\(version)" + (condition.map { ", \($0)" } ?? "")
        return "\(fixture) / \(history) / launch \(launch) (\(launchText)) / \(key.rawValue): expected \(expected),"
            + " got \(got)"
    }
}

extension LaunchExpectation {
    /// The keys on which an observation differs from this expectation, with both values as JSON.
    ///
    /// - Parameter observation: What the launch did.
    /// - Returns: One entry per differing key, in the order outcome, ran, abandoned, upgradedThrough.
    package func differences(from observation: LaunchObservation) -> [(
        key: Mismatch.Key, expected: String, got: String
    )] {
        var result: [(key: Mismatch.Key, expected: String, got: String)] = []
        func quotedList(_ ids: [String]) -> String { JSONWriter.compact(.array(ids.map { .string($0) })) }
        func mark(_ version: Version?) -> String { version.map { JSONWriter.quoted($0.description) } ?? "null" }
        if let outcome, outcome != observation.outcome {
            result.append(
                (.outcome, JSONWriter.quoted(outcome.rawValue), JSONWriter.quoted(observation.outcome.rawValue)))
        }
        if let ran, ran != observation.ran {
            result.append((.ran, quotedList(ran), quotedList(observation.ran)))
        }
        if let abandoned, abandoned != observation.abandoned {
            result.append((.abandoned, quotedList(abandoned), quotedList(observation.abandoned)))
        }
        // Versions compare by value: an expected 2.0 matches an observed 2.0.0.
        if let expectedMark = upgradedThrough, expectedMark != observation.upgradedThrough {
            result.append((.upgradedThrough, mark(expectedMark), mark(observation.upgradedThrough)))
        }
        return result
    }
}

/// The replay of one history: every launch's observation and the mismatches.
public struct HistoryResult: Sendable, Hashable {
    /// The history's name.
    public var name: String
    /// The app version of each launch.
    public var launches: [Version]
    /// What each launch did.
    public var observations: [LaunchObservation]
    /// Where the observations differ from the expectations, in launch order.
    public var mismatches: [Mismatch]
    /// The device's condition at some launches, by position (from 0), as the history gave them.
    package var conditions: [Int: LaunchCondition]

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - name: The history's name.
    ///   - launches: The app version of each launch.
    ///   - observations: What each launch did.
    ///   - mismatches: Where they differ from the expectations.
    ///   - conditions: The device's condition at some launches, by position; none by default.
    package init(
        name: String, launches: [Version], observations: [LaunchObservation], mismatches: [Mismatch],
        conditions: [Int: LaunchCondition] = [:]
    ) {
        self.name = name
        self.launches = launches
        self.observations = observations
        self.mismatches = mismatches
        self.conditions = conditions
    }

    /// Whether every expectation held.
    public var passed: Bool { mismatches.isEmpty }
}

/// The replay of one fixture.
public struct FixtureResult: Sendable, Hashable {
    /// The fixture's name.
    public var name: String
    /// The file it was read from, if any.
    package var file: String?
    /// One result per history, in the fixture's order.
    public var histories: [HistoryResult]
    /// The fixture replayed, when known: its steps, floor, policy and expectations let the reports
    /// draw each history step by step.
    package var fixture: Fixture?

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - name: The fixture's name.
    ///   - file: The file it was read from.
    ///   - histories: One result per history.
    ///   - fixture: The fixture replayed, if known.
    package init(name: String, file: String?, histories: [HistoryResult], fixture: Fixture? = nil) {
        self.name = name
        self.file = file
        self.histories = histories
        self.fixture = fixture
    }

    /// How many histories held every expectation.
    package var passedCount: Int { histories.filter(\.passed).count }
    /// How many histories had a mismatch.
    package var failedCount: Int { histories.count - passedCount }
    /// Whether every history passed.
    public var passed: Bool { failedCount == 0 }
    /// Every mismatch of every history, in order.
    public var mismatches: [Mismatch] { histories.flatMap(\.mismatches) }
}

/// The replay of a set of fixtures; render it with ``ReplayReport/render(as:)``.
public struct ReplayReport: Sendable, Hashable {
    /// One result per fixture, in order.
    public var fixtures: [FixtureResult]

    /// Creates a report.
    ///
    /// - Parameter fixtures: One result per fixture.
    package init(fixtures: [FixtureResult]) { self.fixtures = fixtures }

    /// How many histories held every expectation.
    public var passedCount: Int { fixtures.reduce(0) { $0 + $1.passedCount } }
    /// How many histories had a mismatch.
    public var failedCount: Int { fixtures.reduce(0) { $0 + $1.failedCount } }
    /// Whether every history of every fixture passed.
    public var passed: Bool { failedCount == 0 }
    /// Every mismatch, in order.
    public var mismatches: [Mismatch] { fixtures.flatMap(\.mismatches) }
    /// The closing line of the text report: `N passed, M failed`, counting histories.
    public var summaryLine: String { "\(passedCount) passed, \(failedCount) failed" }
}

/// How a replay performs each launch.
public enum ReplayMode: Sendable, Hashable {
    /// In this process, with an `InMemoryUpgradeStore` per history and simulated crashes.
    case inMemory
    /// One child process per launch running `executable launch ...` against a state file in a
    /// temporary folder, so that crashes are real process deaths. `executable` is an `upgrade-sim`.
    /// Available on macOS and Linux; elsewhere a replay in this mode throws ``SimulationError``.
    /// The launches' file stores write at `durability` (power loss, the default, or app kill).
    case processes(executable: URL, durability: FileUpgradeStore.Durability = .powerLoss)
}

extension SimulatedApp {
    /// Performs one launch in memory from a given state and returns what it did and the state it
    /// left (for a crash: as the dead process left it); for walks that branch, such as `explore`.
    ///
    /// - Parameters:
    ///   - version: The version of the app that is launching.
    ///   - state: The stored state before the launch; `nil` for a fresh install.
    /// - Returns: The observation and the stored state after the launch.
    /// - Throws: What ``launch(at:store:mode:)`` throws.
    package func launch(at version: Version, from state: UpgradeState?) async throws -> (
        observation: LaunchObservation, state: UpgradeState?
    ) {
        let store = InMemoryUpgradeStore(state: state)
        let observation = try await launch(at: version, store: store, mode: .simulated)
        return (observation, store.state)
    }

    /// Replays launches in memory from a fresh install: one `InMemoryUpgradeStore`, and after a
    /// crashed launch a new store seeded with the state the dead one kept.
    ///
    /// - Parameter launches: The app version of each launch, in order.
    /// - Returns: What each launch did.
    /// - Throws: What ``launch(at:store:mode:)`` throws.
    package func replay(launches: [Version]) async throws -> [LaunchObservation] {
        try await replay(launches: launches, followers: [])
    }

    /// Replays launches in memory from a fresh install, as ``replay(launches:)`` does, some of them
    /// follower launches (an app extension's: they read the store and never write it).
    ///
    /// - Parameters:
    ///   - launches: The app version of each launch, in order.
    ///   - followers: The positions in `launches` (from 0) of the follower launches.
    ///   - conditions: The device's condition at some launches, by position: `locked` (protected data
    ///     unavailable), or an expiry in a step, after which the process is killed; none by default.
    /// - Returns: What each launch did.
    /// - Throws: What ``launch(at:store:mode:)`` throws.
    package func replay(
        launches: [Version], followers: Set<Int>, conditions: [Int: LaunchCondition] = [:]
    ) async throws -> [LaunchObservation] {
        var store = InMemoryUpgradeStore()
        var observations: [LaunchObservation] = []
        observations.reserveCapacity(launches.count)
        for (position, version) in launches.enumerated() {
            let role: LaunchRole = followers.contains(position) ? .follower : .app
            let observation = try await launch(
                at: version, store: store, mode: .simulated, role: role, condition: conditions[position])
            if store.processDied { store = InMemoryUpgradeStore(state: store.state) }
            observations.append(observation)
        }
        return observations
    }
}

extension Fixture {
    /// Replays every history, each from a fresh install, and compares every launch with its
    /// expectation.
    ///
    /// - Parameter mode: In memory (the default) or one process per launch.
    /// - Returns: The result.
    /// - Throws: ``SimulationError`` when a launch cannot be carried out (for processes: a child that
    ///   fails or prints something unexpected); the engine's errors.
    public func replay(mode: ReplayMode = .inMemory) async throws -> FixtureResult {
        let app = self.app
        var results: [HistoryResult] = []
        results.reserveCapacity(histories.count)
        for history in histories {
            let observations: [LaunchObservation]
            switch mode {
            case .inMemory:
                observations = try await app.replay(
                    launches: history.launches, followers: history.followers, conditions: history.conditions)
            case .processes(let executable, let durability):
                observations = try await ProcessReplay(executable: executable, durability: durability)
                    .replay(history, of: self)
            }
            results.append(result(of: history, observations: observations))
        }
        return FixtureResult(name: name, file: file, histories: results, fixture: self)
    }

    /// Compares a history's observations with its expectations.
    ///
    /// - Parameters:
    ///   - history: The history.
    ///   - observations: What each of its launches did.
    /// - Returns: The result, with a mismatch per differing key.
    package func result(of history: FixtureHistory, observations: [LaunchObservation]) -> HistoryResult {
        var mismatches: [Mismatch] = []
        if let expect = history.expect {
            for (index, (expectation, observation)) in zip(expect, observations).enumerated() {
                for difference in expectation.differences(from: observation) {
                    mismatches.append(
                        Mismatch(
                            fixture: name, history: history.name, launch: index + 1, version: history.launches[index],
                            key: difference.key, expected: difference.expected, got: difference.got,
                            condition: history.conditions[index]))
                }
            }
        }
        return HistoryResult(
            name: history.name, launches: history.launches, observations: observations, mismatches: mismatches,
            conditions: history.conditions)
    }
}

extension ReplayReport {
    /// Replays fixtures one after another.
    ///
    /// - Parameters:
    ///   - fixtures: The fixtures.
    ///   - mode: In memory (the default) or one process per launch.
    /// - Returns: The report.
    /// - Throws: What ``Fixture/replay(mode:)`` throws.
    public static func replay(_ fixtures: [Fixture], mode: ReplayMode = .inMemory) async throws -> ReplayReport {
        var results: [FixtureResult] = []
        results.reserveCapacity(fixtures.count)
        for fixture in fixtures { results.append(try await fixture.replay(mode: mode)) }
        return ReplayReport(fixtures: results)
    }
}
