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
/// No declaration form drops a `Bool`: by version or by name, with or without the context, sync or
/// `async`, an action whose one expression is a `Bool` (or a `Bool?`, where `nil` fails too) is a
/// `Bool` action, and `false` is a failed attempt, recorded as ``UpgradeStepReturnedFalse``. An
/// action of several statements returns its `Bool` with `return`; a `Bool` call on its last line
/// without `return` is a statement whose value is discarded, as in any Swift function, and the
/// compiler warns that its result is unused.
///
/// A step may run more than once when an earlier attempt failed or the process died inside it, so
/// actions should be idempotent; ``UpgradeContext`` tells them when they are being retried.
public struct UpgradeStep: Sendable, Identifiable {
    /// The step's unique identifier; by default the step-name form of its version, `appUpgradeTo_8_8_8`.
    public internal(set) var id: String
    /// The version that introduced the step; it runs when the app first runs at or above it.
    public let version: Version
    /// An optional line saying what the step does, for logs, plans and debug menus.
    public let summary: String?
    /// Where the step was declared, as `File.swift:12`, so that a duplicate id can name both places.
    public let declaredAt: String
    /// Whether the step is the upgrader's floor, standing in for every retired step at or below its
    /// version (``asFloor()``).
    public internal(set) var isFloor = false
    /// Whether ``id`` is the default one, made from the version.
    private(set) var hasDefaultID: Bool
    let action: @Sendable (UpgradeContext) async throws -> Void

    init(
        version: Version, id: String?, summary: String?, fileID: String, line: Int,
        action: @escaping @Sendable (UpgradeContext) async throws -> Void
    ) {
        self.version = version
        self.id = id ?? version.stepName
        self.hasDefaultID = id == nil
        self.summary = summary
        self.declaredAt = "\(fileID):\(line)"
        self.action = action
    }

    /// Runs the action once with the given context; a `Bool` action returning `false` throws
    /// ``UpgradeStepReturnedFalse``.
    ///
    /// - Parameter context: The attempt being made.
    /// - Throws: Whatever the action throws.
    public func perform(_ context: UpgradeContext) async throws {
        try await action(context)
    }
}

extension UpgradeStep: CustomStringConvertible {
    /// The id and version, such as `move-settings (9.0)`.
    public var description: String { id == version.stepName ? id : "\(id) (\(version))" }
}
