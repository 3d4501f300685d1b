// The samples of Modules/VersionKit/VersionKit.docc/GettingStarted.md.

// snippet.read
import VersionKit

// snippet.hide
let shortVersionString = "2.1"
// snippet.show
do {
    let running = try Version(parsing: shortVersionString)  // "2.1" or "2.1.3"
    print(running.major, running.minor, running.patch)  // 2 1 0
} catch {
    // "2.1-beta": unexpected character "-" at offset 3; only ASCII digits 0-9
    // and "." may appear
    print(error)
}
// snippet.end

// snippet.hide
func compare() {
    // snippet.show
    // snippet.compare
    let installed: Version = "2.9"
    print(installed < "2.10")  // true: 9 < 10
    print(installed == "2.9.0")  // true, and they hash alike
    // snippet.hide
}

func stepNames() throws {
    // snippet.show
    // snippet.step-names
    let version = Version(stepName: "appUpgradeTo_8_8_8")  // 8.8.8
    let notAStep = Version(stepName: "appUpgradeTo_1_2_3_4")  // nil: not a step name
    let name = try Version(parsing: "2.0").stepName  // "appUpgradeTo_2_0"
    // snippet.hide
    _ = (version, notAStep, name)
}
