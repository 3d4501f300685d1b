// swift-tools-version: 6.2
import PackageDescription

// An example app that adopts AppUpgrade: a command-line notes app whose three releases (1.1, 2.0,
// 2.1) each bring an upgrade step. It is its own package, depending on the AppUpgrade checkout it
// lives in, as an app depends on AppUpgrade; build and test it with
// `swift build --package-path Examples/NotesApp` and `swift test --package-path Examples/NotesApp`.
let package = Package(
    name: "NotesApp",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "notes", targets: ["notes"])
    ],
    dependencies: [
        // Named, so that the products below can say `package: "AppUpgrade"` whatever the checkout's
        // folder is called (a path dependency's identity is otherwise its folder name).
        .package(name: "AppUpgrade", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "notes",
            dependencies: [
                .product(name: "UpgradeCore", package: "AppUpgrade"),
                .product(name: "UpgradeStorage", package: "AppUpgrade"),
                .product(name: "VersionKit", package: "AppUpgrade"),
            ]),
        .testTarget(
            name: "NotesAppTests",
            dependencies: [
                "notes", .product(name: "UpgradeFixtures", package: "AppUpgrade"),
                .product(name: "UpgradeReplay", package: "AppUpgrade"),
                .product(name: "UpgradeStorage", package: "AppUpgrade"),
                .product(name: "VersionKit", package: "AppUpgrade"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
