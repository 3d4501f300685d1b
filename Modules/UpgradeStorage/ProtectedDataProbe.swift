import Foundation
import UpgradeCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// How a store tells whether the app's protected data is readable: a small file, created with the
/// data protection class of the store's own files, that can be read only when they can
/// (<doc:ProtectedData>).
///
/// Until the first unlock after a restart, iOS, iPadOS, tvOS, watchOS and visionOS cannot open files
/// protected "until first user authentication" (the class of the store's files and of
/// `UserDefaults`), and `UserDefaults` read as empty. A store that finds no state asks its probe
/// before it calls that a fresh install: when the probe cannot be read (or made), the store throws
/// `UpgradeStoreError.Code.protectedDataUnavailable`, and the launch decides nothing. A store that
/// read its state needs no probe: the read proves the data readable.
///
/// ```swift
/// let store = try UserDefaultsUpgradeStore(suiteName: "com.example.app.upgrades",
///                                          probe: ProtectedDataProbe(url: groupContainer.appending(path: "upgrade.probe")))
/// ```
public struct ProtectedDataProbe: Sendable {
    /// The probe file; `nil` for ``alwaysReadable``.
    public let url: URL?
    /// The system calls the probe makes: the system's, or a test's.
    let calls: any FileStoreCalls

    /// A probe at `url`, made at its first use (its folder too).
    ///
    /// - Parameter url: A file URL in the app's container (or app group container), beside nothing
    ///   else of the app's: the file holds one line and is never removed.
    public init(url: URL) {
        self.init(url: url, calls: SystemCalls())
    }

    /// A probe whose system calls go through `calls`: for tests, which make data unavailable with
    /// ``FaultInjectingCalls/setProtectedDataAvailable(_:)``.
    package init(url: URL?, calls: any FileStoreCalls) {
        self.url = url
        self.calls = calls
    }

    /// No probe: the data is always taken to be readable, as it is where data protection does not
    /// exist (Linux, macOS).
    public static let alwaysReadable = ProtectedDataProbe(url: nil, calls: SystemCalls())

    /// The default probe of the stores that keep their state outside a folder of their own (the
    /// defaults store, the legacy version's adopter): on iOS, iPadOS, tvOS, watchOS and visionOS,
    /// `AppUpgrade/protected-data.probe` in the app's Application Support folder; elsewhere
    /// ``alwaysReadable``.
    public static var appContainer: ProtectedDataProbe {
        #if (os(iOS) && !targetEnvironment(macCatalyst)) || os(tvOS) || os(watchOS) || os(visionOS)
            guard let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            else { return .alwaysReadable }
            return ProtectedDataProbe(url: support.appending(path: "AppUpgrade/protected-data.probe"))
        #else
            return .alwaysReadable
        #endif
    }

    /// Establishes that protected data is readable: reads the probe, making it first if there is none.
    ///
    /// - Parameter location: Where the store keeps its state, for the error.
    /// - Throws: `UpgradeStoreError` with code `UpgradeStoreError.Code.protectedDataUnavailable`
    ///   when the probe cannot be read or made for lack of permission (`EPERM`: the data protection
    ///   class's key is not available), or `UpgradeStoreError.Code.unreadable` for any other failure
    ///   (such as a folder that cannot be made): either way the store cannot say "fresh install".
    public func requireReadable(for location: String) throws(UpgradeStoreError) {
        guard let url else { return }
        let path = url.path
        var failure = readProbe(path)
        var what = "cannot be opened or read"
        if failure == ENOENT {
            if let code = makeProbe(path) {
                failure = code
                what = "cannot be made"
            } else {
                failure = readProbe(path)
            }
        }
        guard let code = failure else { return }
        if code == EPERM {
            throw UpgradeStoreError(
                code: .protectedDataUnavailable, location: location,
                detail: "protected data is unavailable (the probe \(path) \(what): \(POSIX.describe(code))),"
                    + " as on a device locked since its restart; no state read now would prove anything, so"
                    + " nothing was decided", underlying: POSIX.error(code))
        }
        throw UpgradeStoreError(
            code: .unreadable, location: location,
            detail: "cannot tell whether protected data is readable: the probe \(path) \(what):"
                + " \(POSIX.describe(code)); only a known-readable missing state is a fresh install, so nothing"
                + " runs until it can be read", underlying: POSIX.error(code))
    }

    /// Opens and reads the probe.
    ///
    /// - Returns: `nil`, or the error number of the open or read that failed.
    private func readProbe(_ path: String) -> Int32? {
        let descriptor = calls.perform(.probe) { open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        if descriptor < 0 { return errno }
        defer { close(descriptor) }
        var byte: UInt8 = 0
        return calls.perform(.probe) { read(descriptor, &byte, 1) } < 0 ? errno : nil
    }

    /// Makes the missing folders of `folder`, owner-only, each one's parent flushed so that its entry
    /// survives a power cut (a store may keep its state in a folder the probe made). A folder that
    /// cannot be made is left for the probe's creation to report.
    private func makeFolders(_ folder: String) {
        var missing: [String] = []
        var current = folder
        var info = stat()
        while stat(current, &info) != 0 && errno == ENOENT {
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        for created in missing.reversed() {
            guard mkdir(created, 0o700) == 0 else { continue }
            #if (os(iOS) && !targetEnvironment(macCatalyst)) || os(tvOS) || os(watchOS) || os(visionOS)
                // The class the stores give the folders they make, so that files made in it get it too.
                try? FileManager.default.setAttributes(
                    [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: created)
            #else
                // No data protection classes here; the folder is owner-only (0700).
            #endif
            let parent = (created as NSString).deletingLastPathComponent
            let descriptor = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            _ = calls.perform(.syncFolder) { StableStorage.flush(descriptor) }
            close(descriptor)
        }
    }

    /// Makes the probe, with its folder, owner-only; on the platforms with data protection, with
    /// the store's class, `completeUntilFirstUserAuthentication`, given as it is created.
    ///
    /// - Returns: `nil` (made, or made meanwhile by another process), or the error number.
    private func makeProbe(_ path: String) -> Int32? {
        makeFolders(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        let text = Array("AppUpgrade: readable only while protected data is\n".utf8)
        let descriptor = calls.perform(.probe) {
            open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
        }
        if descriptor < 0 { return errno == EEXIST ? nil : errno }
        #if (os(iOS) && !targetEnvironment(macCatalyst)) || os(tvOS) || os(watchOS) || os(visionOS)
            // Before any byte is written: the class is set on the empty file, then the line written.
            do {
                try FileManager.default.setAttributes(
                    [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path)
            } catch {
                close(descriptor)
                unlink(path)
                return EPERM
            }
        #else
            // macOS (Mac Catalyst included) and Linux: no data protection class to give; the probe is
            // owner-only (0600) as every file of the stores.
        #endif
        let failed = POSIX.writeAll(text) { start, count in write(descriptor, start, count) }
        close(descriptor)
        if let failed {
            unlink(path)
            return failed
        }
        return nil
    }
}
