import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Finds the executables that `swift build` puts beside the tests (such as `upgrade-sim` and
/// `store-torture`), so that a test can run them as real processes.
///
/// The products folder is found from the image that holds the tests' code, not from the process
/// that runs them: under `swift test` on macOS that process is a toolchain helper (`xctest`, or
/// `swiftpm-testing-helper` for Swift Testing) living in the toolchain, so `CommandLine.arguments[0]`,
/// `Bundle.main` and `Bundle.allBundles` (which lists only bundles loaded through `Bundle`, not one
/// opened with `dlopen`) all point away from the build folder. In order:
///
/// 1. `APPUPGRADE_TEST_PRODUCTS`, a folder, when set (a build folder of one's own, say).
/// 2. The folders above the tests' own image: on Linux the test executable itself
///    (`/proc/self/exe`, `.build/<triple>/<configuration>/AppUpgradePackageTests.xctest`); on Apple
///    platforms the binary inside the test bundle, found with `dladdr` on the image's `#dsohandle`
///    (`.../<configuration>/AppUpgradePackageTests.xctest/Contents/MacOS/AppUpgradePackageTests`).
///    Either way the products are beside the bundle, whatever the configuration or `--scratch-path`.
/// 3. The package's default debug build folder, `.build/debug`, found from this file's path.
public enum BuildProducts {
    /// The environment variable that names the products folder, overriding the search.
    public static let environmentVariable = "APPUPGRADE_TEST_PRODUCTS"

    /// The folders searched, in order.
    ///
    /// - Parameter image: A pointer into the image that holds the tests (leave it to its default).
    /// - Returns: The folders, most likely first.
    public static func candidateFolders(image: UnsafeRawPointer = #dsohandle) -> [URL] {
        var folders: [URL] = []
        if let folder = ProcessInfo.processInfo.environment[environmentVariable], !folder.isEmpty {
            folders.append(URL(fileURLWithPath: folder, isDirectory: true))
        }
        if let binary = imagePath(image) {
            // The image's folder, and the folder that holds the `.xctest` bundle the image is in, if any.
            var folder = URL(fileURLWithPath: binary).standardizedFileURL.deletingLastPathComponent()
            folders.append(folder)
            while folder.pathComponents.count > 1 {
                if folder.pathExtension == "xctest" {
                    folders.append(folder.deletingLastPathComponent())
                    break
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        var package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while package.pathComponents.count > 1,
            !FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path)
        {
            package = package.deletingLastPathComponent()
        }
        folders.append(package.appendingPathComponent(".build/debug", isDirectory: true))
        return folders
    }

    /// The executable product `name`, or `nil` when no searched folder holds it.
    ///
    /// - Parameters:
    ///   - name: The product's name, such as `upgrade-sim`.
    ///   - image: A pointer into the image that holds the tests (leave it to its default).
    /// - Returns: Its URL.
    public static func executable(named name: String, image: UnsafeRawPointer = #dsohandle) -> URL? {
        for folder in candidateFolders(image: image) {
            let candidate = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }

    /// Where a search for `name` looked, for a failure message.
    ///
    /// - Parameters:
    ///   - name: The product's name.
    ///   - image: A pointer into the image that holds the tests (leave it to its default).
    /// - Returns: The paths tried, one per line.
    public static func searched(for name: String, image: UnsafeRawPointer = #dsohandle) -> String {
        candidateFolders(image: image).map { $0.appendingPathComponent(name).path }.joined(separator: "\n")
    }

    /// The file of the image (executable or library) that holds `address`.
    private static func imagePath(_ address: UnsafeRawPointer) -> String? {
        #if os(Linux) || os(Android)
            // The tests are linked into the executable that runs them.
            return try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #elseif canImport(Darwin)
            var info = Dl_info()
            guard dladdr(address, &info) != 0, let name = info.dli_fname else { return nil }
            return String(cString: name)
        #else
            return nil
        #endif
    }
}
