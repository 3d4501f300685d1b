import Foundation
import StrictJSON
import UpgradeCore
import UpgradeFixtures
import UpgradeStorage
import VersionKit

extension LaunchExpectation {
    /// The expectation that a launch does exactly what `observation` says, on every key.
    ///
    /// - Parameter observation: What a launch did.
    package init(exactly observation: LaunchObservation) {
        self.init(
            outcome: observation.outcome, ran: observation.ran, abandoned: observation.abandoned,
            upgradedThrough: .some(observation.upgradedThrough))
    }

    /// The keys on which an observation differs from this expectation, with both values as JSON.
    ///
    /// - Parameter observation: What the launch did.
    /// - Returns: One entry per differing key, in the order outcome, ran, abandoned, upgradedThrough,
    ///   adoptedFrom.
    package func differences(from observation: LaunchObservation) -> [(
        key: Mismatch.Key, expected: String, got: String
    )] {
        var result: [(key: Mismatch.Key, expected: String, got: String)] = []
        func quotedList(_ ids: [String]) -> String { JSONWriter.compact(.array(ids.map { .string($0) })) }
        func mark(_ version: Version?) -> String { version.map { JSONWriter.quoted($0.description) } ?? "null" }
        if let outcome, outcome != observation.outcome {
            result.append(
                (.outcome, JSONWriter.quoted(outcome.rawValue), JSONWriter.quoted(observation.outcome.rawValue)))
        }
        if let ran, ran != observation.ran {
            result.append((.ran, quotedList(ran), quotedList(observation.ran)))
        }
        if let abandoned, abandoned != observation.abandoned {
            result.append((.abandoned, quotedList(abandoned), quotedList(observation.abandoned)))
        }
        // Versions compare by value: an expected 2.0 matches an observed 2.0.0.
        if let expectedMark = upgradedThrough, expectedMark != observation.upgradedThrough {
            result.append((.upgradedThrough, mark(expectedMark), mark(observation.upgradedThrough)))
        }
        if let expectedAdoption = adoptedFrom, expectedAdoption != observation.adoptedFrom {
            result.append((.adoptedFrom, mark(expectedAdoption), mark(observation.adoptedFrom)))
        }
        return result
    }
}
