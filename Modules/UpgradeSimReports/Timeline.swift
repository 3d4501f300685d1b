import UpgradeCore
import UpgradeFixtures
import UpgradeReplay
import VersionKit

/// One history drawn as a grid: the launches left to right, the steps of every build top to bottom in
/// run order, and in each cell what happened to that step in that launch. The HTML report draws it;
/// the cells are derived from the observations alone, so a replay in memory, one in processes and an
/// exploration's shortest history are drawn alike.
struct Timeline: Sendable, Hashable {
    /// A row: a step, or the floor.
    struct Row: Sendable, Hashable {
        /// The step's id.
        var id: String
        /// The step's version (for the floor, the version F it stands in for).
        var version: Version
        /// Whether the row is the fixture's floor.
        var isFloor: Bool
        /// The builds that contain it, such as `every build` or `since 2.0`.
        var builds: String
    }

    /// What happened to one step in one launch.
    enum Cell: Sendable, Hashable {
        /// Its action ran and returned, at this attempt.
        case finished(attempt: Int)
        /// Its action failed at this attempt, and the launch stopped there.
        case failed(attempt: Int)
        /// The process died inside its action, at this attempt.
        case crashed(attempt: Int)
        /// The background time expired while its action ran, at this attempt, and the process was
        /// then killed: an interruption, which counts as no attempt.
        case expired(attempt: Int)
        /// It was given up on: after failing at this attempt, or without running (`nil`) because its
        /// attempts had reached the limit.
        case abandoned(attempt: Int?)
        /// It was pending, but the launch stopped before it.
        case notReached
        /// Not pending: done already, or at or below the mark.
        case done
        /// Not pending: its version is above the running one.
        case above
        /// The build of this launch does not contain it.
        case notInBuild
    }

    /// A launch.
    struct Column: Sendable, Hashable {
        /// The launch's app version.
        var version: Version
        /// How it ended.
        var outcome: SimulatedOutcome
        /// Whether no state was stored before it.
        var isFreshInstall: Bool
        /// Whether it ran below the mark.
        var isDowngrade: Bool
        /// The mark before the launch (for a fresh install: the baseline its policy starts from).
        var markBefore: Version?
        /// The mark after the launch.
        var markAfter: Version?
        /// Where it differs from its expectation, key by key.
        var mismatches: [Difference]
        /// What the report points out at this launch (an exploration's broken guarantee or finding).
        var note: Note? = nil
        /// The device's condition at this launch (`locked`, or an expiry), if any.
        var condition: LaunchCondition? = nil
        /// Why a `deferred` launch decided nothing, in words, when known.
        var deferral: String? = nil
    }

    /// Something the report points out at one launch.
    struct Note: Sendable, Hashable {
        /// The text, such as `BROKEN finishedNeverRunsAgain: ...`.
        var text: String
        /// Whether it is a failure (drawn in red) rather than an allowed finding (drawn in amber).
        var isFailure: Bool
    }

    /// One key on which a launch differs from what its fixture expects.
    struct Difference: Sendable, Hashable {
        /// The key.
        var key: Mismatch.Key
        /// The expected value, as JSON.
        var expected: String
        /// The observed value, as JSON.
        var got: String
    }

    /// The history's title.
    var title: String
    /// The rows, in run order: by version, the floor before steps of its version, then declaration order.
    var rows: [Row]
    /// The launches, in order.
    var columns: [Column]
    /// `cells[row][column]`.
    var cells: [[Cell]]
    /// Ids expected to run but not started, per column, for a launch whose `ran` differs.
    var expectedNotRun: [Set<String>]
    /// Ids started but not expected, per column, for a launch whose `ran` differs.
    var runNotExpected: [Set<String>]
    /// The expected mark, per column, when it differs from the observed one.
    var expectedMark: [Version??]
    /// The id of the step the report is about (an exploration's late or lost step), drawn marked.
    var focus: String? = nil

    /// Whether any launch differs from its expectation.
    var failed: Bool { columns.contains { !$0.mismatches.isEmpty || $0.note?.isFailure == true } }
}
