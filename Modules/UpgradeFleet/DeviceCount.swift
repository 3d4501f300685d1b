/// A number of devices, kept exactly: a whole count (`12`) or a decimal share (`0.35`).
///
/// The value is `units` divided by 10 to the power `scale`. An installed-base file's numbers all
/// share one scale, the most digits after the point that any of its rows has, so that sums and
/// comparisons of them are exact integer arithmetic; ``description`` writes the value back as a
/// decimal without trailing zeros (`0.1`, `1200`). Two counts are equal when their units and scales
/// are.
public struct DeviceCount: Sendable, Hashable, CustomStringConvertible {
    /// The value times 10 to the power `scale`.
    package let units: UInt64
    /// The number of decimal places `units` counts in, from 0 to `maximumScale`.
    package let scale: Int

    /// The most decimal places a device count can have: 18, so that one unit of every scale fits.
    package static let maximumScale = 18

    /// Creates a count of `units` tenths-to-the-`scale` of a device.
    ///
    /// - Parameters:
    ///   - units: The value times 10 to the power `scale`.
    ///   - scale: The number of decimal places, from 0 to `maximumScale`.
    /// - Precondition: `scale` lies in `0...maximumScale`.
    package init(units: UInt64, scale: Int) {
        precondition((0...Self.maximumScale).contains(scale), "DeviceCount scale \(scale) is outside 0...18")
        self.units = units
        self.scale = scale
    }

    /// The value as a floating-point number, for ratios and means.
    public var value: Double { Double(units) / Self.powerOfTen(scale) }

    /// The exact decimal text: digits, and a point with the significant decimal places, if any.
    public var description: String {
        var digits = String(units)
        guard scale > 0 else { return digits }
        if digits.count <= scale { digits = String(repeating: "0", count: scale - digits.count + 1) + digits }
        var whole = digits
        var fraction = String(whole.suffix(scale))
        whole.removeLast(scale)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? whole : whole + "." + fraction
    }

    /// 10 to the power `exponent`, as a `Double`.
    static func powerOfTen(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}
