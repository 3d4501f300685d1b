/// "Did you mean" suggestions for misspelt keys, options and commands.
package enum Suggestion {
    /// The candidate closest to `word`: one equal to it but for case, else one within two edits.
    ///
    /// - Parameters:
    ///   - word: What was written.
    ///   - candidates: What could have been meant.
    /// - Returns: The closest candidate, or `nil` when none is close.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let folded = word.lowercased()
        if let match = candidates.first(where: { $0.lowercased() == folded }) { return match }
        let scored = candidates.map { ($0, editDistance(Array($0.lowercased()), Array(folded))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    /// The Levenshtein distance between two words.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
