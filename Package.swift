// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "AppUpgrade",
    products: [
        .library(name: "VersionKit", targets: ["VersionKit"])
    ],
    targets: [
        .target(name: "VersionKit", path: "Modules/VersionKit"),
        .testTarget(name: "VersionKitTests", dependencies: ["VersionKit"], path: "Tests/VersionKitTests"),
    ],
    swiftLanguageModes: [.v6]
)
