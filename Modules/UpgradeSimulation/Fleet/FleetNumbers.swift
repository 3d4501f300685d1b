import Foundation

/// How the fleet report writes its numbers: shares and means rounded to a fixed number of decimal
/// places, trailing zeros dropped (`0.25`, `3`), never in exponent form.
enum FleetNumbers {
    /// Decimal places of a share in JSON.
    static let jsonSharePlaces = 6
    /// Decimal places of a share in text and Markdown.
    static let tableSharePlaces = 4
    /// Decimal places of a mean.
    static let meanPlaces = 2

    /// `value` rounded to `places` decimal places, without trailing zeros.
    static func decimal(_ value: Double, places: Int) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A share for a table: 4 decimal places, and `<0.0001` for a share above 0 that rounds to 0.
    static func tableShare(_ share: Double) -> String {
        let text = decimal(share, places: tableSharePlaces)
        return text == "0" && share > 0 ? "<0.0001" : text
    }
}
