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
    /// How many operations one iteration performs (a pass over a list of 16 inputs is 16).
    var operationsPerIteration: Int = 1
    /// The index of the contender that this one's row compares with; the benchmark's first reference
    /// when `nil`.
    var versus: Int?
    /// Performs the given number of iterations and returns the time they took, measured by the
    /// contender itself where it must leave work out (setting up each iteration) or measure in
    /// another context (the main actor, a detached task, a child process).
    var run: @Sendable (_ iterations: Int) async throws -> Duration

    /// A contender timed by the harness, around the whole of `body`.
    init(
        name: String, role: Role, operationsPerIteration: Int = 1, versus: Int? = nil,
        body: @escaping @Sendable (_ iterations: Int) async throws -> Void
    ) {
        self.name = name
        self.role = role
        self.operationsPerIteration = operationsPerIteration
        self.versus = versus
        run = { iterations in
            let start = Harness.clock.now
            try await body(iterations)
            return start.duration(to: Harness.clock.now)
        }
    }

    /// A contender that times itself: `measure` returns the time its iterations took.
    static func timed(
        name: String, role: Role, operationsPerIteration: Int = 1, versus: Int? = nil,
        _ measure: @escaping @Sendable (_ iterations: Int) async throws -> Duration
    ) -> Contender {
        var contender = Contender(
            name: name, role: role, operationsPerIteration: operationsPerIteration, versus: versus, body: { _ in })
        contender.run = measure
        return contender
    }
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

    /// Whether a figure meets the target.
    func isMet(ratio: Double?, operationsPerSecond: Double) -> Bool? {
        switch self {
        case .speedupAtLeast(let x): ratio.map { 1 / $0 >= x }
        case .ratioAtMost(let x): ratio.map { $0 <= x }
        case .throughputAtLeast(let x): operationsPerSecond >= x
        }
    }
}

/// A figure of a benchmark: one contender's time against another's, judged against a target or
/// only reported.
struct Check: Sendable {
    /// The index of the contender measured.
    var subject: Int
    /// The index of the contender it is measured against; `nil` for a throughput.
    var reference: Int?
    /// What the figure must be; `nil` for a figure that is only reported.
    var target: Target?
    /// Multiplies the ratio of the two times per operation: `100.0 / 1_000` compares the cost per
    /// step of a launch of 1,000 steps with that of a launch of 100.
    var scale: Double = 1
    /// What the figure is, when it is more than the subject's time against the reference's.
    var figure: String?
}

/// A named comparison of contenders, set up lazily so that `--filter` skips the setup of others.
struct Benchmark: Sendable {
    var name: String
    var summary: String
    /// The figures judged or reported; `nil` for the usual one: the subject against the first
    /// reference, judged against ``target``.
    var checks: [Check]?
    /// The target of the usual figure, when ``checks`` is `nil`.
    var target: Target?
    /// Iterations per batch, for contenders whose batch size must not be calibrated (one child
    /// process an iteration).
    var fixedBatch: Int?
    /// Rounds taken at least in a full run, where the plan's minimum is not enough (a median over at
    /// least 20 processes).
    var minimumRounds: Int?
    var makeContenders: @Sendable () async throws -> [Contender]

    /// A benchmark with the usual figure: the subject against the first reference.
    init(
        name: String, summary: String, target: Target?,
        makeContenders: @escaping @Sendable () async throws -> [Contender]
    ) {
        self.name = name
        self.summary = summary
        self.target = target
        self.makeContenders = makeContenders
    }

    /// A benchmark with figures of its own.
    init(
        name: String, summary: String, checks: [Check], fixedBatch: Int? = nil, minimumRounds: Int? = nil,
        makeContenders: @escaping @Sendable () async throws -> [Contender]
    ) {
        self.name = name
        self.summary = summary
        self.checks = checks
        self.fixedBatch = fixedBatch
        self.minimumRounds = minimumRounds
        self.makeContenders = makeContenders
    }
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
    /// Whether the figures are judged against the targets (not for a smoke run on small inputs), and
    /// benchmarks' own minimum rounds apply.
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
    /// The contender this row compares with (``ratio``); `nil` for a reference and when there is none.
    var versus: String?
    /// The median over rounds of (this contender's time / the other's time in the same round).
    var ratio: Double?
    /// 1 / ratio.
    var speedup: Double?
    /// Operations per second at the median time.
    var operationsPerSecond: Double
}

/// One figure of a benchmark and its verdict.
struct CheckResult: Codable {
    var subject: String
    var reference: String?
    /// What the figure is, when it is more than the subject's time against the reference's.
    var figure: String?
    /// The median over rounds of the same-round ratio of the times per operation, times the scale;
    /// `nil` for a throughput.
    var ratio: Double?
    var target: String?
    /// Whether the target is met; `nil` when there is none or it was not judged.
    var met: Bool?
}

/// The figures of one benchmark.
struct BenchmarkResult: Codable {
    var name: String
    var summary: String
    var rounds: Int
    var seconds: Double
    var contenders: [ContenderResult]
    var checks: [CheckResult]

    /// The figures with a target, judged.
    var judged: [CheckResult] { checks.filter { $0.met != nil } }
}

enum Harness {
    static let clock = ContinuousClock()

    /// Times one batch and returns the nanoseconds per operation.
    static func time(_ contender: Contender, iterations: Int) async throws -> Double {
        let elapsed = try await contender.run(iterations)
        return elapsed.nanoseconds / Double(iterations * contender.operationsPerIteration)
    }

    /// Finds how many iterations fill a batch, warming the contender up on the way.
    static func calibrate(_ contender: Contender, batchSeconds: Double) async throws -> Int {
        // The very first call pays one-time costs (lazy globals, page faults, ICU start-up): discard it.
        // A contender whose one iteration fills several batches (a launch of 1,000 durable writes) is
        // warm after it.
        let first = try await contender.run(1).nanoseconds / 1e9
        if first >= batchSeconds * 4 { return 1 }
        var iterations = 1
        var perIteration = Double.infinity
        // Grow the batch until it lasts a quarter of the wanted time (or one iteration already
        // does), then scale; the runs double as the warm-up.
        while true {
            let seconds = try await contender.run(iterations).nanoseconds / 1e9
            perIteration = seconds / Double(iterations)
            if seconds >= batchSeconds / 4 || iterations >= 1 << 30 { break }
            iterations *= seconds < batchSeconds / 100 ? 16 : 4
        }
        let wanted = max(1, Int((batchSeconds / perIteration).rounded()))
        // One full batch more, so that the measured rounds all start warm (unless the last run was
        // already as large: a contender whose one iteration fills a batch).
        if wanted > iterations { _ = try await contender.run(wanted) }
        return wanted
    }

    /// Runs a benchmark: warm-up and calibration, then rounds in which every contender runs one
    /// batch, alternating the order (A B, B A, ...), until the figures are stable or a limit is hit.
    static func run(_ benchmark: Benchmark, plan: MeasurementPlan) async throws -> BenchmarkResult {
        let began = clock.now
        let contenders = try await benchmark.makeContenders()
        let firstReference = contenders.firstIndex { $0.role == .reference }
        let checks: [Check]
        if let explicit = benchmark.checks {
            checks = explicit
        } else if let target = benchmark.target,
            let subject = contenders.firstIndex(where: { $0.role == .subject })
        {
            checks = [Check(subject: subject, reference: firstReference, target: target)]
        } else {
            checks = []
        }
        for check in checks
        where !([check.subject] + (check.reference.map { [$0] } ?? [])).allSatisfy(contenders.indices.contains) {
            throw BenchError("\(benchmark.name): a check names a contender that is not there")
        }
        var iterations: [Int] = []
        for contender in contenders {
            if let fixed = benchmark.fixedBatch {
                _ = try await contender.run(1)  // the warm-up
                iterations.append(fixed)
            } else {
                iterations.append(try await calibrate(contender, batchSeconds: plan.batchSeconds))
            }
        }
        let minimumRounds =
            plan.judgesTargets ? max(plan.minimumRounds, benchmark.minimumRounds ?? 0) : plan.minimumRounds
        let maximumRounds = max(plan.maximumRounds, minimumRounds)
        var samples = Array(repeating: [Double](), count: contenders.count)
        var rounds = 0
        while true {
            let order = rounds % 2 == 0 ? Array(contenders.indices) : contenders.indices.reversed()
            for index in order {
                samples[index].append(try await time(contenders[index], iterations: iterations[index]))
            }
            rounds += 1
            if rounds < minimumRounds { continue }
            if rounds >= maximumRounds { break }
            let stable = samples.allSatisfy { Statistics.spread($0) <= plan.stableSpread }
            let spent = began.duration(to: clock.now).nanoseconds / 1e9
            if stable || spent >= plan.budgetSeconds { break }
        }
        /// The median over rounds of the same-round ratio of two contenders' times.
        func ratio(_ subject: Int, _ reference: Int) -> Double {
            Statistics.median(zip(samples[subject], samples[reference]).map { $0 / $1 })
        }
        var results: [ContenderResult] = []
        for (index, contender) in contenders.enumerated() {
            let times = samples[index]
            let median = Statistics.median(times)
            let versus = contender.versus ?? firstReference
            let compared = versus.flatMap { $0 == index ? nil : $0 }
            let ratio = compared.map { ratio(index, $0) }
            results.append(
                ContenderResult(
                    name: contender.name, role: contender.role, iterationsPerBatch: iterations[index],
                    operationsPerIteration: contender.operationsPerIteration, medianNanoseconds: median,
                    minimumNanoseconds: times.min()!, maximumNanoseconds: times.max()!,
                    spread: Statistics.spread(times), range: (times.max()! - times.min()!) / median,
                    versus: compared.map { contenders[$0].name }, ratio: ratio, speedup: ratio.map { 1 / $0 },
                    operationsPerSecond: 1e9 / median))
        }
        let checked = checks.map { check in
            let value = check.reference.map { ratio(check.subject, $0) * check.scale }
            let met =
                plan.judgesTargets
                ? check.target?.isMet(ratio: value, operationsPerSecond: results[check.subject].operationsPerSecond)
                : nil
            return CheckResult(
                subject: contenders[check.subject].name, reference: check.reference.map { contenders[$0].name },
                figure: check.figure, ratio: value, target: check.target?.text, met: met)
        }
        return BenchmarkResult(
            name: benchmark.name, summary: benchmark.summary, rounds: rounds,
            seconds: began.duration(to: clock.now).nanoseconds / 1e9, contenders: results, checks: checked)
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
