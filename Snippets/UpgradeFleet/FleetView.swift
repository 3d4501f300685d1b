// The sample of the fleet view article,
// Modules/UpgradeFleet/UpgradeFleet.docc/FleetView.md.

// snippet.report
import UpgradeFixtures
import UpgradeFleet
// snippet.hide
import VersionKit

// snippet.show

let fixture = try FixtureLoader.load(file: "Examples/Fleet/notes-3.0.json")
let installed = try InstalledBase.load(file: "Examples/Fleet/installed-base.csv")
let report = FleetReport(fixture: fixture, installed: installed, release: "3.0")
for step in report.lost where step.share > 0.05 {
    print("\(step.id) (\(step.version)) is never run on \(step.devices) devices")  // reindex (2.0) ... 7500 devices
}
for step in report.late { print("\(step.id) (\(step.version)) is late on \(step.devices) devices") }
// snippet.end
