/// An error from a store: the state could not be read, understood, written or locked.
///
/// When a store throws, the launch runs nothing further and nothing is recorded as done that is not.
public struct UpgradeStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// Another launch holds the exclusive access and did not give it up in time.
        case busy
        /// The state exists but could not be read (permissions, I/O, protected data).
        case unreadable
        /// The state was read but is not a valid document.
        case corrupt
        /// The document was written by a newer version of this package; it is left as it is.
        case unsupportedFormat(found: Int, supported: Int)
        /// The state could not be written; the previous state is unchanged.
        case writeFailed
        /// The location is unsafe to use, such as a symbolic link where the state file belongs.
        case unsafeLocation
        /// A fault injected on purpose by a test store.
        case injectedFault
        /// The store cannot do what was asked, such as removing its state for ``Upgrader/reset()``.
        case unsupported
        /// The store could not establish that the app's protected data is readable (on a device
        /// locked since its restart, protected files cannot be read and `UserDefaults` read as
        /// empty), so that "no state" would prove nothing. A launch that meets it decides nothing
        /// and ends ``UpgradeOutcome/deferred`` with ``UpgradeDeferral/protectedDataUnavailable(detail:)``;
        /// ``Upgrader/plan(currentVersion:)`` says so too (<doc:LaunchAlgorithm>, "Protected data").
        case protectedDataUnavailable
    }

    /// What went wrong.
    public let code: Code
    /// Where: a file path, or a defaults suite and key.
    public let location: String
    /// What is wrong, in words a person can act on.
    public let detail: String
    /// The error underneath, such as a system error, if any.
    public let underlying: (any Error)?

    /// Creates a store error.
    ///
    /// - Parameters:
    ///   - code: What went wrong.
    ///   - location: Where.
    ///   - detail: What is wrong, in words a person can act on.
    ///   - underlying: The error underneath, if any.
    public init(code: Code, location: String, detail: String, underlying: (any Error)? = nil) {
        self.code = code
        self.location = location
        self.detail = detail
        self.underlying = underlying
    }

    /// The location and the detail, such as `/path/upgrade-state.json: not a valid upgrade state
    /// document: at history[1] (line 44, column 7): invalid JSON: duplicate key "to"; it is left as it is`.
    public var description: String { "\(location): \(detail)" }
}
