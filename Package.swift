// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "AppUpgrade",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "VersionKit", targets: ["VersionKit"]),
        .library(name: "UpgradeCore", targets: ["UpgradeCore"]),
        .library(name: "UpgradeStorage", targets: ["UpgradeStorage"]),
        .library(name: "UpgradeFixtures", targets: ["UpgradeFixtures"]),
        .library(name: "UpgradeReplay", targets: ["UpgradeReplay"]),
        .library(name: "UpgradeExplorer", targets: ["UpgradeExplorer"]),
        .library(name: "UpgradeFleet", targets: ["UpgradeFleet"]),
        .library(name: "UpgradeObjC", targets: ["UpgradeObjC"]),
        .executable(name: "upgrade-sim", targets: ["upgrade-sim"]),
        .plugin(name: "UpgradeSimPlugin", targets: ["UpgradeSimPlugin"]),
    ],
    targets: [
        // Libraries.
        .target(name: "VersionKit", path: "Modules/VersionKit"),
        .target(name: "UpgradeCore", dependencies: ["VersionKit"], path: "Modules/UpgradeCore"),
        .target(name: "UpgradeStorage", dependencies: ["UpgradeCore", "StrictJSON"], path: "Modules/UpgradeStorage"),
        // The simulator, one concern per product: fixtures (model, decoder, errors); their replay, in
        // memory and in processes; the explorer; the fleet view.
        .target(
            name: "UpgradeFixtures", dependencies: ["UpgradeCore", "StrictJSON", "VersionKit"],
            path: "Modules/UpgradeFixtures"),
        .target(
            name: "UpgradeReplay",
            dependencies: ["UpgradeFixtures", "UpgradeCore", "UpgradeStorage", "StrictJSON", "ProcessSpawning"],
            path: "Modules/UpgradeReplay"),
        .target(
            name: "UpgradeExplorer",
            dependencies: ["UpgradeFixtures", "UpgradeReplay", "UpgradeCore", "UpgradeStorage"],
            path: "Modules/UpgradeExplorer"),
        .target(
            name: "UpgradeFleet", dependencies: ["UpgradeFixtures", "VersionKit"],
            path: "Modules/UpgradeFleet"),
        .target(name: "UpgradeObjC", dependencies: ["UpgradeCore"], path: "Modules/UpgradeObjC"),
        // Not a product: the package's one strict JSON reader and writer (`package` access), shared by
        // the state document of UpgradeStorage and the fixtures of UpgradeFixtures.
        .target(name: "StrictJSON", dependencies: ["VersionKit"], path: "Modules/StrictJSON"),
        // Not a product: the simulator's renderers (`package` access), one shape for every report: the
        // libraries return reports, upgrade-sim renders and prints them.
        .target(
            name: "UpgradeSimReports",
            dependencies: ["UpgradeFixtures", "UpgradeReplay", "UpgradeExplorer", "UpgradeFleet", "StrictJSON"],
            path: "Modules/UpgradeSimReports"),
        // Not a product: starts child processes with posix_spawn, inheriting only the descriptors they are
        // given, and reaps them off the concurrency pool (`package` access); for process replay, the
        // tools and the tests.
        .target(name: "ProcessSpawning", path: "Modules/ProcessSpawning"),

        // Tools.
        .executableTarget(
            name: "upgrade-sim",
            dependencies: [
                "UpgradeFixtures", "UpgradeReplay", "UpgradeExplorer", "UpgradeFleet", "UpgradeSimReports",
                "StrictJSON",
            ],
            path: "Tools/upgrade-sim"),
        // Not a product: measures the package against the naive pattern and the physical floor.
        .executableTarget(
            name: "upgrade-bench",
            dependencies: [
                "VersionKit", "UpgradeCore", "UpgradeStorage", "UpgradeFixtures", "UpgradeReplay", "UpgradeExplorer",
                "ProcessSpawning",
            ],
            path: "Tools/upgrade-bench"),
        // Not a product: fuzzes the input readers with libFuzzer (Scripts/fuzz.sh), or replays a corpus (CI).
        .executableTarget(
            name: "upgrade-fuzz",
            dependencies: [
                "VersionKit", "UpgradeCore", "UpgradeStorage", "UpgradeFixtures", "UpgradeReplay", "UpgradeFleet",
                "StrictJSON",
            ],
            path: "Tools/upgrade-fuzz"),

        // Plugins: `swift package upgrade-sim ...` in a package that depends on this one.
        .plugin(
            name: "UpgradeSimPlugin",
            capability: .command(
                intent: .custom(
                    verb: "upgrade-sim",
                    description: "Replay or explore upgrade-path fixtures with the upgrade-sim tool")),
            dependencies: ["upgrade-sim"],
            path: "Plugins/UpgradeSimPlugin"),

        // Test support (not a product).
        .target(name: "UpgradeTestSupport", dependencies: ["ProcessSpawning"], path: "Tests/UpgradeTestSupport"),
        // Writes, locks and crashes a file store in a real process, for the storage tests.
        .executableTarget(
            name: "store-torture", dependencies: ["UpgradeStorage", "UpgradeCore", "VersionKit", "UpgradeTestSupport"],
            path: "Tests/StoreTorture"),

        // Loads Objective-C steps compiled by Scripts/objc-runtime-tests.sh and runs them through the
        // upgrader, one process per launch (not a product).
        .executableTarget(
            name: "objc-runtime-tester",
            dependencies: ["UpgradeObjC", "UpgradeStorage", "UpgradeCore", "VersionKit", "ProcessSpawning"],
            path: "Tests/ObjCRuntimeTester"),

        // Tests.
        .testTarget(
            name: "VersionKitTests", dependencies: ["VersionKit", "UpgradeTestSupport"], path: "Tests/VersionKitTests"),
        .testTarget(
            name: "ProcessSpawningTests", dependencies: ["ProcessSpawning"], path: "Tests/ProcessSpawningTests"),
        .testTarget(
            name: "StrictJSONTests", dependencies: ["StrictJSON", "VersionKit"], path: "Tests/StrictJSONTests"),
        .testTarget(
            name: "UpgradeStorageTests",
            dependencies: [
                "UpgradeStorage", "UpgradeCore", "VersionKit", "StrictJSON", "UpgradeTestSupport", "store-torture",
            ],
            path: "Tests/UpgradeStorageTests"),
        .testTarget(
            name: "UpgradeObjCTests", dependencies: ["UpgradeObjC", "UpgradeCore", "VersionKit"],
            path: "Tests/UpgradeObjCTests"),
        .testTarget(
            name: "UpgradeCoreTests", dependencies: ["UpgradeCore", "UpgradeTestSupport"],
            path: "Tests/UpgradeCoreTests"),
        .testTarget(
            name: "UpgradeSimulationTests",
            dependencies: [
                "UpgradeFixtures", "UpgradeReplay", "UpgradeExplorer", "UpgradeFleet", "UpgradeSimReports",
                "StrictJSON", "UpgradeTestSupport",
                "upgrade-sim",
            ],
            path: "Tests/UpgradeSimulationTests"),
    ],
    swiftLanguageModes: [.v6]
)
