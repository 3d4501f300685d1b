import Foundation
import StrictJSON
import UpgradeCore
import UpgradeStorage
import VersionKit

extension LaunchExpectation {
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
