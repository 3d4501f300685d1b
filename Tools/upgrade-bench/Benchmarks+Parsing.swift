import UpgradeExplorer
import VersionKit

/// Benchmarks 1 and 2: reading version strings and step names.
enum ParsingBenchmarks {
    /// A fixed mix of two- and three-component version strings, as stores and Info.plists hold them.
    static let versionStrings = [
        "1.0", "1.2.3", "8.8", "8.8.8", "10.15.7", "2.0.1", "3.14", "12.0.0",
        "0.9.10", "100.200.300", "4.2", "17.4.1", "2023.11", "6.0.3", "9.99.999", "1.02",
    ]

    /// A fixed mix of method names: mostly step names of two and three components in various cases,
    /// and two other methods of the updater class, as `class_copyMethodList` would list them.
    static let methodNames = [
        "appUpgradeTo_1_0", "appUpgradeTo_8_8_8", "appUpgradeTo_10_15_7", "AppUpgradeTo_2_0",
        "appUpgradeTo_3_14", "appUpgradeTo_12_0_1", "appupgradeto_4_2", "appUpgradeTo_100_200_300",
        "appUpgradeTo_6_0_3", "appUpgradeTo_17_4", "updateToVersion", "load",
    ]

    static var all: [Benchmark] {
        [
            Benchmark(
                name: "parse-version",
                summary: "read one version string (a fixed mix of 2- and 3-component strings)",
                target: .speedupAtLeast(15),
                makeContenders: {
                    [
                        Contender(
                            name: "naive: components(separatedBy:) + intValue", role: .reference,
                            operationsPerIteration: versionStrings.count
                        ) { iterations in
                            let inputs = Sink.opaque(versionStrings)
                            for _ in 0..<iterations {
                                var fold = 0
                                for text in inputs {
                                    let version = NaivePattern.getVersionByStr(text)
                                    fold &+= version.count &+ Int(version[0]) &+ Int(version[version.count - 1])
                                }
                                Sink.consume(fold)
                            }
                        },
                        Contender(
                            name: "VersionKit: Version(parsing:)", role: .subject,
                            operationsPerIteration: versionStrings.count
                        ) { iterations in
                            let inputs = Sink.opaque(versionStrings)
                            for _ in 0..<iterations {
                                var fold = 0
                                for text in inputs {
                                    if let version = try? Version(parsing: text) {
                                        fold &+= version.componentCount &+ version.major &+ version.patch
                                    }
                                }
                                Sink.consume(fold)
                            }
                        },
                    ]
                }),
            Benchmark(
                name: "parse-step-name",
                summary: "read one method name as a step name (10 step names in mixed case, 2 other methods)",
                target: .speedupAtLeast(150),
                makeContenders: {
                    [
                        Contender(
                            name: "naive: NSRegularExpression per call", role: .reference,
                            operationsPerIteration: methodNames.count
                        ) { iterations in
                            let inputs = Sink.opaque(methodNames)
                            for _ in 0..<iterations {
                                var fold = 0
                                for name in inputs {
                                    if let version = NaivePattern.getVersionByMethodName(name) {
                                        fold &+= version.count &+ Int(version[0]) &+ Int(version[version.count - 1])
                                    }
                                }
                                Sink.consume(fold)
                            }
                        },
                        Contender(
                            name: "VersionKit: Version(stepName:)", role: .subject,
                            operationsPerIteration: methodNames.count
                        ) { iterations in
                            let inputs = Sink.opaque(methodNames)
                            for _ in 0..<iterations {
                                var fold = 0
                                for name in inputs {
                                    if let version = Version(stepName: name) {
                                        fold &+= version.componentCount &+ version.major &+ version.patch
                                    }
                                }
                                Sink.consume(fold)
                            }
                        },
                    ]
                }),
        ]
    }
}
