import Testing
import UpgradeCore
import UpgradeTestSupport
import VersionKit

/// Thousands of random step sets, behaviours, policies and histories (downgrades and crashes
/// included), checking every guarantee of the launch algorithm (UpgradeCore's LaunchAlgorithm.md) after every launch.
///
/// A crash is simulated as the simulator does it: the action makes the store die (every later write
/// is discarded) and throws, so the next launch finds the `inProgress` record of that attempt. Some
/// launches also die at a random write, between steps: before a step, after its work but before its
/// completion is written, or before the launch's last write.
@Suite("Randomized launches")
struct RandomizedLaunchTests {
    @Test(
        "random step sets and histories keep every guarantee",
        arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003] as [UInt64])
    func randomHistories(seed: UInt64) async throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let coverage = Locked<[String: Int]>([:])
        for index in 0..<1000 {
            let scenario = Scenario.random(using: &random)
            let checker = Checker(scenario: scenario, coverage: coverage)
            await checker.replay()
            if !checker.violations.isEmpty {
                Issue.record(
                    """
                    seed \(seed), case \(index): \(checker.violations.count) violations
                    \(scenario)
                    \(checker.violations.prefix(5).joined(separator: "\n"))
                    """)
                return
            }
        }
        // The cases reach every path, often.
        let counts = coverage.value
        for key in [
            "launch", "freshInstall", "upToDate", "upgraded", "failed", "downgraded", "rewind", "crash", "death",
            "abandonedUnrun", "abandonedAfterFailure", "interrupted", "quiet",
        ] {
            #expect(counts[key, default: 0] >= 100, "\(key): \(counts[key, default: 0])")
        }
    }
}

/// One random device: its steps, policy and the launches it makes.
struct Scenario: CustomStringConvertible {
    struct Step {
        let id: String
        let version: Version
        let script: [Act]
    }

    struct Launch {
        let version: Version
        /// The write, counted from the launch's first, at which the process dies; `nil`: it does not.
        let deathAtWrite: Int?
    }

    let steps: [Step]
    let policy: UpgradePolicy
    let launches: [Launch]

    static func randomVersion(using random: inout SeededRandomNumberGenerator) -> Version {
        // Few values, so that versions repeat and 1.2 meets 1.2.0.
        Version(
            major: Int.random(in: 1...3, using: &random), minor: Int.random(in: 0...2, using: &random),
            patch: Bool.random(using: &random) ? Int.random(in: 0...1, using: &random) : nil)
    }

    static func randomScript(using random: inout SeededRandomNumberGenerator) -> [Act] {
        let times = Int.random(in: 1...3, using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4: return [.ok]
        case 4: return Array(repeating: .fail, count: times) + [.ok]
        case 5: return Array(repeating: .crash, count: times) + [.ok]
        case 6: return [.fail]
        case 7: return [.crash]
        default:
            return (0..<Int.random(in: 1...4, using: &random)).map { _ in
                [Act.ok, .fail, .crash].randomElement(using: &random)!
            }
        }
    }

    static func random(using random: inout SeededRandomNumberGenerator) -> Scenario {
        let steps = (0..<Int.random(in: 0...7, using: &random)).map { index in
            Step(id: "s\(index)", version: randomVersion(using: &random), script: randomScript(using: &random))
        }
        let freshInstall: UpgradePolicy.FreshInstall =
            switch Int.random(in: 0..<3, using: &random) {
            case 0: .skip
            case 1: .runAll
            default: .upgradeFrom(randomVersion(using: &random))
            }
        let policy = UpgradePolicy(
            freshInstall: freshInstall, downgrade: Bool.random(using: &random) ? .keep : .rewind,
            giveUpAfter: [nil, 1, 2, 3].randomElement(using: &random)!)
        var launches: [Launch] = []
        for _ in 0..<Int.random(in: 1...10, using: &random) {
            let version =
                if let last = launches.last, Int.random(in: 0..<4, using: &random) == 0 {
                    last.version
                } else {
                    randomVersion(using: &random)
                }
            let death = Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 1...5, using: &random) : nil
            launches.append(Launch(version: version, deathAtWrite: death))
        }
        return Scenario(steps: steps, policy: policy, launches: launches)
    }

    var description: String {
        let steps = steps.map { "\($0.id)@\($0.version) \($0.script)" }.joined(separator: ", ")
        let launches = launches.map { "\($0.version)\($0.deathAtWrite.map { " (dies at write \($0))" } ?? "")" }
        return "policy: \(policy)\nsteps: \(steps)\nlaunches: \(launches.joined(separator: ", "))"
    }
}

/// Replays a scenario launch by launch and checks each against a model of what must hold.
///
/// The model is built only from what was observed (fresh-install baselines, and the steps the events
/// say finished or were abandoned), never by running the launch rules a second time.
final class Checker {
    let scenario: Scenario
    let coverage: Locked<[String: Int]>
    private(set) var violations: [String] = []

    /// Steps counted as done: finished, abandoned, or at or below a fresh-install baseline.
    private var done: Set<String> = []
    /// Failed or crashed attempts since each step last finished (the attempt numbers of rule 4).
    private var attempts: [String: Int] = [:]
    /// Steps whose last attempt ended with the process dying.
    private var crashedLast: Set<String> = []
    /// Steps that finished and were not since forgotten by a rewinding downgrade.
    private var finished: Set<String> = []

    init(scenario: Scenario, coverage: Locked<[String: Int]>) {
        self.scenario = scenario
        self.coverage = coverage
    }

    private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { violations.append(message()) }
    }

    func replay() async {
        let journal = Journal()
        let events = EventLog()
        let store = RecordingStore()
        for (number, launch) in scenario.launches.enumerated() {
            // Each launch is a new process: a new upgrader over what the store kept.
            store.revive()
            if let write = launch.deathAtWrite { store.die(atWrite: write) }
            journal.reset()
            events.reset()
            let upgrader = makeUpgrader(
                store: store, policy: scenario.policy, events: events,
                steps: scenario.steps.map { journal.step($0.version, id: $0.id, store: store, script: $0.script) })
            // Run order, worked out here: ascending version, registration order within a version.
            let byID = Dictionary(uniqueKeysWithValues: upgrader.steps.map { ($0.id, $0) })
            let order = scenario.steps.indices.sorted {
                let (a, b) = (scenario.steps[$0], scenario.steps[$1])
                return a.version != b.version ? a.version < b.version : $0 < $1
            }.map { byID[scenario.steps[$0].id]! }
            check(upgrader.steps.map(\.id) == order.map(\.id), "launch \(number): steps in the wrong run order")
            let before = store.state
            let plan = upgrader.plan(loaded: before, currentVersion: launch.version)
            let savesBefore = store.saves.count
            var report: UpgradeReport?
            do {
                report = try await upgrader.run(currentVersion: launch.version)
            } catch let fault as StoreFault {
                check(fault.afterDeath, "launch \(number): unexpected store fault \(fault)")
            } catch {
                check(false, "launch \(number): unexpected error \(error)")
            }
            coverage.increment("launch")
            if report == nil { coverage.increment(journal.entries.last?.act == .crash ? "crash" : "death") }
            verify(
                "launch \(number) at \(launch.version)", current: launch.version, order: order, before: before,
                plan: plan, report: report, journal: journal.entries, events: events.events, store: store,
                quiet: store.saves.count == savesBefore)
            if !violations.isEmpty { return }
        }
    }

    // The checks of one launch, in the order of the launch's rules.
    // swift-format-ignore: FunctionBodyLength
    private func verify(
        _ context: String, current: Version, order: [UpgradeStep], before: UpgradeState?, plan: UpgradePlan,
        report: UpgradeReport?, journal: [Journal.Entry], events: [UpgradeEvent], store: RecordingStore, quiet: Bool
    ) {
        let policy = scenario.policy
        // The model as the launch found it, and as of its last write that went through: a write
        // carries every change since the one before (merged writes), so a process that dies at a
        // write loses what the launch decided since its last write, and no more.
        let initial = (done, finished, attempts, crashedLast)
        var committed = initial
        // The plan made over the same state says what the launch does.
        let planned = Dictionary(uniqueKeysWithValues: plan.entries.map { ($0.step.id, $0.disposition) })
        let versionOf = Dictionary(uniqueKeysWithValues: order.map { ($0.id, $0.version) })
        let aborted = report == nil
        let state = store.state
        if let report { coverage.increment("\(report.outcome)") }

        // No step above the running version runs.
        for entry in journal where versionOf[entry.id]! > current {
            check(false, "\(context): \(entry.id) at \(versionOf[entry.id]!) ran above the running version")
        }

        // Rules 0 and 1: where the launch starts from.
        var mark: Version?
        if let before {
            mark = before.upgradedThrough
            if let died = before.inProgress {
                check(
                    attempts[died.id, default: 0] == died.attempt && crashedLast.contains(died.id),
                    "\(context): stored inProgress \(died) does not match the death seen before")
            }
        } else {
            check(done.isEmpty && attempts.isEmpty, "\(context): the model has progress but the store has none")
            switch policy.freshInstall {
            case .skip:
                check(journal.isEmpty, "\(context): a fresh install under skip ran \(journal.map(\.id))")
                if aborted {
                    check(state == nil, "\(context): a fresh install that died stored a state")
                    return
                }
                check(report?.outcome == .freshInstall, "\(context): fresh install under skip ended \(report!.outcome)")
                check(plan.expectedOutcome == .freshInstall, "\(context): the plan expected \(plan.expectedOutcome)")
                check(state?.upgradedThrough == current, "\(context): skip did not record C as the mark")
                check(state?.lastLaunched == current, "\(context): skip did not record C as lastLaunched")
                for step in order where step.version <= current { done.insert(step.id) }
                checkStore(context, order: order, state: state)
                return
            case .runAll:
                mark = nil
            case .upgradeFrom(let baseline):
                mark = baseline
                for step in order where step.version <= baseline { done.insert(step.id) }
            }
        }

        // Rule 2: a downgrade runs nothing.
        if let mark, current < mark {
            check(journal.isEmpty && events.allSatisfy(Self.isLaunchEvent), "\(context): a downgrade ran steps")
            if aborted {
                check(state == before, "\(context): a downgrade that died changed the state")
                if state == nil { done = [] }
                return
            }
            check(report?.outcome == .downgraded, "\(context): below the mark \(mark) but ended \(report!.outcome)")
            check(plan.expectedOutcome == .downgraded, "\(context): the plan expected \(plan.expectedOutcome)")
            if policy.downgrade == .rewind {
                coverage.increment("rewind")
                for step in order where step.version > current {
                    done.remove(step.id)
                    finished.remove(step.id)
                    attempts[step.id] = nil
                }
                check(state?.upgradedThrough == current, "\(context): rewind did not lower the mark to C")
            } else {
                check(state?.upgradedThrough == mark, "\(context): keep moved the mark on a downgrade")
            }
            check(state?.lastLaunched == current, "\(context): lastLaunched is not C after a downgrade")
            if before?.lastLaunched == current && before?.inProgress == nil && before?.upgradedThrough == mark
                && policy.downgrade == .keep
            {
                coverage.increment("quiet")
                check(quiet, "\(context): a downgrade that changed nothing wrote")
            }
            checkStore(context, order: order, state: state)
            return
        }

        // Rule 3: the pending steps, in run order.
        let pending = order.filter { $0.version <= current && !done.contains($0.id) }.map(\.id)
        let plannedPending = plan.entries.filter {
            switch $0.disposition {
            case .willRun, .willAbandon: true
            default: false
            }
        }
        check(plannedPending.map(\.step.id) == pending, "\(context): the plan's pending steps differ")

        // Rule 4, as the events and the actions' journal show it.
        var handled: [String] = []
        var starts = journal.makeIterator()
        var running: (id: String, attempt: Int, act: Act)?
        var stopped = false
        var abandonAfterFailure: String?
        for event in events {
            switch event {
            case .stepWillStart(let stepContext):
                // The write before it went through: it holds everything decided so far.
                committed = (done, finished, attempts, crashedLast)
                let id = stepContext.stepID
                check(!stopped, "\(context): \(id) started after the launch should have stopped")
                handled.append(id)
                guard let entry = starts.next(), entry.id == id, entry.attempt == stepContext.attempt else {
                    check(false, "\(context): the journal does not match the start of \(id)")
                    return
                }
                running = (id, stepContext.attempt, entry.act)
                check(
                    planned[id]
                        == .willRun(
                            attempt: stepContext.attempt,
                            previousAttemptInterrupted: stepContext.previousAttemptInterrupted),
                    "\(context): \(id) ran as the plan did not say")
                // A finished step never runs again (until a rewind forgets it).
                check(!finished.contains(id), "\(context): \(id) ran again after it had finished")
                // Attempt numbers count failed and crashed attempts since the step last finished.
                check(
                    stepContext.attempt == attempts[id, default: 0] + 1,
                    "\(context): \(id) ran as attempt \(stepContext.attempt), expected \(attempts[id, default: 0] + 1)")
                if let limit = policy.giveUpAfter {
                    check(attempts[id, default: 0] < limit, "\(context): \(id) ran after reaching giveUpAfter")
                }
                if before?.inProgress?.id == id {
                    coverage.increment("interrupted")
                    check(stepContext.previousAttemptInterrupted, "\(context): \(id) not told it was interrupted")
                }
                if stepContext.previousAttemptInterrupted {
                    check(crashedLast.contains(id), "\(context): \(id) told of an interruption that did not happen")
                }
                // inProgress was stored before the step ran; every earlier step's end was stored.
                check(
                    entry.stored?.inProgress
                        == StepInProgress(id: id, version: versionOf[id]!, attempt: stepContext.attempt),
                    "\(context): \(id) ran before its inProgress was stored")
                check(entry.stored?.lastLaunched == current, "\(context): the inProgress write lacks lastLaunched = C")
                check(
                    entry.stored?.doneIDs(of: order) == done,
                    "\(context): when \(id) started the store's done steps were not the finished ones")
                // Steps finish in run order: everything before it is done.
                for step in order.prefix(while: { $0.id != id }) {
                    check(done.contains(step.id), "\(context): \(id) ran before \(step.id) was done")
                }
            case .stepFinished(let stepContext, _):
                let id = stepContext.stepID
                check(running?.id == id && running?.act == .ok, "\(context): \(id) finished but did not succeed")
                done.insert(id)
                finished.insert(id)
                attempts[id] = nil
                crashedLast.remove(id)
            case .stepFailed(let stepContext, _, _, let willRetry):
                let id = stepContext.stepID
                check(running?.id == id && running?.act != .ok, "\(context): \(id) failed but did not fail")
                attempts[id, default: 0] += 1
                crashedLast.remove(id)
                let limitReached = policy.giveUpAfter.map { attempts[id]! >= $0 } ?? false
                check(willRetry == !limitReached, "\(context): \(id) failed with willRetry \(willRetry)")
                if limitReached {
                    abandonAfterFailure = id
                } else {
                    stopped = true
                }
            case .stepAbandoned(let id, _, let failed):
                check(!stopped, "\(context): \(id) abandoned after the launch should have stopped")
                check(failed == attempts[id, default: 0], "\(context): \(id) abandoned after \(failed) attempts")
                check(
                    policy.giveUpAfter.map { attempts[id, default: 0] >= $0 } == true,
                    "\(context): \(id) abandoned before reaching giveUpAfter")
                if abandonAfterFailure == id {
                    coverage.increment("abandonedAfterFailure")
                    abandonAfterFailure = nil
                } else {
                    coverage.increment("abandonedUnrun")
                    handled.append(id)
                    check(
                        planned[id] == .willAbandon(failedAttempts: failed),
                        "\(context): the plan did not abandon \(id)")
                }
                done.insert(id)
                attempts[id] = nil
            default:
                continue
            }
        }
        check(starts.next() == nil, "\(context): an action ran without a stepWillStart event")

        // The handled steps are the pending ones, in run order; all of them unless the launch stopped.
        check(Array(pending.prefix(handled.count)) == handled, "\(context): handled \(handled), pending \(pending)")
        if aborted {
            // The process died: what the launch decided after its last write that went through is lost.
            if let running {
                // That write announced the step that started last: the stored inProgress is its attempt,
                // to be seen at the next launch.
                (done, finished, attempts, crashedLast) = committed
                check(
                    state?.inProgress?.id == running.id && state?.inProgress?.attempt == running.attempt,
                    "\(context): the stored inProgress \(String(describing: state?.inProgress)) is not the step"
                        + " that started last")
                attempts[running.id] = running.attempt
                crashedLast.insert(running.id)
            } else {
                // It died at its first write: the state is as the launch found it.
                (done, finished, attempts, crashedLast) = initial
                check(state == before, "\(context): a launch that died at its first write changed the state")
            }
            if let state { check(state.upgradedThrough == mark, "\(context): the mark moved in a launch that died") }
            if state == nil { done = [] }
        } else if let report {
            check(abandonAfterFailure == nil, "\(context): \(abandonAfterFailure!) reached giveUpAfter, not abandoned")
            check(state?.inProgress == nil, "\(context): inProgress left after a launch that ended")
            check(state?.lastLaunched == current, "\(context): lastLaunched is not C")
            check(report.ranStepIDs == journal.map(\.id), "\(context): the report's ran steps differ from the actions")
            switch report.outcome {
            case .upgraded, .upToDate:
                check(handled == pending, "\(context): ended \(report.outcome) with \(handled) handled of \(pending)")
                check(
                    report.outcome == (handled.isEmpty ? .upToDate : .upgraded),
                    "\(context): outcome \(report.outcome) with \(handled.count) steps handled")
                check(state?.upgradedThrough == current, "\(context): the mark is not C after \(report.outcome)")
                check(plan.expectedOutcome == report.outcome, "\(context): the plan expected \(plan.expectedOutcome)")
                // Every step at or below C finished, was abandoned, or lies at or below a baseline.
                for step in order where step.version <= current {
                    check(done.contains(step.id), "\(context): \(step.id) <= C is neither finished nor abandoned")
                }
                check(
                    state?.completed.allSatisfy { $0.version > current } == true
                        && state?.abandoned.allSatisfy { $0.version > current } == true,
                    "\(context): entries at or below C were kept")
                // A launch that changes nothing writes nothing.
                if before?.lastLaunched == current && before?.inProgress == nil && before?.upgradedThrough == current {
                    coverage.increment("quiet")
                    check(quiet, "\(context): a launch that changed nothing wrote")
                }
            case .failed:
                check(stopped && journal.last?.act == .fail, "\(context): ended failed without a failing step")
                check(state?.upgradedThrough == mark, "\(context): the mark moved in a launch that failed")
            default:
                check(false, "\(context): unexpected outcome \(report.outcome)")
            }
        }
        // The mark never goes down under keep.
        if policy.downgrade == .keep, let old = before?.upgradedThrough {
            check(state?.upgradedThrough.map { $0 >= old } == true, "\(context): the mark went down under keep")
        }
        checkStore(context, order: order, state: state)
    }

    /// The store agrees with the model: the same steps done, the same attempt counts.
    private func checkStore(_ context: String, order: [UpgradeStep], state: UpgradeState?) {
        guard let state else {
            check(done.isEmpty && attempts.isEmpty, "\(context): no state stored, but the model has progress")
            return
        }
        let storedDone = state.doneIDs(of: order)
        check(storedDone == done, "\(context): stored done \(storedDone.sorted()), model \(done.sorted())")
        var stored = Dictionary(uniqueKeysWithValues: state.attempts.map { ($0.id, $0.failed) })
        if let died = state.inProgress { stored[died.id] = died.attempt }
        check(stored == attempts, "\(context): stored attempts \(stored), model \(attempts)")
    }

    private static func isLaunchEvent(_ event: UpgradeEvent) -> Bool {
        switch event {
        case .launchWillStart, .launchFinished, .launchAborted: true
        default: false
        }
    }
}
