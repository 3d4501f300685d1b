import Testing
import UpgradeCore

@testable import UpgradeObjC

@Suite("Objective-C steps in a process: the errors a test process can see")
struct ObjectiveCRuntimeTests {
    @Test(
        "a class no runtime knows is an error naming it: unknown on Apple platforms, no runtime in a Swift process on Linux"
    )
    func unknownOrNoRuntime() {
        #expect {
            _ = try UpgradeStep.objectiveCMethods(ofClassNamed: "XXNoSuchUpdater")
        } throws: { error in
            guard let error = error as? ObjectiveCStepsError else { return false }
            return [.unknownClass, .noRuntime].contains(error.code) && error.description.contains("\"XXNoSuchUpdater\"")
        }
    }

    @Test("with the expected ids, a class no runtime knows is the same error, before any list is compared")
    func unknownOrNoRuntimeWithExpectedIDs() {
        #expect {
            _ = try UpgradeStep.objectiveCMethods(ofClassNamed: "XXNoSuchUpdater", expecting: ["appUpgradeTo_1_0"])
        } throws: { error in
            guard let error = error as? ObjectiveCStepsError else { return false }
            return [.unknownClass, .noRuntime].contains(error.code) && error.mismatches.isEmpty
        }
    }

    #if !canImport(ObjectiveC)
        @Test("the libraries the process has mapped are listed once each, by path")
        func mappedLibraries() {
            let libraries = ObjectiveCRuntime.mappedLibraries()
            #expect(libraries.contains { $0.contains("/libc.so") || $0.contains("/libc-") })
            #expect(Set(libraries).count == libraries.count)
        }
    #endif
}
