/// One way of doing a benchmark's work.
struct Contender: Sendable {
    /// What part the contender plays in the benchmark.
    enum Role: String, Codable, Sendable {
        /// The yardstick: the naive pattern or the physical floor; ratios are against it.
        case reference
        /// The code under test; the benchmark's target applies to it.
        case subject
        /// Shown for context; no target applies.
        case info
    }

    var name: String
    var role: Role
    /// How many operations one iteration of ``body`` performs (a pass over a list of 16 inputs is 16).
    var operationsPerIteration: Int = 1
    /// Performs the given number of iterations.
    var body: @Sendable (_ iterations: Int) async throws -> Void
}

/// What a benchmark's subject must achieve.
enum Target: Sendable {
    /// The subject takes at most 1/x of the reference's time.
    case speedupAtLeast(Double)
    /// The subject takes at most x times the reference's time (a floor or a smaller input).
    case ratioAtMost(Double)
    /// The subject performs at least this many operations per second.
    case throughputAtLeast(Double)

    var text: String {
        switch self {
        case .speedupAtLeast(let x): ">= \(Format.factor(x)) faster"
        case .ratioAtMost(let x): "<= \(Format.factor(x)) the reference"
        case .throughputAtLeast(let x): ">= \(Format.count(x))/s"
        }
    }
}

/// A named comparison of contenders, set up lazily so that `--filter` skips the setup of others.
struct Benchmark: Sendable {
    var name: String
    var summary: String
    var target: Target?
    var makeContenders: @Sendable () async throws -> [Contender]
}

/// How long and how hard to measure.
struct MeasurementPlan {
    /// Time a batch should take (iterations are calibrated to it).
    var batchSeconds: Double
    /// Rounds taken at least, after the warm-up.
    var minimumRounds: Int
    /// Rounds taken at most.
    var maximumRounds: Int
    /// Rounds stop early, after the minimum, when every contender's IQR is below this fraction.
    var stableSpread: Double
    /// Rounds stop, after the minimum, once a benchmark has taken this long.
    var budgetSeconds: Double
    /// Whether the figures are judged against the targets (not for a smoke run on small inputs).
    var judgesTargets: Bool

    static let full = MeasurementPlan(
        batchSeconds: 0.02, minimumRounds: 7, maximumRounds: 41, stableSpread: 0.02, budgetSeconds: 6,
        judgesTargets: true)
    static let quick = MeasurementPlan(
        batchSeconds: 0.002, minimumRounds: 5, maximumRounds: 5, stableSpread: 1, budgetSeconds: 0,
        judgesTargets: false)
}

/// The figures of one contender over the rounds.
struct ContenderResult: Codable {
    var name: String
    var role: Contender.Role
    var iterationsPerBatch: Int
    var operationsPerIteration: Int
    /// The median over rounds of the time per operation, in nanoseconds.
    var medianNanoseconds: Double
    var minimumNanoseconds: Double
    var maximumNanoseconds: Double
    /// The interquartile range over rounds divided by the median.
    var spread: Double
    /// (maximum - minimum) / median over rounds.
    var range: Double
    /// The median over rounds of (this contender's time / the reference's time in the same round);
    /// `nil` for the reference itself and when there is none.
    var ratio: Double?
    /// 1 / ratio.
    var speedup: Double?
    /// Operations per second at the median time.
    var operationsPerSecond: Double
}

/// The figures of one benchmark.
struct BenchmarkResult: Codable {
    var name: String
    var summary: String
    var rounds: Int
    var seconds: Double
    var target: String?
    /// Whether the subject met the target; `nil` when the benchmark has none or it was not judged.
    var met: Bool?
    var contenders: [ContenderResult]
}

enum Harness {
    static let clock = ContinuousClock()

    /// Times one batch and returns the nanoseconds per operation.
    static func time(_ contender: Contender, iterations: Int) async throws -> Double {
        let start = clock.now
        try await contender.body(iterations)
        let elapsed = start.duration(to: clock.now)
        return elapsed.nanoseconds / Double(iterations * contender.operationsPerIteration)
    }

    /// Finds how many iterations fill a batch, warming the contender up on the way.
    static func calibrate(_ contender: Contender, batchSeconds: Double) async throws -> Int {
        // The very first call pays one-time costs (lazy globals, page faults, ICU start-up): discard it.
        try await contender.body(1)
        var iterations = 1
        var perIteration = Double.infinity
        // Grow the batch until it lasts a quarter of the wanted time (or one iteration already
        // does), then scale; the runs double as the warm-up.
        while true {
            let start = clock.now
            try await contender.body(iterations)
            let seconds = start.duration(to: clock.now).nanoseconds / 1e9
            perIteration = seconds / Double(iterations)
            if seconds >= batchSeconds / 4 || iterations >= 1 << 30 { break }
            iterations *= seconds < batchSeconds / 100 ? 16 : 4
        }
        let wanted = max(1, Int((batchSeconds / perIteration).rounded()))
        // One full batch more, so that the measured rounds all start warm.
        try await contender.body(wanted)
        return wanted
    }

    /// Runs a benchmark: warm-up and calibration, then rounds in which every contender runs one
    /// batch, alternating the order (A B, B A, ...), until the figures are stable or a limit is hit.
    static func run(_ benchmark: Benchmark, plan: MeasurementPlan) async throws -> BenchmarkResult {
        let began = clock.now
        let contenders = try await benchmark.makeContenders()
        var iterations: [Int] = []
        for contender in contenders {
            iterations.append(try await calibrate(contender, batchSeconds: plan.batchSeconds))
        }
        var samples = Array(repeating: [Double](), count: contenders.count)
        var rounds = 0
        while true {
            let order = rounds % 2 == 0 ? Array(contenders.indices) : contenders.indices.reversed()
            for index in order {
                samples[index].append(try await time(contenders[index], iterations: iterations[index]))
            }
            rounds += 1
            if rounds < plan.minimumRounds { continue }
            if rounds >= plan.maximumRounds { break }
            let stable = samples.allSatisfy { Statistics.spread($0) <= plan.stableSpread }
            let spent = began.duration(to: clock.now).nanoseconds / 1e9
            if stable || spent >= plan.budgetSeconds { break }
        }
        let referenceIndex = contenders.firstIndex { $0.role == .reference }
        var results: [ContenderResult] = []
        for (index, contender) in contenders.enumerated() {
            let times = samples[index]
            let median = Statistics.median(times)
            var ratio: Double?
            if let referenceIndex, referenceIndex != index {
                ratio = Statistics.median(zip(times, samples[referenceIndex]).map { $0 / $1 })
            }
            results.append(
                ContenderResult(
                    name: contender.name, role: contender.role, iterationsPerBatch: iterations[index],
                    operationsPerIteration: contender.operationsPerIteration, medianNanoseconds: median,
                    minimumNanoseconds: times.min()!, maximumNanoseconds: times.max()!,
                    spread: Statistics.spread(times), range: (times.max()! - times.min()!) / median, ratio: ratio,
                    speedup: ratio.map { 1 / $0 }, operationsPerSecond: 1e9 / median))
        }
        var met: Bool?
        if plan.judgesTargets, let target = benchmark.target,
            let subject = results.first(where: { $0.role == .subject })
        {
            switch target {
            case .speedupAtLeast(let x): met = subject.speedup.map { $0 >= x }
            case .ratioAtMost(let x): met = subject.ratio.map { $0 <= x }
            case .throughputAtLeast(let x): met = subject.operationsPerSecond >= x
            }
        }
        return BenchmarkResult(
            name: benchmark.name, summary: benchmark.summary, rounds: rounds,
            seconds: began.duration(to: clock.now).nanoseconds / 1e9, target: benchmark.target?.text, met: met,
            contenders: results)
    }
}

enum Statistics {
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] * (1 - fraction) + sorted[upper] * fraction
    }

    static func median(_ values: [Double]) -> Double { quantile(values, 0.5) }

    /// The interquartile range divided by the median.
    static func spread(_ values: [Double]) -> Double {
        (quantile(values, 0.75) - quantile(values, 0.25)) / median(values)
    }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
