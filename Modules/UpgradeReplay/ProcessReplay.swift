import Foundation
import ProcessSpawning
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Replays a history with one real process per launch: `upgrade-sim launch` against a state file in
/// a temporary folder (removed afterwards). A child killed by `SIGKILL` is a crashed launch; what it
/// ran comes from its trace file and the mark from the state file it left.
struct ProcessReplay {
    let executable: URL
    /// What the launches' file stores' writes survive.
    var durability: FileUpgradeStore.Durability = .powerLoss
}

#if os(macOS) || os(Linux)
    extension ProcessReplay {
        /// How a child process ended.
        typealias Ending = ProcessEnding

        func replay(_ history: FixtureHistory, of fixture: Fixture) async throws -> [LaunchObservation] {
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("upgrade-sim-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }

            let fixtureFile: URL
            if let file = fixture.file {
                fixtureFile = URL(fileURLWithPath: file)
            } else {
                fixtureFile = folder.appendingPathComponent("fixture.json")
                try Data(fixture.jsonText.utf8).write(to: fixtureFile)
            }
            let stateFile = folder.appendingPathComponent("state.json")
            // With a legacy key: whether a state is stored, so that a killed launch that wrote one has
            // adopted the legacy version (`launch` says so itself when it lives to print).
            var stored = false
            var observations: [LaunchObservation] = []
            for (index, version) in history.launches.enumerated() {
                let place = "\(fixture.name) / \(history.name) / launch \(index + 1) (\(version))"
                let trace = folder.appendingPathComponent("trace-\(index + 1).tsv")
                let output = folder.appendingPathComponent("stdout-\(index + 1).txt")
                let errors = folder.appendingPathComponent("stderr-\(index + 1).txt")
                let ended = try await Self.runChild(
                    executable,
                    arguments: [
                        "launch", "--fixture", fixtureFile.path, "--store", stateFile.path, "--version",
                        version.description, "--trace", trace.path, "--durability", durability.description,
                    ] + (history.followers.contains(index) ? ["--follower"] : [])
                        + Self.arguments(for: history.conditions[index])
                        + (history.legacyVersion.map { ["--legacy-version", $0.description] } ?? []),
                    standardOutput: output, standardError: errors)
                let printed = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                let traced = try Trace(contentsOf: trace)
                switch ended {
                case .exited(0):
                    var observation: LaunchObservation
                    do {
                        observation = try LaunchObservation(
                            jsonText: printed.trimmingCharacters(in: .whitespacesAndNewlines))
                    } catch {
                        throw SimulationError("\(place): \(error)")
                    }
                    observation.finished = traced.finished
                    guard observation.ran == traced.ran, observation.abandoned == traced.abandoned else {
                        throw SimulationError(
                            "\(place): the launch printed ran \(observation.ran), abandoned \(observation.abandoned)"
                                + " but its steps traced ran \(traced.ran), abandoned \(traced.abandoned)")
                    }
                    observations.append(observation)
                case .killed(SIGKILL):
                    guard printed.isEmpty else {
                        throw SimulationError("\(place): the launch crashed but printed \(printed)")
                    }
                    let left = try FileUpgradeStore(url: stateFile).load()
                    // Killed after its background time expired in a step (an `expire` launch), or by a
                    // scripted crash.
                    observations.append(
                        LaunchObservation(
                            outcome: traced.expired ? .cancelled : .crashed, ran: traced.ran,
                            abandoned: traced.abandoned, upgradedThrough: left?.upgradedThrough,
                            finished: traced.finished,
                            adoptedFrom: !stored && left != nil ? history.legacyVersion : nil))
                default:
                    let message = ((try? String(contentsOf: errors, encoding: .utf8)) ?? "")
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                    throw SimulationError(
                        "\(place): `\(executable.lastPathComponent) launch` \(ended)"
                            + (message.isEmpty ? "" : ": \(message)"))
                }
                if history.legacyVersion != nil, !stored {
                    stored = (try? FileUpgradeStore(url: stateFile).load()) != nil
                }
            }
            return observations
        }

        /// The `launch` arguments of a launch's condition: `--locked`, or `--expire ID`.
        static func arguments(for condition: LaunchCondition?) -> [String] {
            switch condition {
            case .locked?: ["--locked"]
            case .expire(let id)?: ["--expire", id]
            case nil: []
            }
        }

        /// Runs a child with its output going to files, and waits for it without blocking a thread.
        ///
        /// The child inherits its standard streams and no other descriptor of this process
        /// (`SpawnedProcess`); it is reaped by a thread of its own.
        static func runChild(
            _ executable: URL, arguments: [String], standardOutput: URL, standardError: URL,
            currentDirectory: URL? = nil
        ) async throws -> Ending {
            let child: SpawnedProcess
            do {
                let output = try Descriptors.open(standardOutput.path, O_WRONLY | O_CREAT | O_TRUNC)
                defer { close(output) }
                let errors = try Descriptors.open(standardError.path, O_WRONLY | O_CREAT | O_TRUNC)
                defer { close(errors) }
                child = try SpawnedProcess(
                    executable.path, arguments: arguments, currentDirectory: currentDirectory?.path,
                    standardOutput: output, standardError: errors)
            } catch {
                throw SimulationError("cannot start \(executable.path): \(error)")
            }
            return await child.ending()
        }
    }
#else
    extension ProcessReplay {
        func replay(_ history: FixtureHistory, of fixture: Fixture) async throws -> [LaunchObservation] {
            throw SimulationError("replaying with one process per launch needs macOS or Linux")
        }
    }
#endif

/// The lines a launch's steps appended to its trace file (see ``CrashMode/realProcess(journal:trace:)``).
struct Trace {
    var ran: [String] = []
    var finished: [String] = []
    var abandoned: [String] = []
    /// Whether the launch's background time expired in a step (the `expired` line), before the process
    /// was killed.
    var expired = false

    init(contentsOf url: URL) throws(SimulationError) {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { throw SimulationError("malformed trace line in \(url.path): \(line)") }
            let id = String(fields[2])
            switch fields[0] {
            case "ran": ran.append(id)
            case "finished": finished.append(id)
            case "abandoned": abandoned.append(id)
            case "expired": expired = true
            default: throw SimulationError("malformed trace line in \(url.path): \(line)")
            }
        }
    }
}
