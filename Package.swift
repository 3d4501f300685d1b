// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "AppUpgrade",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "VersionKit", targets: ["VersionKit"]),
        .library(name: "UpgradeCore", targets: ["UpgradeCore"]),
        .library(name: "UpgradeStorage", targets: ["UpgradeStorage"]),
    ],
    targets: [
        // Libraries.
        .target(name: "VersionKit", path: "Modules/VersionKit"),
        .target(name: "UpgradeCore", dependencies: ["VersionKit"], path: "Modules/UpgradeCore"),
        .target(name: "UpgradeStorage", dependencies: ["UpgradeCore"], path: "Modules/UpgradeStorage"),

        // Test support (not a product).
        .target(name: "UpgradeTestSupport", path: "Tests/UpgradeTestSupport"),

        // Tests.
        .testTarget(
            name: "UpgradeCoreTests", dependencies: ["UpgradeCore", "UpgradeTestSupport"],
            path: "Tests/UpgradeCoreTests"),
    ],
    swiftLanguageModes: [.v6]
)
