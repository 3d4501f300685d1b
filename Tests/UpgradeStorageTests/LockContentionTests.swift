// Real processes: only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import Testing
    import UpgradeCore
    import UpgradeStorage
    import UpgradeTestSupport

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #elseif canImport(Musl)
        import Musl
    #endif

    /// Real processes contending for the file store's lock. A holder that must still hold the lock when
    /// the test looks holds it `until-input`: the test decides when it gives the lock up, so no outcome
    /// depends on how fast a loaded machine runs the processes.
    @Suite("Lock contention between processes", .serialized)
    struct LockContentionTests {
        @Test("launches in several processes are never inside at once; each waits its turn")
        func exclusiveAcrossProcesses() async throws {
            let directory = try TemporaryDirectory("contend")
            let state = directory.file("upgrade-state.json").path
            let log = directory.file("launches.log").path
            let ids = ["P1", "P2", "P3"]
            let rounds = 8
            // Each waits as long as it takes (the timeout is only a guard: busy fails the test with its message).
            let holders = try ids.map {
                try TortureProcess.start(["hold", state, log, $0, "3", "300000", String(rounds)])
            }
            for holder in holders {
                let exit = try await holder.exit()
                #expect(exit.status == 0, "\(exit)")
            }
            let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
            #expect(lines.count == ids.count * rounds * 2)
            for index in stride(from: 0, to: lines.count - 1, by: 2) {
                let id = lines[index].dropFirst("enter ".count)
                #expect(lines[index].hasPrefix("enter "), "line \(index): \(lines[index])")
                #expect(lines[index + 1] == "exit \(id)", "lines \(index)-\(index + 1) interleave: \(lines)")
            }
        }

        @Test("a second process reports busy after its timeout, touching nothing; a patient one gets in after")
        func busyAfterTimeout() async throws {
            let directory = try TemporaryDirectory("busy")
            let url = directory.file("upgrade-state.json")
            let log = directory.file("launches.log").path
            try FileUpgradeStore(url: url).save(richState)
            let before = try Data(contentsOf: url)

            // A holds the lock until the test closes its standard input.
            let holder = try TortureProcess.start(["hold", url.path, log, "A", "until-input", "300000", "1"])
            #expect(try await holder.nextLine() == "locked A")
            let second = try await TortureProcess.run(["hold", url.path, log, "B", "10", "250", "1"])
            #expect(second.status == 3, "\(second)")
            #expect(
                second.output.hasPrefix("busy \(url.path): another launch (process \(holder.pid)) holds"), "\(second)")
            #expect(second.output.contains("gave up after waiting 0.25 seconds"), "\(second)")

            // This process, too, is kept out, and then waits its turn: it is waiting (or about to) when
            // A gives the lock up, and gets it then; its timeout is only a guard.
            await #expect(throws: UpgradeStoreError.self) {
                _ = try await FileUpgradeStore(url: url, lockTimeout: .milliseconds(50)).lockForLaunch()
            }
            let patient = Task {
                try await FileUpgradeStore(url: url, lockTimeout: ChildProcess.failureGuard).lockForLaunch()
            }
            holder.closeInput()
            let lock = try await patient.value
            lock.unlock()
            let first = try await holder.exit()
            #expect(first.status == 0, "\(first)")
            #expect(try String(contentsOfFile: log, encoding: .utf8) == "enter A\nexit A\n")
            #expect(try Data(contentsOf: url) == before)
        }

        @Test("the lock of a killed process is given up at once")
        func killedHolder() async throws {
            let directory = try TemporaryDirectory("killed")
            let url = directory.file("upgrade-state.json")
            let log = directory.file("launches.log").path
            // A would hold the lock for ever: only its death can give it up.
            let holder = try TortureProcess.start(["hold", url.path, log, "A", "until-input", "300000", "1"])
            #expect(try await holder.nextLine() == "locked A")
            holder.send(SIGKILL)
            let exit = try await holder.exit()
            #expect(exit.signal == SIGKILL, "\(exit)")
            // The kernel drops a dead process's locks as it ends (the first try succeeds); the timeout only
            // guards against a lock that is never given up.
            let lock = try await FileUpgradeStore(url: url, lockTimeout: ChildProcess.failureGuard).lockForLaunch()
            lock.unlock()
        }
    }
#endif
