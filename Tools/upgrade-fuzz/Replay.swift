import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Feeds every file of a corpus once to a target's checks: what CI runs, over `Fuzz/corpus`.
enum Replay {
    /// Checks every file given and every file under each folder given.
    ///
    /// - Parameters:
    ///   - target: The target whose checks run.
    ///   - paths: Files and folders.
    /// - Returns: 0 when every input passed, 1 when one failed, 2 when a path is missing or holds
    ///   no file.
    static func run(_ target: FuzzTarget, paths: [String]) -> Int32 {
        guard !paths.isEmpty else {
            complain("give the corpus files or folders to replay (--help)")
            return 2
        }
        var files: [String] = []
        for path in paths {
            guard let found = inputs(at: path) else {
                complain("\(path): no such file or folder")
                return 2
            }
            guard !found.isEmpty else {
                complain("\(path): the folder holds no input")
                return 2
            }
            files += found
        }
        CrashNote.install()
        var failed = 0
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                complain("\(file): cannot be read")
                failed += 1
                continue
            }
            CrashNote.set("upgrade-fuzz: \(file): crashed while checked as a \(target.rawValue) input\n")
            let failure = data.withUnsafeBytes { target.check($0) }
            if let failure {
                complain("\(file): \(failure)")
                failed += 1
            }
        }
        CrashNote.set(nil)
        if failed == 0 {
            print("upgrade-fuzz \(target.rawValue): \(files.count) inputs, every property held")
            return 0
        }
        print("upgrade-fuzz \(target.rawValue): \(failed) of \(files.count) inputs failed (listed above)")
        return 1
    }

    /// The file itself, or the files under a folder (hidden ones skipped), sorted; `nil` when
    /// nothing is there.
    private static func inputs(at path: String) -> [String]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        guard isFolder.boolValue else { return [path] }
        let base = URL(fileURLWithPath: path, isDirectory: true)
        guard
            let enumerator = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            files.append(url.path)
        }
        return files.sorted()
    }

    private static func complain(_ message: String) {
        FileHandle.standardError.write(Data("upgrade-fuzz: \(message)\n".utf8))
    }
}

/// Names the input being replayed when the process dies on it (a trap in a reader, or a failed
/// property's `fatalError` in the fuzzing callback), since a crash ends the replay before it can
/// report.
///
/// A handler for the fatal signals writes the note, puts back the handler that was there before
/// (the Swift runtime's backtracer, for one) and returns, so that the fault happens again under it.
enum CrashNote {
    /// The note, a C string, or `nil` between inputs.
    nonisolated(unsafe) private static var note: UnsafeMutablePointer<CChar>?
    /// The handlers that were there before, one for each of ``signals``.
    nonisolated(unsafe) private static var previous: UnsafeMutablePointer<sigaction>?
    private static let signals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]

    /// Installs the handler for the fatal signals.
    static func install() {
        guard previous == nil else { return }
        let saved = UnsafeMutablePointer<sigaction>.allocate(capacity: signals.count)
        for (index, number) in signals.enumerated() {
            (saved + index).initialize(to: sigaction())
            sigaction(number, nil, saved + index)
        }
        previous = saved
        for number in signals { signal(number, handler) }
    }

    /// Sets the note written if the process dies before the next call.
    ///
    /// - Parameter text: The note, or `nil` for none.
    static func set(_ text: String?) {
        let old = note
        note = text.map { strdup($0) }
        free(old)
    }

    /// Writes the note and puts back the previous handler of the signal.
    private static let handler: @convention(c) (Int32) -> Void = { number in
        if let text = CrashNote.note { _ = write(2, text, strlen(text)) }
        let slot: Int
        switch number {
        case SIGILL: slot = 0
        case SIGTRAP: slot = 1
        case SIGSEGV: slot = 2
        case SIGBUS: slot = 3
        case SIGFPE: slot = 4
        default: slot = 5
        }
        if let saved = CrashNote.previous { sigaction(number, saved + slot, nil) }
    }
}
