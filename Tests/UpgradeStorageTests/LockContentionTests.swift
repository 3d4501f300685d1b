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

    /// Real processes contending for the file store's lock.
    @Suite("Lock contention between processes", .serialized)
    struct LockContentionTests {
        @Test("launches in several processes are never inside at once; each waits its turn")
        func exclusiveAcrossProcesses() async throws {
            let directory = try TemporaryDirectory("contend")
            let state = directory.file("upgrade-state.json").path
            let log = directory.file("launches.log").path
            let ids = ["P1", "P2", "P3"]
            let rounds = 8
            let exits = try await offPool {
                let holders = try ids.map {
                    try TortureProcess(["hold", state, log, $0, "3", "30000", String(rounds)])
                }
                return holders.map { $0.wait() }
            }
            for exit in exits { #expect(exit.status == 0, "\(exit)") }
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

            let holder = try await offPool { () -> TortureProcess in
                let holder = try TortureProcess(["hold", url.path, log, "A", "1500", "1000", "1"])
                #expect(holder.readLine() == "locked A")
                return holder
            }
            let clock = ContinuousClock()
            let start = clock.now
            let second = try await TortureProcess.run(["hold", url.path, log, "B", "10", "250", "1"])
            #expect(start.duration(to: clock.now) >= .milliseconds(250))
            #expect(second.status == 3, "\(second)")
            #expect(
                second.output.hasPrefix("busy \(url.path): another launch (process \(holder.pid)) holds"), "\(second)")
            #expect(second.output.contains("gave up after waiting 0.25 seconds"), "\(second)")

            // This process, too, is kept out, and then waits its turn.
            await #expect(throws: UpgradeStoreError.self) {
                _ = try await FileUpgradeStore(url: url, lockTimeout: .milliseconds(50)).lockForLaunch()
            }
            let lock = try await FileUpgradeStore(url: url, lockTimeout: .seconds(20)).lockForLaunch()
            lock.unlock()
            let first = try await offPool { holder.wait() }
            #expect(first.status == 0, "\(first)")
            #expect(try String(contentsOfFile: log, encoding: .utf8) == "enter A\nexit A\n")
            #expect(try Data(contentsOf: url) == before)
        }

        @Test("the lock of a killed process is given up at once")
        func killedHolder() async throws {
            let directory = try TemporaryDirectory("killed")
            let url = directory.file("upgrade-state.json")
            let log = directory.file("launches.log").path
            let exit = try await offPool {
                let holder = try TortureProcess(["hold", url.path, log, "A", "60000", "1000", "1"])
                #expect(holder.readLine() == "locked A")
                holder.send(SIGKILL)
                return holder.wait()
            }
            #expect(exit.signal == SIGKILL)
            let lock = try await FileUpgradeStore(url: url, lockTimeout: .seconds(2)).lockForLaunch()
            lock.unlock()
        }
    }
#endif
