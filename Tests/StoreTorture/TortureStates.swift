import UpgradeCore
import VersionKit

/// The series of states the torture helper writes: state `n` is different from every other in its
/// content and its size, so that a document mixing two writes cannot pass for either.
public enum TortureStates {
    /// State number `number`, from 0.
    ///
    /// - Parameter number: The state's place in the series.
    /// - Returns: The state; its `lastLaunched` is `2.number`, which ``number(of:)`` reads back.
    public static func state(_ number: Int) -> UpgradeState {
        let mark = Version(major: 1, minor: number)
        return UpgradeState(
            upgradedThrough: mark, lastLaunched: Version(major: 2, minor: number),
            completed: (0..<(number % 23)).map {
                StepRecord(id: "step-\(number)-\($0)", version: Version(major: 1, minor: number, patch: $0 + 1))
            },
            attempts: number % 3 == 0
                ? []
                : [
                    StepAttempts(
                        id: "retry-\(number)", version: Version(major: 1, minor: number, patch: 99), failed: number % 3)
                ])
    }

    /// The number of a state of the series, read back from it.
    ///
    /// - Parameter state: A state read from a file the helper wrote.
    /// - Returns: Its number, or `nil` when it is not a state of the series.
    public static func number(of state: UpgradeState) -> Int? {
        guard let number = state.lastLaunched?.minor, state == self.state(number) else { return nil }
        return number
    }
}
