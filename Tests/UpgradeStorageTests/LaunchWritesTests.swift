import Foundation
import Testing
import UpgradeCore
import UpgradeStorage
import UpgradeTestSupport
import VersionKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file store's writes within one launch (FileUpgradeStore.swift, "LaunchWrites"): the first
/// write checks the folder and the document, the later ones go straight to the write and reuse the
/// text of the records already written. These tests hold at both durability levels.
@Suite("File store: the writes of one launch")
struct LaunchWritesTests {
    /// The document as a second store object reads it, as another process would.
    static func stored(_ fixture: StoreFixture) throws -> UpgradeState? {
        try FileUpgradeStore(url: fixture.fileURL).load()
    }

    /// The names in the store's folder that are temporary files.
    static func temporaryFiles(_ fixture: StoreFixture) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixture.folder.path).filter { $0.contains(".tmp-") }
    }

    @Test(
        "every step finds the steps before it completed and itself in progress in the file, and no temporary file is left",
        arguments: FileUpgradeStore.Durability.allCases)
    func eachWriteIsInTheFile(durability: FileUpgradeStore.Durability) async throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: durability)
        let seen = Locked<[String]>([])
        let versions: [Version] = ["1.1", "1.2", "1.3", "1.4", "1.5", "1.6"]
        let upgrader = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0"))) {
            versions.map { version in
                UpgradeStep(version) {
                    let state = try Self.stored(fixture)
                    seen.append(
                        "\(version): \(state?.completed.map(\.id) ?? []) \(state?.inProgress?.id ?? "-")")
                }
            }
        }
        let report = try await upgrader.run(currentVersion: "1.6")
        #expect(report.outcome == .upgraded)
        #expect(
            seen.value
                == versions.indices.map { index in
                    "\(versions[index]): \(versions[..<index].map(\.stepName)) \(versions[index].stepName)"
                })
        let final = try #require(try Self.stored(fixture))
        #expect(final.upgradedThrough == "1.6" && final.completed.isEmpty && final.inProgress == nil)
        #expect(try Self.temporaryFiles(fixture).isEmpty)
        // The next launch of the same store object starts its checks again: nothing to do, nothing written.
        #expect(try await upgrader.run(currentVersion: "1.6").outcome == .upToDate)
    }

    @Test(
        "a reader that opened the document before a launch's writes reads the old document whole",
        arguments: FileUpgradeStore.Durability.allCases)
    func openReaderKeepsTheOldDocument(durability: FileUpgradeStore.Durability) async throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: durability)
        let upgrader = Upgrader(store: store) {
            UpgradeStep("2.0") {}
            UpgradeStep("2.1") {}
            UpgradeStep("2.2") {}
        }
        #expect(try await upgrader.run(currentVersion: "1.0").outcome == .freshInstall)
        let before = try Data(contentsOf: fixture.fileURL)
        let descriptor = open(fixture.fileURL.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(try await upgrader.run(currentVersion: "2.2").steps.count == 3)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        #expect(Data(buffer[..<max(count, 0)]) == before)
        #expect(try Self.stored(fixture)?.upgradedThrough == "2.2")
    }

    @Test(
        "a folder removed by a step is made again by the launch's next write",
        arguments: FileUpgradeStore.Durability.allCases)
    func folderRemovedDuringALaunch(durability: FileUpgradeStore.Durability) async throws {
        let fixture = try StoreFixture(.file)
        let nested = fixture.folder.appending(path: "nested/upgrade-state.json")
        let store = FileUpgradeStore(url: nested, durability: durability)
        let upgrader = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0"))) {
            UpgradeStep("1.1") {}
            UpgradeStep("1.2") { try FileManager.default.removeItem(at: nested.deletingLastPathComponent()) }
            UpgradeStep("1.3") {}
        }
        let report = try await upgrader.run(currentVersion: "1.3")
        #expect(report.outcome == .upgraded)
        #expect(report.steps.map(\.result.kind) == [.completed, .completed, .completed])
        #expect(try FileUpgradeStore(url: nested).load()?.upgradedThrough == "1.3")
    }

    @Test(
        "a write that fails in the middle of a launch leaves the document of the write before, and no temporary file",
        arguments: FileUpgradeStore.Durability.allCases)
    func failedLaterWrite(durability: FileUpgradeStore.Durability) async throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: durability, calls: FaultInjectingCalls())
        let faulted = Locked(0)
        let upgrader = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0"))) {
            UpgradeStep("1.1") {}
            UpgradeStep("1.2") {  // the write after this step's first attempt fails
                if faulted.value == 0 { store.injectFault(EIO, at: .write) }
                faulted.increment()
            }
            UpgradeStep("1.3") {}
        }
        await #expect(throws: UpgradeStoreError.self) { try await upgrader.run(currentVersion: "1.3") }
        let state = try #require(try Self.stored(fixture))
        #expect(state.completed.map(\.id) == ["appUpgradeTo_1_1"])
        #expect(state.inProgress?.id == "appUpgradeTo_1_2")
        #expect(try Self.temporaryFiles(fixture).isEmpty)
        // The next launch counts the interrupted attempt and finishes.
        let next = try await upgrader.run(currentVersion: "1.3")
        #expect(next.outcome == .upgraded)
        #expect(next.steps.map(\.id) == ["appUpgradeTo_1_2", "appUpgradeTo_1_3"])
        #expect(next.steps.first?.previousAttemptInterrupted == true)
        #expect(try Self.stored(fixture)?.upgradedThrough == "1.3")
    }
}

extension LaunchWritesTests {
    @Test(
        "a document replaced during a launch by a writer without the lock is checked like any other: a newer format is not overwritten",
        arguments: FileUpgradeStore.Durability.allCases)
    func replacedDuringALaunch(durability: FileUpgradeStore.Durability) async throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: durability)
        let newer = Data("{\"format\": 99, \"from\": \"a later app\"}\n".utf8)
        let upgrader = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0"))) {
            UpgradeStep("1.1") {}
            UpgradeStep("1.2") { try newer.write(to: fixture.fileURL) }
            UpgradeStep("1.3") {}
        }
        let error = await #expect(throws: UpgradeStoreError.self) { try await upgrader.run(currentVersion: "1.3") }
        #expect(error?.code == .unsupportedFormat(found: 99, supported: StateDocument.format))
        #expect(try Data(contentsOf: fixture.fileURL) == newer)
        #expect(try Self.temporaryFiles(fixture).isEmpty)
    }

    @Test("after a launch, a save over a document that does not parse throws, and leaves it as it is")
    func afterALaunchTheChecksApply() async throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: .appKill)
        let upgrader = Upgrader(store: store, policy: UpgradePolicy(freshInstall: .upgradeFrom("1.0"))) {
            UpgradeStep("1.1") {}
        }
        #expect(try await upgrader.run(currentVersion: "1.1").outcome == .upgraded)
        let damaged = Data("{\"format\": 2,".utf8)
        try damaged.write(to: fixture.fileURL)
        let error = #expect(throws: UpgradeStoreError.self) { try store.save(UpgradeState()) }
        #expect(error?.code == .corrupt)
        #expect(try Data(contentsOf: fixture.fileURL) == damaged)
    }

    @Test(
        "saves that overlap while a launch holds the lock each write a whole document of their own",
        arguments: FileUpgradeStore.Durability.allCases)
    func overlappingSaves(durability: FileUpgradeStore.Durability) async throws {
        let fixture = try StoreFixture(.file)
        let store = FileUpgradeStore(url: fixture.fileURL, durability: durability)
        let lock = try await store.lockForLaunch()
        defer { lock.unlock() }
        _ = try store.loadForLaunch()
        let states = (1...8).map { UpgradeState(upgradedThrough: Version(major: $0, minor: 0), lastLaunched: "9.0") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for state in states {
                group.addTask {
                    for _ in 0..<25 { try store.save(state) }
                }
            }
            try await group.waitForAll()
        }
        let final = try #require(try Self.stored(fixture))
        #expect(states.contains(final))
        #expect(try Self.temporaryFiles(fixture).isEmpty)
    }
}
