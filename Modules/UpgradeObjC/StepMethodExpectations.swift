/// Compares a class's step methods, as the runtime lists them, with the ones the app expects: the
/// part of checking the list that needs no Objective-C runtime.
enum StepMethodExpectations {
    /// Every difference between the listed step methods and the expected ones.
    ///
    /// - Parameters:
    ///   - listed: The class's selectors named like steps, as the runtime lists them: a selector
    ///     once per definition (the class's and each category's).
    ///   - expected: The ids the app expects (duplicates count once).
    ///   - overridden: The selectors the app knows are defined more than once.
    /// - Returns: The differences ordered by selector name, then in the order missing, unexpected,
    ///   defined more than once, not overridden; empty when the list is as expected.
    static func mismatches(listed: [String], expected: [String], overridden: Set<String>) -> [StepMethodMismatch] {
        var counts: [String: Int] = [:]
        for selector in listed { counts[selector, default: 0] += 1 }
        let expectedSet = Set(expected)
        var mismatches: [StepMethodMismatch] = []
        for selector in expectedSet where counts[selector] == nil {
            mismatches.append(.missing(selector: selector))
        }
        for (selector, count) in counts {
            if !expectedSet.contains(selector) { mismatches.append(.unexpected(selector: selector)) }
            if count > 1, !overridden.contains(selector) {
                mismatches.append(.definedMoreThanOnce(selector: selector, count: count))
            }
        }
        // An overridden method that is expected and not listed at all is missing, and said so once.
        for selector in overridden where counts[selector, default: 0] < 2 {
            if counts[selector] == nil, expectedSet.contains(selector) { continue }
            mismatches.append(.notOverridden(selector: selector))
        }
        return mismatches.sorted { left, right in
            left.selector != right.selector
                ? StepMethodClassifier.precedes(left.selector, right.selector) : left.rank < right.rank
        }
    }
}

extension StepMethodMismatch {
    /// The order of the kinds of difference for one selector.
    fileprivate var rank: Int {
        switch self {
        case .missing: 0
        case .unexpected: 1
        case .definedMoreThanOnce: 2
        case .notOverridden: 3
        }
    }
}
