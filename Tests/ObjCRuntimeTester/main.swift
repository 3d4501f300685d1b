// The real-runtime test of UpgradeObjC (Scripts/objc-runtime-tests.sh builds its library and runs it).
//
//   objc-runtime-tester check --library LIB --whole-archive-library LIB
//       runs the launches below, each as a process of its own, once with LIB loaded RTLD_LOCAL and once
//       RTLD_GLOBAL, and checks each (and one launch of the second LIB, linked with the whole static
//       library of Tests/ObjCSteps/StaticLibrary); prints "objc-runtime: N passed, N failed" and exits 1
//       on a failure.
//   objc-runtime-tester launch --library LIB|none --load local|global --class NAME --store FILE --version V
//                              [--expect ID,ID... [--overridden ID,ID...]]
//       one launch of an upgrader with the class's Objective-C steps (the expected ones, with --expect),
//       a Swift step and a floor, over a file store; prints one JSON object (outcome, ran, failed,
//       upgradedThrough; or error and code).
//
// In a launch the main thread runs its run loop, as an app's does, and the launch is a task on the
// main actor; the steps record (Tests/ObjCSteps/StepJournal.m) whether they ran on the main thread.
#if os(Linux) || os(macOS)
    import Foundation

    let arguments = Array(CommandLine.arguments.dropFirst())
    switch arguments.first {
    case "launch":
        let options = Options(arguments.dropFirst())
        Task { @MainActor in
            let (output, status) = await Launch.run(options)
            print(output)
            exit(status)
        }
        RunLoop.main.run()
        // The run loop returns only when it has no source: not for the main thread's, which serves the
        // main queue; should it return, the launch has not ended, and that is a failure.
        print("{\"error\": \"the main run loop returned before the launch ended\", \"code\": \"tester\"}")
        exit(2)
    case "check":
        let options = Options(arguments.dropFirst())
        var check = Check(
            library: options.value("--library"), wholeArchiveLibrary: options.value("--whole-archive-library"))
        exit(check.run())
    default:
        FileHandle.standardError.write(
            Data(
                "usage: objc-runtime-tester check --library LIB --whole-archive-library LIB | launch --library LIB|none --load local|global --class NAME --store FILE --version V [--expect IDS [--overridden IDS]]\n"
                    .utf8))
        exit(2)
    }
#else
    print("objc-runtime-tester runs on Linux and macOS only")
#endif
