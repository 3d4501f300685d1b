#if os(Linux) || os(macOS)
    import Foundation
    import UpgradeCore
    import UpgradeObjC
    import UpgradeStorage
    import VersionKit

    /// One launch of an app whose steps are the class methods of an Objective-C class.
    enum Launch {
        /// Loads the library, runs the upgrader once, and returns the JSON to print and the exit status.
        @MainActor
        static func run(_ options: Options) async -> (String, Int32) {
            let library = options.value("--library")
            if library != "none" {
                let mode = options.value("--load") == "global" ? RTLD_GLOBAL : RTLD_LOCAL
                guard dlopen(library, RTLD_NOW | mode) != nil else {
                    return (json(["error": "dlopen \(library): \(String(cString: dlerror()))", "code": "tester"]), 2)
                }
            }
            let store = FileUpgradeStore(url: URL(fileURLWithPath: options.value("--store")))
            do {
                let upgrader = try Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("0.9"))) {
                    // The Objective-C steps mix with a floor and a Swift step.
                    UpgradeStep("1.0", id: "swift-floor") {}.asFloor()
                    if let expected = options.optional("--expect") {
                        try UpgradeStep.objectiveCMethods(
                            ofClassNamed: options.value("--class"), expecting: list(expected),
                            overridden: Set(list(options.optional("--overridden") ?? "")))
                    } else {
                        try UpgradeStep.objectiveCMethods(ofClassNamed: options.value("--class"))
                    }
                    UpgradeStep("2.5", id: "swift-2.5") {}
                }
                let report = try await upgrader.run(currentVersion: Version(parsing: options.value("--version")))
                var object: [String: Any] = [
                    "outcome": report.outcome.description, "ran": report.ranStepIDs,
                    "upgradedThrough": report.upgradedThrough?.description ?? NSNull(),
                ]
                if let failed = report.failedStep { object["failed"] = failed.id }
                return (json(object), 0)
            } catch let error as ObjectiveCStepsError {
                return (json(["error": error.description, "code": "\(error.code)"]), 1)
            } catch {
                return (json(["error": "\(error)", "code": "other"]), 1)
            }
        }

        /// The names of a comma-separated list (none for an empty one).
        static func list(_ text: String) -> [String] {
            text.split(separator: ",").map(String.init)
        }

        static func json(_ object: [String: Any]) -> String {
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
    }
#endif
