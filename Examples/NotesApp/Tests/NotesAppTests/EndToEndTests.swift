// Runs the built app as real processes: only where a test can start one (not on iOS, tvOS, watchOS or
// visionOS).
#if os(macOS) || os(Linux)
    import Foundation
    import Testing
    import UpgradeStorage
    import VersionKit

    /// End-to-end tests of the notes app: each runs the built `notes` binary, launch after launch, in a
    /// data folder of its own, and checks the files on disk after each launch.
    @Suite("notes, end to end", .serialized)
    struct EndToEndTests {
        static let allSteps = ["appUpgradeTo_1_1", "settings-to-json", "rename-note-text-key"]
        static let texts = ["Buy milk", "Call Ada", "Water the plants", "Book the dentist", "Return the library books"]

        /// Launches 1.0 once per text, adding it as a note, and checks the 1.0 layout.
        func install10(_ app: NotesProcess, notes texts: [String]) async throws {
            for (index, text) in texts.enumerated() {
                let launch = try await app.launch("1.0", "add", text)
                #expect(launch.status == 0, "\(launch.errors)")
                #expect(launch.report == (index == 0 ? "freshInstall (fresh) -> 1.0" : "upToDate at 1.0"))
                #expect(launch.startedSteps.isEmpty)
            }
            #expect(app.exists("upgrade-state.json"))
            #expect(app.exists("Cache/thumbnails"))
            #expect(app.exists("settings.plist"))
            #expect(!app.exists("settings.json"))
            let notes = try app.notes()
            #expect(notes.count == texts.count)
            #expect(Set(notes.values.compactMap { $0["text"] as? String }) == Set(texts))
        }

        /// Writes settings a 1.0 user chose, so that the 2.0 step has something of theirs to move.
        func chooseSettings(_ app: NotesProcess) throws {
            let settings: [String: Any] = ["sortOrder": "newestFirst", "showDates": false, "fontSize": 18]
            let data = try PropertyListSerialization.data(fromPropertyList: settings, format: .xml, options: 0)
            try data.write(to: app.url("settings.plist"))
        }

        /// Checks that every note has its original text under `body` and no `text` key.
        func expectAllRenamed(_ app: NotesProcess, texts: [String], created: [String: String]) throws {
            let notes = try app.notes()
            #expect(notes.count == texts.count)
            for (name, note) in notes {
                #expect(note["text"] == nil, "\(name) still has text")
                #expect(note["created"] as? String == created[name], "\(name) lost its creation date")
                #expect(Set(note.keys) == ["body", "created"], "\(name) has keys \(note.keys.sorted())")
            }
            #expect(notes.values.compactMap { $0["body"] as? String }.sorted() == texts.sorted())
        }

        func creationDates(_ app: NotesProcess) throws -> [String: String] {
            try app.notes().compactMapValues { $0["created"] as? String }
        }

        @Test("a user who goes from 1.0 straight to 2.1 runs each step once, in order")
        func skipToLatest() async throws {
            let app = try NotesProcess()
            defer { app.removeFolder() }
            let texts = Array(Self.texts.prefix(3))
            try await install10(app, notes: texts)
            try chooseSettings(app)
            let created = try creationDates(app)

            let upgrade = try await app.launch("2.1", "list")
            #expect(upgrade.status == 0, "\(upgrade.errors)")
            #expect(upgrade.startedSteps == Self.allSteps)
            #expect(
                upgrade.report == "upgraded 1.0 -> 2.1: ran appUpgradeTo_1_1, settings-to-json, rename-note-text-key")
            #expect(upgrade.renamedNotes == ["note-0001.json", "note-0002.json", "note-0003.json"])
            // 1.1 deleted the cache, 2.0 moved the user's settings, 2.1 renamed the key in every note.
            #expect(!app.exists("Cache"))
            #expect(!app.exists("settings.plist"))
            let settings = try app.json("settings.json")
            #expect(settings["sortOrder"] as? String == "newestFirst")
            #expect(settings["showDates"] as? Bool == false)
            #expect(settings["fontSize"] as? Int == 18)
            try expectAllRenamed(app, texts: texts, created: created)
            // The app reads the moved settings: newest first, without dates.
            #expect(
                upgrade.lines.suffix(4) == [
                    "note-0003  Water the plants", "note-0002  Call Ada", "note-0001  Buy milk", "3 notes",
                ])

            // The next launch at 2.1 runs nothing and changes nothing.
            let before = try app.snapshot()
            let again = try await app.launch("2.1", "list")
            #expect(again.status == 0)
            #expect(again.startedSteps.isEmpty)
            #expect(again.report == "upToDate at 2.1")
            #expect(try app.snapshot() == before)
        }

        @Test("a user who installs every release runs each release's step at that release")
        func everyRelease() async throws {
            let app = try NotesProcess()
            defer { app.removeFolder() }
            let texts = Array(Self.texts.prefix(2))
            try await install10(app, notes: texts)
            let created = try creationDates(app)

            let v11 = try await app.launch("1.1")
            #expect(v11.startedSteps == ["appUpgradeTo_1_1"])
            #expect(v11.report == "upgraded 1.0 -> 1.1: ran appUpgradeTo_1_1")
            #expect(!app.exists("Cache"))
            #expect(app.exists("settings.plist"))
            #expect(try app.notes().values.allSatisfy { $0["text"] != nil })

            let v20 = try await app.launch("2.0")
            #expect(v20.startedSteps == ["settings-to-json"])
            #expect(!app.exists("settings.plist"))
            #expect(try app.json("settings.json")["sortOrder"] as? String == "oldestFirst")
            #expect(try app.notes().values.allSatisfy { $0["text"] != nil })

            let v21 = try await app.launch("2.1")
            #expect(v21.startedSteps == ["rename-note-text-key"])
            try expectAllRenamed(app, texts: texts, created: created)
            #expect([v11, v20, v21].allSatisfy { $0.status == 0 })
        }

        @Test(
            "a launch killed in the middle of the 2.1 step is retried: it finishes, and no note is damaged or renamed twice"
        )
        func killedMidStep() async throws {
            let app = try NotesProcess()
            defer { app.removeFolder() }
            let texts = Self.texts
            try await install10(app, notes: texts)
            let created = try creationDates(app)

            // The 2.1 launch renames two of the five notes, then is killed.
            let killed = try await app.launchAndKill(
                "2.1", "list", environment: ["NOTES_TEST_PAUSE_AFTER_RENAMING": "2"], whenPrinted: "test pause:")
            #expect(killed.killed)
            #expect(killed.startedSteps == Self.allSteps)
            #expect(killed.renamedNotes == ["note-0001.json", "note-0002.json"])
            #expect(killed.report == nil)

            // On disk: the steps before it are done, two notes are renamed, three are not, none is damaged.
            #expect(!app.exists("Cache"))
            #expect(app.exists("settings.json") && !app.exists("settings.plist"))
            let notes = try app.notes()  // throws if a note is not valid JSON
            #expect(notes.count == texts.count)
            for (name, note) in notes {
                let renamed = ["note-0001.json", "note-0002.json"].contains(name)
                #expect(Set(note.keys) == (renamed ? ["body", "created"] : ["text", "created"]), "\(name)")
            }
            // Read as the store reads it: a killed launch's writes are journal records beside the
            // document, which is rewritten as their copy when a launch ends.
            let state = try #require(try FileUpgradeStore(url: app.url("upgrade-state.json")).load())
            #expect(state.upgradedThrough == Version("1.0"))
            #expect(state.inProgress?.id == "rename-note-text-key")
            #expect(state.inProgress?.attempt == 1)
            #expect(state.completed.map(\.id) == ["appUpgradeTo_1_1", "settings-to-json"])

            // The next launch runs only the interrupted step, as its second attempt, and finishes it.
            let retry = try await app.launch("2.1", "list")
            #expect(retry.status == 0, "\(retry.errors)")
            #expect(retry.startedSteps == ["rename-note-text-key"])
            #expect(
                retry.lines.contains(
                    "upgrade: step rename-note-text-key (2.1) started, attempt 2, the previous attempt was interrupted")
            )
            #expect(retry.lines.contains("step rename-note-text-key: resuming after an interrupted attempt"))
            #expect(retry.renamedNotes == ["note-0003.json", "note-0004.json", "note-0005.json"])
            #expect(
                retry.report
                    == "upgraded, resumed at 2.1: ran rename-note-text-key (attempt 2, after an interrupted attempt)")
            // Each note was renamed exactly once over the two launches.
            #expect((killed.renamedNotes + retry.renamedNotes).sorted() == (try app.noteNames()))
            try expectAllRenamed(app, texts: texts, created: created)
            let finished = try app.json("upgrade-state.json")
            #expect(finished["upgradedThrough"] as? String == "2.1")
            #expect(finished["inProgress"] is NSNull)

            let after = try await app.launch("2.1")
            #expect(after.startedSteps.isEmpty)
            #expect(after.report == "upToDate at 2.1")
        }

        @Test("a fresh install of 2.1 runs no step and starts in the 2.1 format")
        func freshInstallOfLatest() async throws {
            let app = try NotesProcess()
            defer { app.removeFolder() }
            let launch = try await app.launch("2.1", "add", "First thought")
            #expect(launch.status == 0, "\(launch.errors)")
            #expect(launch.startedSteps.isEmpty)
            #expect(launch.report == "freshInstall (fresh) -> 2.1")
            #expect(!app.exists("Cache"))
            #expect(!app.exists("settings.plist"))
            #expect(try app.json("settings.json")["sortOrder"] as? String == "oldestFirst")
            #expect(try app.notes().values.map { $0["body"] as? String } == ["First thought"])
        }

        @Test("bad arguments exit with status 2 and say why")
        func badArguments() async throws {
            let app = try NotesProcess()
            defer { app.removeFolder() }
            let launch = try await app.launch("2.1-beta")
            #expect(launch.status == 2)
            #expect(launch.errors.contains("\"2.1-beta\": unexpected character \"-\" at offset 3"))
            #expect(!app.exists("upgrade-state.json"))
        }
    }
#endif
