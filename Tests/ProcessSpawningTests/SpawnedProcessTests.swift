// Real processes: only where the package starts one.
#if os(macOS) || os(Linux)
    import Foundation
    import ProcessSpawning
    import Testing

    #if canImport(Darwin)
        import Darwin
    #elseif canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #endif

    @Suite("Spawned processes")
    struct SpawnedProcessTests {
        /// Runs `/bin/sh -c script` with `input` as its standard input and awaits its end.
        func shell(_ script: String, input: Int32? = nil) async throws -> ProcessEnding {
            try await SpawnedProcess("/bin/sh", arguments: ["-c", script], standardInput: input).ending()
        }

        @Test("a child inherits its standard streams and no other descriptor, even one left inheritable")
        func inheritsOnlyItsStreams() async throws {
            // A pipe made without close-on-exec, as Foundation's `Pipe` makes them: a child that kept it
            // would hold its write end open, and a reader of this process would never see its end.
            var ends: [Int32] = [-1, -1]
            try #require(pipe(&ends) == 0)
            defer { for end in ends { close(end) } }
            #expect(fcntl(ends[1], F_GETFD) & FD_CLOEXEC == 0)
            #expect(try await shell("[ -e /dev/fd/\(ends[1]) ]") == .exited(1))
            #expect(try await shell("[ -e /dev/fd/\(ends[0]) ]") == .exited(1))
            // The control: a descriptor it is given is there.
            #expect(try await shell("[ -e /dev/fd/0 ]", input: ends[0]) == .exited(0))
        }

        @Test("the descriptors made for children are close-on-exec")
        func descriptorsAreCloseOnExec() throws {
            let ends = try Descriptors.pipe()
            let file = try Descriptors.open("/dev/null", O_WRONLY)
            defer { for descriptor in [ends.read, ends.write, file] { close(descriptor) } }
            for descriptor in [ends.read, ends.write, file] {
                #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
            }
        }

        @Test("the ending says how the child ended: its exit status, or the signal that killed it")
        func endings() async throws {
            #expect(try await shell("exit 0") == .exited(0))
            #expect(try await shell("exit 7") == .exited(7))
            #expect(try await shell("kill -TERM $$") == .killed(SIGTERM))
        }

        @Test("a child killed while it waits ends killed; a signal after its end reaches nothing")
        func killAndAfter() async throws {
            let input = try Descriptors.pipe()
            defer { close(input.write) }
            let child = try SpawnedProcess("/bin/sh", arguments: ["-c", "read line"], standardInput: input.read)
            close(input.read)
            child.send(SIGKILL)
            #expect(await child.ending() == .killed(SIGKILL))
            #expect(child.hasEnded)
            child.send(SIGKILL)
            #expect(await child.ending() == .killed(SIGKILL))
        }

        @Test("run reads what the child prints to its end")
        func runReadsOutput() throws {
            // A tool's call, on the thread that runs this synchronous test.
            let (ending, output) = try SpawnedProcess.run(
                "/bin/sh", arguments: ["-c", "printf \"$GREETING\""], environment: ["GREETING": "hello"])
            #expect(ending == .exited(0))
            #expect(String(decoding: output, as: UTF8.self) == "hello")
        }

        @Test("a missing program or folder is an error that names it")
        func missing() throws {
            #expect(throws: SpawnError.self) { try SpawnedProcess("/no/such/program", arguments: []) }
            let error = try #require(
                throws: SpawnError.self,
                performing: { try SpawnedProcess("/bin/sh", arguments: ["-c", "true"], currentDirectory: "/no/such") })
            #expect(error.description.contains("/no/such"), "\(error)")
        }
    }
#endif
