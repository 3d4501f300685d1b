import Foundation
import Testing
import UpgradeTestSupport
import VersionKit

@testable import UpgradeFleet

@Suite("installed base: reading the CSV file")
struct InstalledBaseTests {
    static func error(_ text: String) -> InstalledBaseError? {
        do {
            _ = try InstalledBase.parse(text: text, file: "installed.csv")
            return nil
        } catch {
            return error
        }
    }

    @Test("rows in any order come out ascending, each version once, with exact sums")
    func reads() throws {
        let base = try InstalledBase.parse(text: FleetSamples.installed, file: "installed.csv")
        #expect(base.versions.map(\.description) == ["1.0", "1.1", "1.2", "1.5", "1.9", "2.0", "2.1"])
        #expect(
            base.versions.indices.map { base.devices(at: $0).description } == ["10", "20", "30", "5", "0", "15", "20"])
        #expect(base.total.description == "100")
        #expect(base.devices(below: .v("1.2")).description == "30")
        #expect(base.devices(below: .v("1.1.5")).description == "30")
        #expect(base.devices(below: .v("0.1")).description == "0")
        #expect(base.devices(below: .v("9.0")).description == "100")
        #expect(base.devices(from: .v("1.2"), below: .v("2.0")).description == "35")
        #expect(base.devices(from: .v("2.0"), below: .v("1.2")).description == "0")
    }

    @Test("CRLF line ends, a byte-order mark, comments before the header, blank lines of spaces, no final line break")
    func lenient() throws {
        let text =
            "\u{FEFF}# exported 2026-12-01\r\n\r\nversion,devices\r\n  \t\r\n1.2,0.25\r\n# a comment\r\n1.02.1,0.750"
        let base = try InstalledBase.parse(text: text, file: "installed.csv")
        #expect(base.versions.map(\.description) == ["1.2", "1.2.1"])
        #expect(base.scale == 3)
        #expect(base.devices(at: 1).description == "0.75")
        #expect(base.total.description == "1")
    }

    @Test("the numbers: whole, decimal, leading zeros, 18 decimal places, the 64-bit limit")
    func numbers() throws {
        let base = try InstalledBase.parse(
            text: "version,devices\n1.0,007\n1.1,0.000000000000000001\n1.2,1.5\n", file: "n.csv")
        #expect(base.scale == 18)
        #expect(base.total.description == "8.500000000000000001")
        let large = try InstalledBase.parse(text: "version,devices\n1.0,18446744073709551615\n", file: "n.csv")
        #expect(large.total.description == "18446744073709551615")
    }

    @Test(
        "every fault names the file, the line and what is wrong",
        arguments: [
            ("", "installed.csv: the file has no header: expected \"version,devices\", then a row per version"),
            (
                "# only a comment\n\n",
                "installed.csv: the file has no header: expected \"version,devices\", then a row per version"
            ),
            (
                "version,count\n1.0,5\n",
                "installed.csv:1: the header is \"version,count\"; expected \"version,devices\""
            ),
            ("1.0,5\n", "installed.csv:1: the header is \"1.0,5\"; expected \"version,devices\""),
            (
                "# c\nVersion,Devices\n",
                "installed.csv:2: the header is \"Version,Devices\"; expected \"version,devices\""
            ),
            ("version, devices\n", "installed.csv:1: the header is \"version, devices\"; expected \"version,devices\""),
            ("version,devices\n1.0,5,6\n", "installed.csv:2: \"1.0,5,6\" has 3 fields; expected 2, version,devices"),
            ("version,devices\n\n1.0\n", "installed.csv:3: \"1.0\" has 1 field; expected 2, version,devices"),
            ("version,devices\n1.x,5\n", "installed.csv:2: version \"1.x\": unexpected character \"x\" at offset 2"),
            ("version,devices\n1,5\n", "installed.csv:2: version \"1\": "),
            ("version,devices\n,5\n", "installed.csv:2: version \"\": "),
            (
                "version,devices\n1.0,-5\n",
                "installed.csv:2: devices \"-5\" is negative; a number of devices is 0 or more"
            ),
            ("version,devices\n1.0,+5\n", "installed.csv:2: devices \"+5\" has a sign; write the number without it"),
            ("version,devices\n1.0,1e3\n", "installed.csv:2: devices \"1e3\" has an exponent; write the digits out"),
            (
                "version,devices\n1.0,nan\n",
                "installed.csv:2: devices \"nan\" is not a number; write a number such as 12 or 0.35"
            ),
            ("version,devices\n1.0,Infinity\n", "installed.csv:2: devices \"Infinity\" is not a number; "),
            ("version,devices\n1.0,abc\n", "installed.csv:2: devices \"abc\" is not a decimal number; "),
            ("version,devices\n1.0,1.2.3\n", "installed.csv:2: devices \"1.2.3\" is not a decimal number; "),
            ("version,devices\n1.0,\n", "installed.csv:2: devices \"\" is empty; write a number such as 12 or 0.35"),
            ("version,devices\n1.0, 5\n", "installed.csv:2: devices \" 5\" has a space; "),
            ("version,devices\n1.0,5.\n", "installed.csv:2: devices \"5.\" needs digits on both sides of the point"),
            ("version,devices\n1.0,.5\n", "installed.csv:2: devices \".5\" needs digits on both sides of the point"),
            (
                "version,devices\n1.0,0.1234567890123456789\n",
                "installed.csv:2: devices \"0.1234567890123456789\" has more than 18 digits after the point"
            ),
            (
                "version,devices\n1.2,5\n1.2.0,6\n",
                "installed.csv:3: version 1.2.0 is listed twice: line 2 has it already as 1.2"
            ),
            (
                "version,devices\n1.2,5\n# x\n1.2,6\n",
                "installed.csv:4: version 1.2 is listed twice: line 2 has it already"
            ),
            ("version,devices\n", "installed.csv: the file has no rows after its header: no devices to report on"),
            ("version,devices\n1.0,0\n1.1,0.00\n", "installed.csv: the devices add up to 0: no devices to report on"),
            (
                "version,devices\n1.0,18446744073709551616\n",
                "installed.csv:2: devices \"18446744073709551616\" is too large to count exactly at 0 decimal places"
            ),
            (
                "version,devices\n1.0,10000000000000000000\n1.1,0.1\n",
                "installed.csv:2: devices \"10000000000000000000\" is too large to count exactly at 1 decimal places"
            ),
            (
                "version,devices\n1.0,10000000000000000000\n1.1,9000000000000000000\n",
                "installed.csv:3: devices \"9000000000000000000\": the devices up to this line add up to more than"
            ),
        ])
    func faults(text: String, message: String) throws {
        let error = try #require(Self.error(text))
        #expect(error.description.hasPrefix(message), "\(error)")
    }

    @Test("a missing file, and a folder, are named with what is wrong")
    func files() throws {
        let folder = try TemporaryDirectory("installed-base")
        defer { folder.remove() }
        #expect(throws: InstalledBaseError(file: folder.file("none.csv").path, message: "no such file")) {
            try InstalledBase.load(file: folder.file("none.csv").path)
        }
        #expect(throws: InstalledBaseError(file: folder.url.path, message: "is a folder, not an installed-base file")) {
            try InstalledBase.load(file: folder.url.path)
        }
        try Data("version,devices\n1.0,3\n".utf8).write(to: folder.file("ok.csv"))
        #expect(try InstalledBase.load(file: folder.file("ok.csv").path).total.description == "3")
    }

    @Test("device counts write their exact value without trailing zeros")
    func deviceCountText() {
        #expect(DeviceCount(units: 0, scale: 0).description == "0")
        #expect(DeviceCount(units: 0, scale: 3).description == "0")
        #expect(DeviceCount(units: 1200, scale: 0).description == "1200")
        #expect(DeviceCount(units: 1200, scale: 3).description == "1.2")
        #expect(DeviceCount(units: 5, scale: 3).description == "0.005")
        #expect(DeviceCount(units: 12_345, scale: 2).description == "123.45")
        #expect(DeviceCount(units: 25, scale: 2).value == 0.25)
    }
}
