#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs libFuzzer's driver over the selected target, when the build links libFuzzer.
///
/// The driver is looked up at run time, not linked against: a plain `swift build` (CI's) has no
/// libFuzzer and must still link this tool, which then replays instead (``Replay``). The fuzzing
/// build of Scripts/fuzz.sh links `libclang_rt.fuzzer_no_main` and exports `LLVMFuzzerRunDriver`.
enum FuzzDriver {
    /// libFuzzer's per-input callback: the input's bytes and their count; returns 0.
    typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    /// `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))`.
    typealias RunDriver =
        @convention(c) (
            UnsafeMutablePointer<CInt>, UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
            Callback
        ) -> CInt

    /// The target the callback checks; set once, before libFuzzer starts.
    nonisolated(unsafe) private static var target = FuzzTarget.version

    /// The argument vector given to libFuzzer.
    nonisolated(unsafe) private static var vector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    /// Chooses the target that ``fuzz(_:arguments:)`` checks.
    ///
    /// - Parameter target: The target.
    static func select(_ target: FuzzTarget) {
        Self.target = target
    }

    /// libFuzzer's driver, when the process has it; `nil` in a plain build.
    ///
    /// - Returns: The `LLVMFuzzerRunDriver` function, or `nil`.
    static func libFuzzer() -> RunDriver? {
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
            let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(everywhere, "LLVMFuzzerRunDriver") else { return nil }
        return unsafeBitCast(symbol, to: RunDriver.self)
    }

    /// Runs libFuzzer with the program's name and `arguments` (corpus folders or files, and
    /// libFuzzer's flags).
    ///
    /// - Parameters:
    ///   - driver: libFuzzer's driver.
    ///   - arguments: The arguments after the target.
    /// - Returns: libFuzzer's exit status.
    static func fuzz(_ driver: RunDriver, arguments: [String]) -> Int32 {
        let all = [CommandLine.arguments[0]] + arguments
        // libFuzzer keeps the argument vector for the life of the process; it stays reachable from
        // `vector`, so that the leak checker does not report it.
        let vector = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: all.count + 1)
        for (index, argument) in all.enumerated() { vector[index] = strdup(argument) }
        vector[all.count] = nil
        Self.vector = vector
        var count = CInt(all.count)
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = vector
        return driver(&count, &argv, callback)
    }

    /// Checks one input; a failed property stops the process, which libFuzzer reports as a crash
    /// and saves the input for.
    private static let callback: Callback = { data, size in
        let input = UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size)
        if let failure = FuzzDriver.target.check(input) {
            // fatalError, not preconditionFailure: -O builds drop a precondition's message.
            fatalError("upgrade-fuzz \(FuzzDriver.target.rawValue): \(failure)")
        }
        return 0
    }
}
