/// The mean, median, 90th percentile and maximum of a whole number per device (steps run, or
/// milliseconds taken), over devices weighted by their count.
///
/// The q-th percentile is the smallest value v such that the devices with a value at or below v
/// weigh at least q of all the devices' weight: with devices 1 (weight 1) and 5 (weight 1), the
/// median is 1, since half of the weight has 1 or less. The maximum is the 100th percentile, the
/// largest value of a device with weight above 0. With no weight at all every statistic is 0.
package struct FleetStatistics: Sendable, Hashable {
    /// The weighted mean.
    package var mean: Double
    /// The median: the 50th percentile.
    package var p50: Int
    /// The 90th percentile.
    package var p90: Int
    /// The largest value of a device with weight above 0.
    package var max: Int

    /// Creates statistics from their values.
    ///
    /// - Parameters:
    ///   - mean: The weighted mean.
    ///   - p50: The median.
    ///   - p90: The 90th percentile.
    ///   - max: The maximum.
    package init(mean: Double, p50: Int, p90: Int, max: Int) {
        self.mean = mean
        self.p50 = p50
        self.p90 = p90
        self.max = max
    }

    /// Every statistic 0: the statistics of no devices.
    package static let zero = FleetStatistics(mean: 0, p50: 0, p90: 0, max: 0)

    /// One value and the weight of the devices that have it.
    struct Sample: Sendable, Hashable {
        /// The value.
        var value: Int
        /// The devices that have it, in units of the installed base's scale.
        var weight: UInt64
    }

    /// The weighted statistics of some samples; samples of weight 0 count for nothing.
    ///
    /// - Parameter samples: The values with their weights, in any order; their weights add up to
    ///   no more than `UInt64.max`.
    /// - Returns: The statistics, or ``zero`` when the weights add up to 0.
    static func weighted(_ samples: [Sample]) -> FleetStatistics {
        let weighed = samples.filter { $0.weight > 0 }.sorted { $0.value < $1.value }
        let total = weighed.reduce(0) { $0 + $1.weight }
        guard total > 0, let largest = weighed.last?.value else { return .zero }
        let sum = weighed.reduce(0.0) { $0 + Double($1.weight) * Double($1.value) }
        return FleetStatistics(
            mean: sum / Double(total), p50: percentile(50, of: weighed, total: total),
            p90: percentile(90, of: weighed, total: total), max: largest)
    }

    /// The smallest value whose samples and those below weigh at least `percent`% of `total`.
    ///
    /// - Parameters:
    ///   - percent: From 1 to 100.
    ///   - sorted: Samples of weight above 0, in ascending value order.
    ///   - total: Their weights' sum, above 0.
    /// - Returns: The percentile.
    static func percentile(_ percent: UInt64, of sorted: [Sample], total: UInt64) -> Int {
        // ceil(total * percent / 100), without overflow: total = 100a + b.
        let threshold = total / 100 * percent + (total % 100 * percent + 99) / 100
        var weight: UInt64 = 0
        for sample in sorted {
            weight += sample.weight
            if weight >= threshold { return sample.value }
        }
        return sorted[sorted.count - 1].value
    }
}
