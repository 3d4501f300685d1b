#if os(Linux) || os(macOS)
    import Foundation
    import ProcessSpawning

    /// The launches of the test, each a process of its own, and what each must give.
    struct Check {
        let library: String
        /// The library linked with the whole static library of Tests/ObjCSteps/StaticLibrary.
        let wholeArchiveLibrary: String
        private(set) var passed = 0
        private(set) var failed = 0

        init(library: String, wholeArchiveLibrary: String) {
            self.library = library
            self.wholeArchiveLibrary = wholeArchiveLibrary
        }

        /// Runs every launch, loading the library each way, and returns the exit status.
        mutating func run() -> Int32 {
            for load in ["local", "global"] {
                checkUpgradePath(load: load)
                checkBrokenClass(load: load)
                checkUnknownClass(load: load)
                checkExpectedMethods(load: load)
                checkCategoriesDefiningOneSelector(load: load)
            }
            checkWholeArchive()
            checkNoRuntime()
            print("objc-runtime: \(passed) passed, \(failed) failed")
            return failed == 0 ? 0 : 1
        }

        /// Version order, NO retried at the next launch and blocking the steps after it, nothing
        /// finished run again, the overriding category, void steps, every call on the main thread
        /// inside a pool, and a future step not run.
        private mutating func checkUpgradePath(load: String) {
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let journal = folder.appending(path: "journal.txt")
            var seen = 0
            func launch(_ version: String) -> [String: Any] {
                self.launch(
                    class: "XXAppUpdater", load: load, store: folder.appending(path: "state.json"), version: version,
                    journal: journal)
            }
            func newJournalLines() -> [String] {
                let lines = ((try? String(contentsOf: journal, encoding: .utf8)) ?? "").split(separator: "\n").map(
                    String.init)
                defer { seen = lines.count }
                return Array(lines.dropFirst(seen))
            }
            let context = "XXAppUpdater, loaded \(load)"

            let first = launch("1.0")
            expect(first["outcome"] as? String == "upgraded", "\(context), 1.0: the floor runs", first)
            expect(first["ran"] as? [String] == ["swift-floor"], "\(context), 1.0: only the floor ran", first)
            var lines = newJournalLines()
            expect(lines.isEmpty, "\(context), 1.0: no Objective-C step ran", lines)

            let second = launch("3.0")
            expect(second["outcome"] as? String == "failed", "\(context), 3.0: NO fails the launch", second)
            expect(second["failed"] as? String == "appUpgradeTo_2_1", "\(context), 3.0: the NO step failed", second)
            expect(
                second["ran"] as? [String] == [
                    "appUpgradeTo_1_1", "appUpgradeTo_1_2", "appUpgradeTo_2_0", "appUpgradeTo_2_1",
                ],
                "\(context), 3.0: version order, stopping at NO: the steps after it (2.5, 3.0) wait", second)
            expect(second["upgradedThrough"] as? String == "1.0", "\(context), 3.0: the mark stays", second)
            lines = newJournalLines()
            expect(
                lines == [
                    "appUpgradeTo_1_1 class main=yes pool=yes", "appUpgradeTo_1_2 void main=yes pool=yes",
                    "appUpgradeTo_2_0 category main=yes pool=yes", "appUpgradeTo_2_1 NO main=yes pool=yes",
                ], "\(context), 3.0: the methods a send reaches (the category's 2.0), on the main thread, in a pool",
                lines)

            let third = launch("3.0")
            expect(third["outcome"] as? String == "upgraded", "\(context), 3.0 again: upgraded", third)
            expect(
                third["ran"] as? [String] == [
                    "appUpgradeTo_2_1", "swift-2.5", "APPUPGRADETO_3_0", "appUpgradeTo_3_0", "appUpgradeTo_3_0_0",
                ],
                "\(context), 3.0 again: the NO step retried first, nothing finished again, equal versions by selector",
                third)
            expect(third["upgradedThrough"] as? String == "3.0", "\(context), 3.0 again: the mark moves", third)
            lines = newJournalLines()
            expect(
                lines == [
                    "appUpgradeTo_2_1 YES main=yes pool=yes", "APPUPGRADETO_3_0 category main=yes pool=yes",
                    "appUpgradeTo_3_0 category main=yes pool=yes", "appUpgradeTo_3_0_0 category main=yes pool=yes",
                ], "\(context), 3.0 again: what ran, on the main thread, in a pool; not the future 9.0", lines)

            let fourth = launch("3.0")
            expect(fourth["outcome"] as? String == "upToDate", "\(context), 3.0 a third time: up to date", fourth)
            lines = newJournalLines()
            expect(lines.isEmpty, "\(context), 3.0 a third time: nothing ran", lines)
        }

        /// Every malformed method named, with its reason, and nothing run or written.
        private mutating func checkBrokenClass(load: String) {
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let journal = folder.appending(path: "journal.txt")
            let state = folder.appending(path: "state.json")
            let result = launch(class: "XXBrokenUpdater", load: load, store: state, version: "2.0", journal: journal)
            let message = result["error"] as? String ?? ""
            let context = "XXBrokenUpdater, loaded \(load)"
            expect(result["code"] as? String == "unusableMethods", "\(context): a configuration error", result)
            for line in [
                "the Objective-C class \"XXBrokenUpdater\" has 5 class methods named like steps that cannot be steps",
                "+[XXBrokenUpdater appUpgradeTo_1_2:]: takes 1 argument; a step takes none",
                "+[XXBrokenUpdater appUpgradeTo_1_2_3_4]: not a step name: \"appUpgradeTo_1_2_3_4\": more than 3 components",
                "+[XXBrokenUpdater appUpgradeTo_1_3]: returns an object (id) (type encoding \"@\"); a step returns BOOL or void",
                "+[XXBrokenUpdater appUpgradeTo_1_4beta]: not a step name: \"appUpgradeTo_1_4beta\": unexpected character \"b\"",
                "+[XXBrokenUpdater appupgradeto_1_6]: returns int (type encoding \"i\"); a step returns BOOL or void",
            ] {
                expect(message.contains(line), "\(context): the message says \(line)", result)
            }
            expect(
                !message.contains("AppUpgradeTo_1_5") && !message.contains("xappUpgradeTo"),
                "\(context): the good step and the unrelated method are not named", result)
            expect(!FileManager.default.fileExists(atPath: journal.path), "\(context): nothing ran", result)
            expect(!FileManager.default.fileExists(atPath: state.path), "\(context): nothing was written", result)
        }

        /// The steps of XXAppUpdater, as its files define them; appUpgradeTo_2_2 is in the static
        /// library that the linker leaves out.
        private static let appUpdaterSteps = [
            "appUpgradeTo_1_1", "appUpgradeTo_1_2", "appUpgradeTo_2_0", "appUpgradeTo_2_1", "APPUPGRADETO_3_0",
            "appUpgradeTo_3_0", "appUpgradeTo_3_0_0", "appUpgradeTo_9_0",
        ]

        /// The expected ids: a category the linker left out is an error naming its method, so is an
        /// override the app did not name and a method it did not expect; nothing runs or is written.
        /// With the list right and the override named, the steps run.
        private mutating func checkExpectedMethods(load: String) {
            let all = Self.appUpdaterSteps.joined(separator: ",")
            let cases: [(what: String, expect: String, overridden: String, lines: [String])] = [
                (
                    "the category of the static library linked without --whole-archive (-ObjC) is missing",
                    all + ",appUpgradeTo_2_2", "appUpgradeTo_2_0",
                    [
                        "(1 difference; nothing ran)",
                        "+[XXAppUpdater appUpgradeTo_2_2]: expected, and not loaded (is its file in the target? a category in a static library is loaded only when the app links with -ObjC)",
                    ]
                ),
                (
                    "the selector the class and a category define is an error unless named as overridden",
                    all, "",
                    [
                        "(1 difference; nothing ran)",
                        "+[XXAppUpdater appUpgradeTo_2_0]: defined 2 times, by the class and its categories",
                    ]
                ),
                (
                    "a loaded step method not in the list is named",
                    Self.appUpdaterSteps.filter { $0 != "appUpgradeTo_9_0" }.joined(separator: ","),
                    "appUpgradeTo_2_0",
                    ["(1 difference; nothing ran)", "+[XXAppUpdater appUpgradeTo_9_0]: loaded, and not expected"]
                ),
            ]
            for item in cases {
                let folder = temporaryFolder()
                defer { try? FileManager.default.removeItem(at: folder) }
                let journal = folder.appending(path: "journal.txt")
                let state = folder.appending(path: "state.json")
                let result = launch(
                    class: "XXAppUpdater", load: load, store: state, version: "3.0", journal: journal,
                    expect: item.expect, overridden: item.overridden)
                let message = result["error"] as? String ?? ""
                let context = "XXAppUpdater with expected ids, loaded \(load): \(item.what)"
                expect(result["code"] as? String == "methodsNotAsExpected", "\(context): a configuration error", result)
                for line in item.lines {
                    expect(message.contains(line), "\(context): the message says \(line)", result)
                }
                expect(!FileManager.default.fileExists(atPath: journal.path), "\(context): nothing ran", result)
                expect(!FileManager.default.fileExists(atPath: state.path), "\(context): nothing was written", result)
            }

            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = launch(
                class: "XXAppUpdater", load: load, store: folder.appending(path: "state.json"), version: "2.0",
                journal: folder.appending(path: "journal.txt"), expect: all, overridden: "appUpgradeTo_2_0")
            expect(
                result["outcome"] as? String == "upgraded"
                    && result["ran"] as? [String] == [
                        "swift-floor", "appUpgradeTo_1_1", "appUpgradeTo_1_2", "appUpgradeTo_2_0",
                    ],
                "XXAppUpdater with expected ids, loaded \(load): as expected, the steps run", result)
        }

        /// The category of the static library, linked in whole (the ELF linker's -ObjC): loaded, and
        /// the expected ids that name it are right.
        private mutating func checkWholeArchive() {
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = launch(
                class: "XXAppUpdater", load: "local", store: folder.appending(path: "state.json"), version: "1.0",
                journal: folder.appending(path: "journal.txt"),
                expect: (Self.appUpdaterSteps + ["appUpgradeTo_2_2"]).joined(separator: ","),
                overridden: "appUpgradeTo_2_0", library: wholeArchiveLibrary)
            expect(
                result["outcome"] as? String == "upgraded",
                "XXAppUpdater linked with --whole-archive (-ObjC): the static library's category is loaded", result)
        }

        /// A selector that two categories define (and the class does not): an error unless named as
        /// overridden, and then one step, which runs once.
        private mutating func checkCategoriesDefiningOneSelector(load: String) {
            let context = "XXTwiceUpdater, loaded \(load)"
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let journal = folder.appending(path: "journal.txt")
            let state = folder.appending(path: "state.json")
            let refused = launch(
                class: "XXTwiceUpdater", load: load, store: state, version: "2.0", journal: journal,
                expect: "appUpgradeTo_1_1,appUpgradeTo_1_2", overridden: "")
            expect(
                refused["code"] as? String == "methodsNotAsExpected"
                    && (refused["error"] as? String ?? "").contains(
                        "+[XXTwiceUpdater appUpgradeTo_1_2]: defined 2 times, by the class and its categories"),
                "\(context): the selector two categories define is an error naming it", refused)
            expect(!FileManager.default.fileExists(atPath: journal.path), "\(context): nothing ran", refused)

            let named = launch(
                class: "XXTwiceUpdater", load: load, store: state, version: "2.0", journal: journal,
                expect: "appUpgradeTo_1_1,appUpgradeTo_1_2", overridden: "appUpgradeTo_1_2")
            expect(
                named["outcome"] as? String == "upgraded"
                    && named["ran"] as? [String] == ["swift-floor", "appUpgradeTo_1_1", "appUpgradeTo_1_2"],
                "\(context): named as overridden, it is one step", named)
            let lines = ((try? String(contentsOf: journal, encoding: .utf8)) ?? "").split(separator: "\n")
            expect(
                lines.count == 2
                    && lines.last.map {
                        $0.hasPrefix("appUpgradeTo_1_2 first ") || $0.hasPrefix("appUpgradeTo_1_2 second ")
                    } == true,
                "\(context): one of the two definitions ran, once", lines)
        }

        /// An unknown class is an error naming it.
        private mutating func checkUnknownClass(load: String) {
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = launch(
                class: "XXAppUpdatr", load: load, store: folder.appending(path: "state.json"), version: "2.0",
                journal: folder.appending(path: "journal.txt"))
            expect(
                result["code"] as? String == "unknownClass"
                    && (result["error"] as? String ?? "").contains("no Objective-C class named \"XXAppUpdatr\""),
                "an unknown class, loaded \(load): an error naming it", result)
        }

        /// A process without an Objective-C runtime: an error naming the class.
        private mutating func checkNoRuntime() {
            let folder = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let result = launch(
                class: "XXAppUpdater", load: "none", store: folder.appending(path: "state.json"), version: "2.0",
                journal: folder.appending(path: "journal.txt"))
            let message = result["error"] as? String ?? ""
            expect(
                result["code"] as? String == "noRuntime"
                    && message.contains("cannot find the steps of the Objective-C class \"XXAppUpdater\"")
                    && message.contains("no Objective-C runtime is loaded in this process"),
                "no runtime loaded: an error naming the class", result)
        }

        /// One launch, in a process of its own; its JSON output.
        private func launch(
            class name: String, load: String, store: URL, version: String, journal: URL, expect: String? = nil,
            overridden: String = "", library: String? = nil
        ) -> [String: Any] {
            let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
            var environment = ProcessInfo.processInfo.environment
            environment["OBJC_STEPS_JOURNAL"] = journal.path
            let ending: ProcessEnding
            let output: [UInt8]
            do {
                (ending, output) = try SpawnedProcess.run(
                    executable,
                    arguments: [
                        "launch", "--library", load == "none" ? "none" : library ?? self.library, "--load",
                        load == "none" ? "local" : load, "--class", name, "--store", store.path, "--version", version,
                    ] + (expect.map { ["--expect", $0, "--overridden", overridden] } ?? []), environment: environment)
            } catch {
                return ["error": "cannot start \(executable): \(error)", "code": "tester"]
            }
            let text = String(decoding: output, as: UTF8.self)
            guard let line = text.split(separator: "\n").last,
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            else {
                return ["error": "launch \(version) printed no JSON (it \(ending)): \(text)", "code": "tester"]
            }
            return object
        }

        private mutating func expect(_ condition: Bool, _ what: String, _ got: Any) {
            if condition {
                passed += 1
                print("PASS  \(what)")
            } else {
                failed += 1
                print("FAIL  \(what)\n      got: \(got)")
            }
        }

        private func temporaryFolder() -> URL {
            let folder = FileManager.default.temporaryDirectory.appending(path: "objc-runtime-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder
        }
    }
#endif
