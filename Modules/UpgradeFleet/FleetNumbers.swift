import Foundation

/// How the fleet report writes its numbers: shares and means rounded to a fixed number of decimal
/// places, trailing zeros dropped (`0.25`, `3`), never in exponent form; shares in text and Markdown
/// as percentages (`12.5%`).
package enum FleetNumbers {
    /// Decimal places of a share in JSON, a fraction from 0 to 1.
    package static let jsonSharePlaces = 6
    /// Decimal places of a share in text and Markdown, a percentage from 0 to 100.
    package static let tableSharePlaces = 2
    /// Decimal places of a mean.
    package static let meanPlaces = 2

    /// `value` rounded to `places` decimal places, without trailing zeros.
    package static func decimal(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A share for a table, as a percentage to 2 decimal places: `12.5%`, `100%`, and `<0.01%` for a
    /// share above 0 that rounds to 0.
    ///
    /// - Parameter share: The share, a fraction from 0 to 1.
    /// - Returns: The percentage, with its sign.
    package static func tableShare(_ share: Double) -> String {
        let text = decimal(share * 100, places: tableSharePlaces)
        return text == "0" && share > 0 ? "<0.01%" : text + "%"
    }
}
