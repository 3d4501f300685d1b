import Foundation
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// A helper for the storage tests that need real processes: it writes, holds locks and dies.
///
/// - `store-torture write STATE FIRST`: takes the lock, prints `locked`, then saves
///   ``TortureStates/state(_:)`` number FIRST, FIRST+1, ... until it is killed.
/// - `store-torture hold STATE LOG ID HOLD TIMEOUT_MS ROUNDS`: ROUNDS times, takes the lock
///   (waiting up to TIMEOUT_MS), prints `locked ID`, appends `enter ID` to LOG, holds the lock,
///   appends `exit ID`, and gives the lock up. HOLD is a number of milliseconds, or `until-input`:
///   hold until a line or the end of standard input, so that a test decides when the lock is given
///   up (or kills the holder) instead of racing a duration. Busy: prints `busy ERROR` and exits 3.
/// - `store-torture launch STATE VERSION`: runs an upgrader (fresh install as if from 1.0) with the
///   steps `a` (1.1) and `b` (1.2) at VERSION, waiting up to 30 s for the lock, and prints
///   `OUTCOME RAN` (the ids run, comma-separated).
/// - `store-torture expire-launch STATE`: runs an upgrader (fresh install as if from 1.0) at 1.1
///   whose step `a` (1.1) interrupts its own launch (`interruptLaunch()`, as an expiry handler does),
///   prints `expired`, and then waits for standard input, as a suspended app does, to be killed.
/// - `store-torture crash-launch STATE`: runs an upgrader (fresh install as if from 1.0) at 1.1 whose
///   step `appUpgradeTo_1_1` kills the process with SIGKILL.
@main
enum StoreTorture {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case "write" where arguments.count == 3:
                try await writeSeries(store: arguments[1], first: Int(arguments[2])!)
            case "hold" where arguments.count == 7:
                try await hold(
                    store: arguments[1], log: arguments[2], id: arguments[3],
                    holdMilliseconds: arguments[4] == "until-input" ? nil : Int(arguments[4])!,
                    timeoutMilliseconds: Int(arguments[5])!, rounds: Int(arguments[6])!)
            case "launch" where arguments.count == 3:
                try await launch(store: arguments[1], version: arguments[2])
            case "expire-launch" where arguments.count == 2:
                try await expireLaunch(store: arguments[1])
            case "crash-launch" where arguments.count == 2:
                try await crashLaunch(store: arguments[1])
            default:
                print(line: "usage: store-torture write|hold|crash-launch ...", to: 2)
                exit(2)
            }
        } catch let error as UpgradeStoreError where error.code == .busy {
            print(line: "busy \(error)", to: 1)
            exit(3)
        } catch {
            print(line: "error \(error)", to: 2)
            exit(1)
        }
    }

    static func writeSeries(store path: String, first: Int) async throws {
        let store = FileUpgradeStore(url: URL(fileURLWithPath: path), lockTimeout: .seconds(30))
        let lock = try await store.lockForLaunch()
        defer { lock.unlock() }
        print(line: "locked", to: 1)
        for number in first..<(first + 1_000_000) {
            try store.save(TortureStates.state(number))
        }
    }

    static func hold(
        store path: String, log: String, id: String, holdMilliseconds: Int?, timeoutMilliseconds: Int, rounds: Int
    ) async throws {
        let store = FileUpgradeStore(url: URL(fileURLWithPath: path), lockTimeout: .milliseconds(timeoutMilliseconds))
        for _ in 0..<rounds {
            let lock = try await store.lockForLaunch()
            print(line: "locked \(id)", to: 1)
            append("enter \(id)\n", to: log)
            if let holdMilliseconds {
                usleep(useconds_t(holdMilliseconds * 1000))
            } else {
                waitForInput()
            }
            append("exit \(id)\n", to: log)
            lock.unlock()
        }
    }

    static func launch(store path: String, version: String) async throws {
        let store = FileUpgradeStore(url: URL(fileURLWithPath: path), lockTimeout: .seconds(30))
        let upgrader = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0"))) {
            UpgradeStep("1.1", id: "a") {}
            UpgradeStep("1.2", id: "b") {}
        }
        let report = try await upgrader.run(currentVersion: try Version(parsing: version))
        print(line: "\(report.outcome) \(report.ranStepIDs.joined(separator: ","))", to: 1)
    }

    static func expireLaunch(store path: String) async throws {
        let store = FileUpgradeStore(url: URL(fileURLWithPath: path))
        let upgrader = Locked<Upgrader?>(nil)
        upgrader.value = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0"))) {
            UpgradeStep("1.1", id: "a") {
                upgrader.value?.interruptLaunch()
                print(line: "expired", to: 1)
                waitForInput()
            }
        }
        _ = try await upgrader.value!.run(currentVersion: "1.1")
        print(line: "the launch was not killed", to: 2)
        exit(1)
    }

    static func crashLaunch(store path: String) async throws {
        let store = FileUpgradeStore(url: URL(fileURLWithPath: path))
        let upgrader = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0"))) {
            UpgradeStep("1.1") { () async throws -> Void in
                kill(getpid(), SIGKILL)
            }
        }
        _ = try await upgrader.run(currentVersion: "1.1")
        print(line: "the step did not kill the process", to: 2)
        exit(1)
    }

    /// Blocks until a line or the end of standard input (this process does nothing else meanwhile).
    static func waitForInput() {
        var byte: UInt8 = 0
        while true {
            let count = read(0, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { return }
        }
    }

    /// Appends a line to the shared log in one `write` call.
    static func append(_ text: String, to log: String) {
        let descriptor = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, mode_t(0o600))
        precondition(descriptor >= 0, "cannot open \(log)")
        _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// Writes a line to standard output (1) or standard error (2) at once, unbuffered.
    static func print(line: String, to descriptor: Int32) {
        _ = Array((line + "\n").utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
