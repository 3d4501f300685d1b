import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import VersionKit

extension Timeline {
    /// Derives a history's timeline from what each launch did.
    ///
    /// The cells follow the launch rules: a step is pending at C when its build has it, its version
    /// is at most C and above the mark, and it is not done since the mark last moved; the attempt
    /// numbers count failed and crashed attempts since the step last finished, dropped by a rewind.
    ///
    /// - Parameters:
    ///   - title: The history's title.
    ///   - steps: The steps of every build.
    ///   - floor: The floor, if any.
    ///   - policy: The policy the launches ran under.
    ///   - launches: The app version of each launch.
    ///   - observations: What each launch did (as many as ran; extra launches are left out).
    ///   - expectations: What each launch was expected to do, or `nil`.
    ///   - followers: The positions of follower launches, which read the state and change nothing: their
    ///     pending steps are drawn as not reached, and the next launch starts from the same state.
    ///   - conditions: The device's condition at some launches, by position: a `locked` launch is drawn
    ///     as a follower's (it changes nothing); in an expiring launch the step whose time expired is
    ///     drawn `expired`, and its attempt is not counted.
    init(
        title: String, steps: [ScriptedStep], floor: ScriptedStep?, policy: UpgradePolicy, launches: [Version],
        observations: [LaunchObservation], expectations: [LaunchExpectation]? = nil, followers: Set<Int> = [],
        conditions: [Int: LaunchCondition] = [:]
    ) {
        let all = (floor.map { [$0] } ?? []) + steps
        let order = all.indices.sorted { a, b in
            if all[a].version != all[b].version { return all[a].version < all[b].version }
            return a < b  // the floor comes first in `all`, so it leads its version
        }
        let ordered = order.map { all[$0] }
        self.title = title
        rows = order.map { index in
            Row(
                id: all[index].id, version: all[index].version, isFloor: floor != nil && index == 0,
                builds: all[index].buildRange)
        }
        columns = []
        cells = Array(repeating: [], count: ordered.count)
        expectedNotRun = []
        runNotExpected = []
        expectedMark = []

        var hasState = false
        var mark: Version?
        var done: Set<String> = []
        var attempts: [String: Int] = [:]
        for (index, (version, observation)) in zip(launches, observations).enumerated() {
            // A locked launch reads nothing it can trust and changes nothing, as a follower's.
            let isFollower = followers.contains(index) || conditions[index] == .locked
            var expiring: String?
            if case .expire(let id)? = conditions[index], observation.outcome == .cancelled,
                observation.ran.last == id
            {
                expiring = id
            }
            let fresh = !hasState && !isFollower
            var start = mark
            if fresh {
                switch policy.freshInstall {
                case .skip: start = version
                case .runAll: start = nil
                case .upgradeFrom(let baseline): start = baseline
                }
            }
            let downgrade = (isFollower && !hasState) ? false : start.map { version < $0 } ?? false
            let started = Set(observation.ran)
            let gaveUp = Set(observation.abandoned)
            let stopped = observation.outcome == .failed || observation.outcome == .crashed
            for (row, step) in ordered.enumerated() {
                let attempt = (attempts[step.id] ?? 0) + 1
                let pending =
                    !downgrade && step.version <= version && (start.map { step.version > $0 } ?? true)
                    && !done.contains(step.id)
                let cell: Cell
                if !step.isInBuild(of: version) {
                    cell = .notInBuild
                } else if started.contains(step.id) {
                    if gaveUp.contains(step.id) {
                        cell = .abandoned(attempt: attempt)
                    } else if step.id == expiring {
                        cell = .expired(attempt: attempt)
                    } else if stopped && observation.ran.last == step.id {
                        cell = observation.outcome == .crashed ? .crashed(attempt: attempt) : .failed(attempt: attempt)
                    } else {
                        cell = .finished(attempt: attempt)
                    }
                } else if gaveUp.contains(step.id) {
                    cell = .abandoned(attempt: nil)
                } else if pending {
                    cell = .notReached
                } else {
                    cell = step.version > version ? .above : .done
                }
                if isFollower {
                    cells[row].append(cell)
                    continue
                }
                switch cell {
                case .finished, .abandoned:
                    attempts[step.id] = nil
                    done.insert(step.id)
                case .failed(let attempt), .crashed(let attempt): attempts[step.id] = attempt
                default: break
                }
                cells[row].append(cell)
            }
            let after = isFollower ? mark : observation.upgradedThrough
            if !isFollower, downgrade, policy.downgrade == .rewind {
                for step in ordered where step.version > version {
                    done.remove(step.id)
                    attempts[step.id] = nil
                }
            }
            if !isFollower, let after, after != mark {
                for step in ordered where step.version <= after {
                    done.remove(step.id)
                    attempts[step.id] = nil
                }
            }
            if !isFollower {
                mark = after
                hasState = true
            }

            var differences: [Difference] = []
            var missing: Set<String> = []
            var unexpected: Set<String> = []
            var expectedMark: Version?? = nil
            if let expectation = expectations.flatMap({ index < $0.count ? $0[index] : nil }) {
                differences = expectation.differences(from: observation).map {
                    Difference(key: $0.key, expected: $0.expected, got: $0.got)
                }
                if let ran = expectation.ran, ran != observation.ran {
                    missing = Set(ran).subtracting(started)
                    unexpected = started.subtracting(ran)
                }
                if let expected = expectation.upgradedThrough, expected != after { expectedMark = .some(expected) }
            }
            columns.append(
                Column(
                    version: version, outcome: observation.outcome, isFreshInstall: fresh, isDowngrade: downgrade,
                    markBefore: start, markAfter: after, mismatches: differences, condition: conditions[index],
                    deferral: observation.deferral))
            expectedNotRun.append(missing)
            runNotExpected.append(unexpected)
            self.expectedMark.append(expectedMark)
        }
    }
}
