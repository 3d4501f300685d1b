import UpgradeFixtures
import UpgradeFleet
import VersionKit

/// The `installed-base` target: the input as the bytes of an installed-base CSV file, read as
/// `upgrade-sim fleet` reads one, then a fleet report over what it accepts.
enum InstalledBaseChecks {
    static let file = "fuzz-input.csv"

    /// A fixture with a step added later, a step removed, and a floor, for the reports.
    static let fixture = Fixture(
        name: "fuzz",
        steps: [
            ScriptedStep(version: Version(major: 1, minor: 1), durationMs: 10),
            ScriptedStep(version: Version(major: 1, minor: 5), id: "late", since: Version(major: 2, minor: 0)),
            ScriptedStep(
                version: Version(major: 2, minor: 0), id: "lost", durationMs: 7, until: Version(major: 2, minor: 0)),
            ScriptedStep(version: Version(major: 3, minor: 0)),
        ],
        floor: .floor(Version(major: 1, minor: 2), durationMs: 5, since: Version(major: 2, minor: 5)))

    /// Checks the installed-base reader, and the report, on one input.
    ///
    /// - Parameter input: The input's bytes.
    /// - Throws: The first property that failed.
    static func check(_ input: UnsafeRawBufferPointer) throws(PropertyFailure) {
        let bytes = [UInt8](input)
        let read = Result { () throws(InstalledBaseError) in try InstalledBase.parse(bytes, file: file) }
        // The text reader agrees with the bytes reader wherever the bytes are valid UTF-8.
        let text = String(decoding: bytes, as: UTF8.self)
        if text.utf8.elementsEqual(bytes) {
            let fromText = Result { () throws(InstalledBaseError) in try InstalledBase.parse(text: text, file: file) }
            try require(fromText == read, "the text reader agrees with the bytes reader", "\(fromText) versus \(read)")
        }
        switch read {
        case .failure(let error):
            try require(
                error.file == file && error.description.hasBytePrefix(file + ":"), "the error names the file",
                "\(error)")
            if let line = error.line {
                try require(
                    line >= 1 && error.description.hasBytePrefix("\(file):\(line): "), "the error names its line",
                    "\(error)")
            }
            try require(!error.message.isEmpty, "the error says what is wrong", "\(error)")
        case .success(let base):
            try checkAccepted(base)
        }
    }

    /// An accepted installed base is sorted, adds up to more than 0, writes back to the same rows,
    /// and its reports add up.
    private static func checkAccepted(_ base: InstalledBase) throws(PropertyFailure) {
        try require(
            zip(base.versions, base.versions.dropFirst()).allSatisfy { $0 < $1 }, "the versions ascend, each once",
            "\(base.versions)")
        try require(base.total.units > 0, "the devices add up to more than 0", "\(base.total)")
        let rows = base.versions.indices.map { "\(base.versions[$0]),\(base.devices(at: $0))" }
        let written = ([InstalledBase.header] + rows).joined(separator: "\n")
        let again = Result { () throws(InstalledBaseError) in try InstalledBase.parse(text: written, file: file) }
        guard case .success(let reread) = again else {
            throw PropertyFailure(property: "the rows written as CSV read back", detail: "\(again) from\n\(written)")
        }
        let rereadRows = reread.versions.indices.map { "\(reread.versions[$0]),\(reread.devices(at: $0))" }
        try require(rereadRows == rows, "the rows written as CSV read back to the same rows", "\(rereadRows)")
        let releases = [base.versions[0], base.versions[base.versions.count / 2], Version(major: 2, minor: 5)]
        for release in releases {
            let report = FleetReport(fixture: fixture, installed: base, release: release)
            try require(
                report.updating.units + report.current.units == report.devices.units,
                "updating and current add up to all devices", "at \(release): \(report.updating) + \(report.current)")
            try require(
                report.steps.allSatisfy { $0.devices.units <= report.updating.units } && report.stepsPerDevice.max <= 5,
                "no step runs on more devices than update, and no device runs more steps than there are",
                "at \(release): \(report.steps), \(report.stepsPerDevice)")
        }
    }
}
