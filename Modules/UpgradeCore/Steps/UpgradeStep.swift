import VersionKit

/// One piece of one-off work that belongs to the app version that introduced it.
///
/// A step has an ``id`` (unique among the steps of an ``Upgrader``), a ``version`` and an action.
/// The action may be synchronous or `async`, may throw, or may return `Bool` where `false` is a
/// failure, as in the `appUpgradeTo_X_Y_Z` pattern it replaces.
///
/// ```swift
/// UpgradeStep("8.8.8") { try removeLegacyCaches() }
/// UpgradeStep("9.0", id: "move-settings") { context in
///     try await migrateSettings(resuming: context.previousAttemptInterrupted)
/// }
/// try UpgradeStep(named: "appUpgradeTo_9_1") { reindex() }   // a Bool-returning action
/// try UpgradeStep(named: "appUpgradeTo_9_2") { context in check(context) }   // Bool, with the context
/// ```
///
/// In every declaration form, a closure that returns a `Bool` (or a `Bool?`, where `nil` fails too)
/// fails its attempt with `false` (``UpgradeStepReturnedFalse``). A closure of several statements
/// returns its last line's `Bool` only with `return` (<doc:MigratingToAppUpgrade>).
///
/// A step may run more than once (<doc:LaunchAlgorithm>, "At least once: make steps idempotent");
/// ``UpgradeContext`` tells it when it is being retried.
public struct UpgradeStep: Sendable, Identifiable {
    /// The step's unique identifier; by default the step-name form of its version, `appUpgradeTo_8_8_8`
    /// (`upgradeFloor_8_8_8` for a floor). Ids compare as Swift strings (`==`).
    public internal(set) var id: String
    /// Whether the id was given at the declaration rather than made from the version.
    let hasGivenID: Bool
    /// The version that introduced the step; it runs when the app first runs at or above it.
    public let version: Version
    /// An optional line saying what the step does, for logs, plans and debug menus.
    public let summary: String?
    /// Where the step was declared, as `File.swift:12`, so that a duplicate id can name both places.
    ///
    /// Made when it is read.
    public var declaredAt: String { "\(fileID):\(line)" }
    /// The file the step was declared in (`#fileID`).
    let fileID: String
    /// The line it was declared at.
    let line: Int
    /// Whether the step is the upgrader's floor, standing in for every retired step at or below its
    /// version (``asFloor()``).
    public internal(set) var isFloor = false
    /// The work, as declared.
    let work: Work

    /// A step's work, with or without the attempt's context.
    enum Work: Sendable {
        /// Work that takes no context.
        case plain(@Sendable () async throws -> Void)
        /// Work that takes the attempt's context.
        case withContext(@Sendable (UpgradeContext) async throws -> Void)
    }

    init(
        version: Version, id: String?, summary: String?, fileID: String, line: Int,
        work: Work
    ) {
        self.version = version
        self.id = id ?? version.stepName
        self.hasGivenID = id != nil
        self.summary = summary
        self.fileID = fileID
        self.line = line
        self.work = work
    }

    /// Runs the action once with the given context; a `Bool` action returning `false` throws
    /// ``UpgradeStepReturnedFalse``.
    ///
    /// - Parameter context: The attempt being made.
    /// - Throws: Whatever the action throws.
    public func perform(_ context: UpgradeContext) async throws {
        switch work {
        case .plain(let action): try await action()
        case .withContext(let action): try await action(context)
        }
    }
}

extension UpgradeStep: CustomStringConvertible {
    /// The id and version, such as `move-settings (9.0)`.
    public var description: String { id == version.stepName ? id : "\(id) (\(version))" }
}
