import Foundation

enum Format {
    /// A time per operation with a unit that keeps 3 or 4 significant digits: `12.3 ns`, `4.56 ms`.
    static func time(_ nanoseconds: Double) -> String {
        let (value, unit): (Double, String) =
            switch nanoseconds {
            case ..<1e3: (nanoseconds, "ns")
            case ..<1e6: (nanoseconds / 1e3, "µs")
            case ..<1e9: (nanoseconds / 1e6, "ms")
            default: (nanoseconds / 1e9, "s")
            }
        return "\(significant(value)) \(unit)"
    }

    /// A factor such as `31.2x` or `1,234x`.
    static func factor(_ value: Double) -> String {
        value >= 1000 ? "\(count(value))x" : "\(significant(value))x"
    }

    /// A large count with thousands separators, such as `1,234,567`.
    static func count(_ value: Double) -> String {
        let digits = String(Int(value.rounded()))
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return result
    }

    static func percent(_ fraction: Double) -> String {
        String(format: "%.1f%%", fraction * 100)
    }

    static func significant(_ value: Double) -> String {
        switch value {
        case ..<10: String(format: "%.2f", value)
        case ..<100: String(format: "%.1f", value)
        default: String(format: "%.0f", value)
        }
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let gap = String(repeating: " ", count: max(0, width - text.count))
        return right ? gap + text : text + gap
    }
}

enum Report {
    /// The results as a table: one line a contender, with its target and verdict when it is the
    /// subject of a figure against the contender its row compares with; one line more for each other
    /// figure of the benchmark.
    static func table(_ results: [BenchmarkResult], quick: Bool) -> String {
        var lines: [String] = []
        let header = [
            Format.pad("benchmark / contender", 52), Format.pad("median/op", 11, right: true),
            Format.pad("spread", 7, right: true), Format.pad("vs reference", 16, right: true), "  target",
        ]
        lines.append(header.joined(separator: " "))
        lines.append(String(repeating: "-", count: 122))
        for result in results {
            lines.append(
                "\(result.name)  (\(result.rounds) rounds, \(String(format: "%.1f", result.seconds)) s): \(result.summary)"
            )
            var shown = Set<Int>()
            for contender in result.contenders {
                let versus: String
                switch (contender.role, contender.ratio) {
                case (.reference, .none): versus = "reference"
                case (_, .some(let ratio)): versus = factor(ratio)
                case (_, .none): versus = "\(Format.count(contender.operationsPerSecond))/s"
                }
                var target = ""
                if let index = result.checks.firstIndex(where: {
                    $0.figure == nil && $0.subject == contender.name && $0.reference == contender.versus
                }) {
                    shown.insert(index)
                    target = verdict(result.checks[index])
                }
                let row = [
                    Format.pad("  " + contender.name, 52),
                    Format.pad(Format.time(contender.medianNanoseconds), 11, right: true),
                    Format.pad(Format.percent(contender.spread), 7, right: true), Format.pad(versus, 16, right: true),
                ]
                lines.append(row.joined(separator: " ") + target)
            }
            for (index, check) in result.checks.enumerated() where !shown.contains(index) {
                let row = [
                    Format.pad("  = " + describe(check), 72),
                    Format.pad(check.ratio.map(factor) ?? "", 16, right: true),
                ]
                lines.append(row.joined(separator: " ") + verdict(check))
            }
        }
        lines.append(String(repeating: "-", count: 122))
        if quick {
            lines.append("--quick: a smoke run on smaller inputs; the figures are not meant to be read or judged")
        } else {
            let checked = results.flatMap { result in result.judged.map { (result.name, $0) } }
            let missed = checked.filter { $0.1.met == false }
            lines.append(
                "\(checked.count - missed.count) of \(checked.count) targets met"
                    + (missed.isEmpty
                        ? "" : "; missed: " + missed.map { "\($0.0) (\(describe($0.1)))" }.joined(separator: ", ")))
        }
        lines.append(
            "median/op: median over rounds of a batch's time per operation; spread: IQR/median over rounds;"
                + " vs reference: median over rounds of the same-round time ratio (= lines: the same for a"
                + " figure between two contenders).")
        return lines.joined(separator: "\n")
    }

    /// A ratio as the table shows it: `2.10x faster` below 1, `1.08x the ref` otherwise.
    static func factor(_ ratio: Double) -> String {
        ratio < 1 ? "\(Format.factor(1 / ratio)) faster" : "\(Format.factor(ratio)) the ref"
    }

    /// What a figure is: its own description, or its subject against its reference.
    static func describe(_ check: CheckResult) -> String {
        check.figure ?? "\(check.subject) vs \(check.reference ?? "nothing")"
    }

    /// A figure's target and verdict, for the end of its line; empty without a target.
    static func verdict(_ check: CheckResult) -> String {
        guard let target = check.target else { return "" }
        let verdict =
            switch check.met {
            case .some(true): "met"
            case .some(false): "MISSED"
            case .none: "not judged"
            }
        return "  \(target): \(verdict)"
    }

    /// The results as one JSON object.
    static func json(_ results: [BenchmarkResult], quick: Bool) throws -> String {
        struct Document: Codable {
            var tool = "upgrade-bench"
            var mode: String
            var checksum: String
            var targetsMet: Int
            var targetsMissed: [String]
            var benchmarks: [BenchmarkResult]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let judged = results.flatMap { result in result.judged.map { (result.name, $0) } }
        let document = Document(
            mode: quick ? "quick" : "full", checksum: String(Sink.value, radix: 16),
            targetsMet: judged.filter { $0.1.met == true }.count,
            targetsMissed: judged.filter { $0.1.met == false }.map { "\($0.0): \(describe($0.1))" },
            benchmarks: results)
        return String(decoding: try encoder.encode(document), as: UTF8.self)
    }
}
