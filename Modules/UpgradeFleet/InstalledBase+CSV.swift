import VersionKit

extension InstalledBase {
    /// The one header an installed-base file has.
    package static let header = "version,devices"

    /// Reads an installed base from the bytes of a CSV file.
    ///
    /// The first line that is neither blank (empty, or spaces and tabs only) nor a comment (starting
    /// with `#`) is the header `version,devices`; each later such line is a row `VERSION,DEVICES`.
    /// Lines end with LF or CRLF; a UTF-8 byte-order mark before the header is skipped. A version is read as VersionKit reads it and may appear once
    /// (`1.2` and `1.2.0` are one version); devices is a decimal number of at most 18 decimal places,
    /// without sign, exponent or spaces. The devices must add up to more than 0.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - file: The name errors give the file.
    /// - Returns: The installed base, its rows in ascending version order.
    /// - Throws: ``InstalledBaseError`` naming the file, the line and what is wrong.
    package static func parse(_ bytes: [UInt8], file: String) throws(InstalledBaseError) -> InstalledBase {
        var rows: [Row] = []
        var lineOfVersion: [Version: (line: Int, text: Substring)] = [:]
        var sawHeader = false
        var lineNumber = 0
        // A byte-order mark, as spreadsheets write, is not part of the header.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes[3...] : bytes[...]
        for var line in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { continue }
            if line.first == UInt8(ascii: "#") { continue }
            let text = String(decoding: line, as: UTF8.self)
            func fault(_ message: String) -> InstalledBaseError {
                InstalledBaseError(file: file, line: lineNumber, message: message)
            }
            guard sawHeader else {
                guard text == header else {
                    throw fault("the header is \"\(text)\"; expected \"\(header)\"")
                }
                sawHeader = true
                continue
            }
            let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 2 else {
                throw fault(
                    "\"\(text)\" has \(fields.count) field\(fields.count == 1 ? "" : "s"); expected 2, \(header)")
            }
            let version: Version
            do {
                version = try Version(parsing: fields[0])
            } catch {
                throw fault("version \(error)")
            }
            if let first = lineOfVersion[version] {
                let same = first.text == fields[0] ? "" : " as \(first.text)"
                throw fault("version \(fields[0]) is listed twice: line \(first.line) has it already\(same)")
            }
            lineOfVersion[version] = (lineNumber, fields[0])
            let number: DecimalText
            do {
                number = try DecimalText(parsing: fields[1])
            } catch {
                throw fault("devices \"\(fields[1])\" \(error.reason)")
            }
            rows.append(Row(line: lineNumber, version: version, number: number))
        }
        guard sawHeader else {
            throw InstalledBaseError(
                file: file, message: "the file has no header: expected \"\(header)\", then a row per version")
        }
        return try make(rows, file: file)
    }

    /// Reads an installed base from the text of a CSV file, as `parse(_:file:)` reads its bytes.
    ///
    /// - Parameters:
    ///   - text: The file's contents.
    ///   - file: The name errors give the file.
    /// - Returns: The installed base.
    /// - Throws: ``InstalledBaseError`` naming the file, the line and what is wrong.
    package static func parse(text: String, file: String) throws(InstalledBaseError) -> InstalledBase {
        try parse(Array(text.utf8), file: file)
    }

    /// One row as read, before the file's scale is known.
    private struct Row {
        var line: Int
        var version: Version
        var number: DecimalText
    }

    /// Puts the rows on the file's scale (checking that their sum can be counted exactly), sorts
    /// them and sums them.
    private static func make(_ rows: [Row], file: String) throws(InstalledBaseError) -> InstalledBase {
        let scale = rows.map(\.number.fraction.count).max() ?? 0
        var units: [UInt64] = []
        units.reserveCapacity(rows.count)
        var total: UInt64 = 0
        for row in rows {
            guard let value = row.number.units(scale: scale) else {
                throw InstalledBaseError(
                    file: file, line: row.line,
                    message: "devices \"\(row.number.text)\" is too large to count exactly at \(scale) decimal"
                        + " places (the most any row of the file has)")
            }
            let (sum, overflow) = total.addingReportingOverflow(value)
            guard !overflow else {
                throw InstalledBaseError(
                    file: file, line: row.line,
                    message: "devices \"\(row.number.text)\": the devices up to this line add up to more than can be"
                        + " counted exactly at \(scale) decimal places (the most any row of the file has)")
            }
            total = sum
            units.append(value)
        }
        guard total > 0 else {
            throw InstalledBaseError(
                file: file,
                message: rows.isEmpty
                    ? "the file has no rows after its header: no devices to report on"
                    : "the devices add up to 0: no devices to report on")
        }
        let order = rows.indices.sorted { rows[$0].version < rows[$1].version }
        var prefix: [UInt64] = [0]
        prefix.reserveCapacity(rows.count + 1)
        for index in order { prefix.append(prefix[prefix.count - 1] + units[index]) }
        return InstalledBase(
            file: file, versions: order.map { rows[$0].version }, units: order.map { units[$0] }, prefix: prefix,
            scale: scale)
    }
}
