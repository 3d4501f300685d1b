// The widget sample of Modules/UpgradeCore/UpgradeCore.docc/AppIntegration.md: a widget extension
// that depends on UpgradeCore and UpgradeStorage only and links none of the app's steps. It compiles
// against WidgetKit where it exists, and against the small stand-ins below elsewhere.

// snippet.widget-store
import Foundation
import UpgradeCore
import UpgradeStorage

/// Where the app and its extensions keep the upgrade state: in a small framework that both link,
/// with no step in it (the app's upgrader, with its steps, lives in the app alone).
enum SharedUpgradeState {
    static func store() throws -> FileUpgradeStore {
        guard
            let container = FileManager.default.containerURL(
                forSecurityApplicationGroupIdentifier: "group.com.example.notes")
        else { throw NotAnAppGroupMember() }
        return FileUpgradeStore(
            url: container.appending(path: "Library/Application Support/AppUpgrade/upgrade-state.json"))
    }
}
// snippet.end

// snippet.hide
struct NotAnAppGroupMember: Error {}

struct Note: Sendable {}

enum NoteReader {
    static func read() throws -> [Note] { [] }
}

#if !canImport(Darwin)
    // A stand-in where Foundation has no app groups.
    extension FileManager {
        func containerURL(forSecurityApplicationGroupIdentifier identifier: String) -> URL? { nil }
    }
#endif

#if canImport(WidgetKit)
    import WidgetKit
#else
    // Stand-ins for the few WidgetKit declarations the sample uses, where WidgetKit does not exist.
    protocol TimelineEntry: Sendable {
        var date: Date { get }
    }
    struct TimelineProviderContext: Sendable {}
    struct TimelineReloadPolicy: Sendable {
        static let never = TimelineReloadPolicy()
        static func after(_ date: Date) -> TimelineReloadPolicy { TimelineReloadPolicy() }
    }
    struct Timeline<EntryType: TimelineEntry>: Sendable {
        init(entries: [EntryType], policy: TimelineReloadPolicy) {}
    }
    protocol TimelineProvider {
        associatedtype Entry: TimelineEntry
        typealias Context = TimelineProviderContext
        func placeholder(in context: Context) -> Entry
        func getSnapshot(in context: Context, completion: @escaping @Sendable (Entry) -> Void)
        func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<Entry>) -> Void)
    }
#endif

// snippet.show
// snippet.widget-provider
struct NotesEntry: TimelineEntry {
    let date: Date
    /// `nil` while the app has not upgraded the data to this version's shape: a placeholder then.
    let notes: [Note]?
}

struct NotesProvider: TimelineProvider {
    /// Synchronous, as WidgetKit asks: one read of the state (no lock, no write, no step).
    func placeholder(in context: Context) -> NotesEntry {
        let report = try? UpgradeFollower(store: SharedUpgradeState.store())
            .launch(currentVersion: Upgrader.version(of: .main))
        return NotesEntry(date: Date(), notes: report.flatMap(Self.notes(after:)))
    }

    func getSnapshot(in context: Context, completion: @escaping @Sendable (NotesEntry) -> Void) {
        completion(placeholder(in: context))
    }

    /// Asynchronous: the follower's launch, then the data if it is in this version's shape.
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<NotesEntry>) -> Void) {
        Task {
            do {
                let follower = UpgradeFollower(store: try SharedUpgradeState.store())
                let report = try await follower.launch(currentVersion: Upgrader.version(of: .main))
                let entry = NotesEntry(date: Date(), notes: Self.notes(after: report))
                completion(Timeline(entries: [entry], policy: Self.reload(after: report)))
            } catch {
                // The state unreadable: a placeholder, and another try later.
                let entry = NotesEntry(date: Date(), notes: nil)
                completion(Timeline(entries: [entry], policy: .after(Date().addingTimeInterval(15 * 60))))
            }
        }
    }

    /// The notes when the data may be read: the app's gate would be open (nothing pending at this
    /// version); `nil` when the app has work to do, below the mark, or while data is protected.
    private static func notes(after report: UpgradeReport) -> [Note]? {
        guard UpgradeGate().state(after: report).isOpen else { return nil }
        return try? NoteReader.read()
    }

    /// When to ask again: after the first unlock while protected data is unavailable; otherwise
    /// when the app says so (its launch reloads every timeline after it upgraded the data).
    private static func reload(after report: UpgradeReport) -> TimelineReloadPolicy {
        switch UpgradeGate().state(after: report) {
        case .waitingForProtectedData: .after(Date().addingTimeInterval(15 * 60))
        case .open: .after(Date().addingTimeInterval(60 * 60))
        default: .never
        }
    }
}
// snippet.end
