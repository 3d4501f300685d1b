import Foundation

/// `upgrade-fuzz`: coverage-guided fuzzing of the package's input readers, and the replay of a
/// corpus through the same checks.
@main
enum UpgradeFuzz {
    static let usage = """
        OVERVIEW: Fuzz the package's input readers, or replay a corpus through the same checks.

        Each target feeds an input to one reader and checks its properties: it never traps, it
        rejects bad input with its own error type and a message that says where, and what it accepts
        reads back the same (see each target below). When fuzzing, a failed property stops the
        process with a message naming it, and libFuzzer saves the input; when replaying, it is
        reported with the file's name.

        USAGE: upgrade-fuzz TARGET [--replay] [CORPUS...] [libFuzzer flags]

        TARGETS:
          version          Version(parsing:) and Version(stepName:) over the input as text: what they
                           accept prints (description, stepName) and reads back to an equal version
                           with the same number of components; the throwing and optional readers
                           agree; step names read as their numbers do; order and equality are
                           consistent with a few fixed versions.
          state-document   UpgradeStorage's StateDocument.decode over the input: it accepts, or
                           rejects with an UpgradeStoreError (.corrupt or .unsupportedFormat) that
                           names the location; a state it reads writes, reads back to the same state
                           and writes the same bytes again; the records of a format-1 document's
                           history, and the input read as one history line, write as one line that
                           reads back to the same line.
          fixture          FixtureLoader.decode over the input: it throws only FixtureError, naming
                           the file and the place (line and column, or the JSON path); a fixture it
                           accepts writes (jsonText) and reads back to an equal fixture.
          installed-base   InstalledBase.parse over the input (upgrade-sim fleet's CSV): it throws only
                           InstalledBaseError, naming the file and the line; an installed base it
                           accepts ascends, adds up to more than 0, writes its rows as CSV that read
                           back to the same rows, and fleet reports over it add up.

        MODES:
          In a build linked with libFuzzer (Scripts/fuzz.sh), the tool fuzzes: the CORPUS folders and
          the libFuzzer flags (such as -max_len=4096 -max_total_time=60 -jobs=1) go to libFuzzer, which
          writes new inputs to the first folder and a crash-* file for each failure (-artifact_prefix).
          Given files instead of folders, it runs them once; -minimize_crash=1 minimizes one. The
          processes libFuzzer starts itself (-jobs, -fork, -minimize_crash) get the target from the
          environment variable UPGRADE_FUZZ_TARGET, which the tool sets (set it yourself to start such
          a run without a target argument). Run with SWIFT_BACKTRACE=enable=no, so that libFuzzer, not
          the Swift runtime's backtracer, handles a trap.

          In a plain build (swift build), or with --replay, the tool replays: every file given, and
          every file under each folder given (hidden files skipped), is checked once; flags starting
          with "-" are ignored. It prints one line per failed file (the file and the property) and a
          summary.

        BUILD FOR FUZZING (what Scripts/fuzz.sh runs):
          swift build -c release --product upgrade-fuzz --scratch-path .build/fuzz \\
              -Xswiftc -sanitize=address \\
              -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \\
              -Xlinker /opt/swift/usr/lib/clang/21/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a \\
              -Xlinker -lstdc++ -Xlinker --undefined=LLVMFuzzerRunDriver \\
              -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver

          bash Scripts/fuzz.sh state-document 600     # fuzz one target for 600 seconds

        EXAMPLES:
          swift run upgrade-fuzz state-document Fuzz/corpus/state-document      # replay (CI)
          SWIFT_BACKTRACE=enable=no .build/fuzz/release/upgrade-fuzz version /tmp/version-corpus \\
              Fuzz/corpus/version -max_len=64 -max_total_time=180

        Exit status: 0 when every input passed (replay), 1 when one failed, 2 for bad arguments; in
        fuzzing, libFuzzer's own.
        """

    /// The environment variable that carries the target to the processes libFuzzer starts itself
    /// (`-jobs`, `-fork`, `-minimize_crash`), which get libFuzzer's arguments but not the target.
    static let targetVariable = "UPGRADE_FUZZ_TARGET"

    /// Reads the target and the arguments, then fuzzes (when libFuzzer is linked in) or replays.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains(where: { $0 == "-h" || $0 == "--help" || $0 == "help" }) {
            print(usage)
            exit(0)
        }
        let target: FuzzTarget
        if let first = arguments.first, let named = FuzzTarget(rawValue: first) {
            target = named
            arguments.removeFirst()
        } else if let inherited = ProcessInfo.processInfo.environment[targetVariable],
            let named = FuzzTarget(rawValue: inherited)
        {
            target = named
        } else {
            let given = arguments.first.map { "unknown target \"\($0)\"" } ?? "no target given"
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
            FileHandle.standardError.write(Data("upgrade-fuzz: \(given); the targets are \(names) (--help)\n".utf8))
            exit(2)
        }
        let replay = arguments.contains("--replay")
        arguments.removeAll { $0 == "--replay" }
        FuzzDriver.select(target)
        if !replay, let driver = FuzzDriver.libFuzzer() {
            setenv(targetVariable, target.rawValue, 1)
            exit(FuzzDriver.fuzz(driver, arguments: arguments))
        }
        exit(Replay.run(target, paths: arguments.filter { !$0.hasPrefix("-") }))
    }
}
