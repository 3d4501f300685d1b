import VersionKit

extension UpgradeStep {
    /// Declares a step whose action takes no context and returns nothing.
    ///
    /// - Parameters:
    ///   - version: The version that introduced the step.
    ///   - id: The step's identifier; `nil` (the default) uses the step-name form of `version`.
    ///   - summary: An optional line saying what the step does.
    ///   - fileID: The file that declares the step; keep the default, so that errors can name it.
    ///   - line: The line that declares the step; keep the default.
    ///   - action: The work; a thrown error is a failed attempt.
    @_disfavoredOverload
    public init(
        _ version: Version, id: String? = nil, summary: String? = nil,
        fileID: String = #fileID, line: Int = #line,
        action: @escaping @Sendable () async throws -> Void
    ) {
        self.init(version: version, id: id, summary: summary, fileID: fileID, line: line, work: .plain(action))
    }

    /// Declares a step whose action receives the ``UpgradeContext`` of the attempt.
    ///
    /// - Parameters:
    ///   - version: The version that introduced the step.
    ///   - id: The step's identifier; `nil` (the default) uses the step-name form of `version`.
    ///   - summary: An optional line saying what the step does.
    ///   - fileID: The file that declares the step; keep the default, so that errors can name it.
    ///   - line: The line that declares the step; keep the default.
    ///   - action: The work; a thrown error is a failed attempt.
    @_disfavoredOverload
    public init(
        _ version: Version, id: String? = nil, summary: String? = nil,
        fileID: String = #fileID, line: Int = #line,
        action: @escaping @Sendable (UpgradeContext) async throws -> Void
    ) {
        self.init(version: version, id: id, summary: summary, fileID: fileID, line: line, work: .withContext(action))
    }

    /// Declares a step whose action returns `true` on success and `false` on failure.
    ///
    /// - Parameters:
    ///   - version: The version that introduced the step.
    ///   - id: The step's identifier; `nil` (the default) uses the step-name form of `version`.
    ///   - summary: An optional line saying what the step does.
    ///   - fileID: The file that declares the step; keep the default, so that errors can name it.
    ///   - line: The line that declares the step; keep the default.
    ///   - action: The work; `false` or a thrown error is a failed attempt.
    public init<Result: UpgradeStepResult>(
        _ version: Version, id: String? = nil, summary: String? = nil,
        fileID: String = #fileID, line: Int = #line,
        action: @escaping @Sendable () async throws -> Result
    ) {
        // The error names the running step from its context: its id then (a floor's, once the step
        // is made one), with no default id made at the declaration.
        let work = Work.withContext { context in
            guard try await action().upgradeStepSucceeded else {
                throw UpgradeStepReturnedFalse(stepID: context.stepID)
            }
        }
        self.init(version: version, id: id, summary: summary, fileID: fileID, line: line, work: work)
    }

    /// Declares a step whose action receives the ``UpgradeContext`` and returns `false` on failure.
    ///
    /// - Parameters:
    ///   - version: The version that introduced the step.
    ///   - id: The step's identifier; `nil` (the default) uses the step-name form of `version`.
    ///   - summary: An optional line saying what the step does.
    ///   - fileID: The file that declares the step; keep the default, so that errors can name it.
    ///   - line: The line that declares the step; keep the default.
    ///   - action: The work; `false` or a thrown error is a failed attempt.
    public init<Result: UpgradeStepResult>(
        _ version: Version, id: String? = nil, summary: String? = nil,
        fileID: String = #fileID, line: Int = #line,
        action: @escaping @Sendable (UpgradeContext) async throws -> Result
    ) {
        let work = Work.withContext { context in
            guard try await action(context).upgradeStepSucceeded else {
                throw UpgradeStepReturnedFalse(stepID: context.stepID)
            }
        }
        self.init(version: version, id: id, summary: summary, fileID: fileID, line: line, work: work)
    }
}

extension UpgradeStep {
    /// Declares a step by its `appUpgradeTo_A_B[_C]` name, the convention of the naive pattern.
    ///
    /// The name is the step's id and gives its version.
    ///
    /// - Parameters:
    ///   - name: A whole step name such as `appUpgradeTo_8_8_8` (the prefix in any case).
    ///   - summary: An optional line saying what the step does.
    ///   - fileID: The file that declares the step; keep the default, so that errors can name it.
    ///   - line: The line that declares the step; keep the default.
    ///   - action: The work; a thrown error is a failed attempt.
    /// - Throws: ``UpgradeError`` with code ``UpgradeError/Code/invalidStepName`` when `name` is not a
    ///   well-formed step name.
    @_disfavoredOverload
    public init(
        named name: String, summary: String? = nil, fileID: String = #fileID, line: Int = #line,
        action: @escaping @Sendable (UpgradeContext) async throws -> Void
    ) throws(UpgradeError) {
        self.init(
            version: try Self.version(ofStepName: name, fileID: fileID, line: line), id: name, summary: summary,
            fileID: fileID, line: line, work: .withContext(action))
    }

    /// Declares a step by its `appUpgradeTo_A_B[_C]` name, with an action that takes no context.
    ///
    /// - Parameters:
    ///   - name: A whole step name such as `appUpgradeTo_8_8_8` (the prefix in any case).
    ///   - summary: An optional line saying what the step does.
    ///   - fileID: The file that declares the step; keep the default, so that errors can name it.
    ///   - line: The line that declares the step; keep the default.
    ///   - action: The work; a thrown error is a failed attempt.
    /// - Throws: ``UpgradeError`` with code ``UpgradeError/Code/invalidStepName`` for a malformed name.
    @_disfavoredOverload
    public init(
        named name: String, summary: String? = nil, fileID: String = #fileID, line: Int = #line,
        action: @escaping @Sendable () async throws -> Void
    ) throws(UpgradeError) {
        try self.init(named: name, summary: summary, fileID: fileID, line: line) { (_: UpgradeContext) in
            try await action()
        }
    }

    /// Declares a step by its `appUpgradeTo_A_B[_C]` name, with an action that returns `false` on
    /// failure, exactly like the naive pattern's `+ (BOOL)appUpgradeTo_8_8_8`.
    ///
    /// - Parameters:
    ///   - name: A whole step name such as `appUpgradeTo_8_8_8` (the prefix in any case).
    ///   - summary: An optional line saying what the step does.
    ///   - fileID: The file that declares the step; keep the default, so that errors can name it.
    ///   - line: The line that declares the step; keep the default.
    ///   - action: The work; `false` or a thrown error is a failed attempt.
    /// - Throws: ``UpgradeError`` with code ``UpgradeError/Code/invalidStepName`` for a malformed name.
    public init<Result: UpgradeStepResult>(
        named name: String, summary: String? = nil, fileID: String = #fileID, line: Int = #line,
        action: @escaping @Sendable () async throws -> Result
    ) throws(UpgradeError) {
        try self.init(named: name, summary: summary, fileID: fileID, line: line) { (_: UpgradeContext) in
            guard try await action().upgradeStepSucceeded else { throw UpgradeStepReturnedFalse(stepID: name) }
        }
    }

    /// Declares a step by its `appUpgradeTo_A_B[_C]` name, with an action that receives the
    /// ``UpgradeContext`` and returns `false` on failure.
    ///
    /// - Parameters:
    ///   - name: A whole step name such as `appUpgradeTo_8_8_8` (the prefix in any case).
    ///   - summary: An optional line saying what the step does.
    ///   - fileID: The file that declares the step; keep the default, so that errors can name it.
    ///   - line: The line that declares the step; keep the default.
    ///   - action: The work; `false` or a thrown error is a failed attempt.
    /// - Throws: ``UpgradeError`` with code ``UpgradeError/Code/invalidStepName`` for a malformed name.
    public init<Result: UpgradeStepResult>(
        named name: String, summary: String? = nil, fileID: String = #fileID, line: Int = #line,
        action: @escaping @Sendable (UpgradeContext) async throws -> Result
    ) throws(UpgradeError) {
        try self.init(named: name, summary: summary, fileID: fileID, line: line) { (context: UpgradeContext) in
            guard try await action(context).upgradeStepSucceeded else { throw UpgradeStepReturnedFalse(stepID: name) }
        }
    }

    static func version(ofStepName name: String, fileID: String, line: Int) throws(UpgradeError) -> Version {
        do {
            return try Version(parsingStepName: name)
        } catch {
            throw UpgradeError(
                code: .invalidStepName,
                message: "step declared at \(fileID):\(line) has an invalid name: \(error)")
        }
    }
}

/// What a `Bool`-returning step action returns: `false` is a failure.
///
/// The `Bool`-returning ``UpgradeStep`` initializers are generic over this protocol, and the `Void`
/// ones are disfavoured overloads: a closure that returns a `Bool` (its one expression, a `return`,
/// or a `-> Bool` signature) is a `Bool` action, and one of several statements without `return` is a
/// `Void` action whatever its last line (<doc:MigratingToAppUpgrade>).
///
/// `Bool` conforms, and so does `Bool?`, where `nil` is a failure too: an action such as
/// `{ try? migrate() }` or `{ migrator?.run() }` did not report success, just as messaging `nil`
/// in Objective-C returns `NO`.
public protocol UpgradeStepResult: Sendable {
    /// Whether the action succeeded.
    var upgradeStepSucceeded: Bool { get }
}

extension Bool: UpgradeStepResult {
    /// The value itself: `true` is a success, `false` a failure.
    public var upgradeStepSucceeded: Bool { self }
}

extension Optional: UpgradeStepResult where Wrapped == Bool {
    /// `true` only for `.some(true)`: `false` and `nil` are failures.
    public var upgradeStepSucceeded: Bool { self ?? false }
}
