import VersionKit

/// Maintenance for debug menus and support tools, in the manner of a database migrator's `repair`.
///
/// Each call takes the same exclusive access as a launch, reads the state, changes it and writes it.
extension Upgrader {
    /// Records a step as done without running it.
    ///
    /// - Parameter stepID: The id of a registered step.
    /// - Throws: ``UpgradeError`` for an unknown step or when no state is stored yet; the store's
    ///   error when it cannot be read or written.
    public func markStepDone(_ stepID: String) async throws {
        try await maintain(stepID) { state, step in
            if let mark = state.upgradedThrough, step.version <= mark { return }
            state.recordCompleted(StepRecord(id: step.id, version: step.version))
        }
    }

    /// Forgets that a step finished (or was abandoned), so that it runs again at the next launch at
    /// or above its version.
    ///
    /// When the step lies at or below the upgraded-through mark, the mark is lowered below it and the
    /// other registered steps between are listed as completed, so that only this step runs again.
    ///
    /// - Parameter stepID: The id of a registered step.
    /// - Throws: ``UpgradeError`` for an unknown step or when no state is stored yet; the store's
    ///   error when it cannot be read or written.
    public func forgetStep(_ stepID: String) async throws {
        try await maintain(stepID) { state, step in
            state.completed.removeAll { $0.id == step.id }
            state.abandoned.removeAll { $0.id == step.id }
            state.removeAttempts(of: step.id)
            guard let mark = state.upgradedThrough, step.version <= mark else { return }
            let below = catalog.firstIndex(above: step.version)
            var newMark: Version?
            for candidate in catalog.steps[..<below].reversed() where candidate.version < step.version {
                newMark = candidate.version
                break
            }
            for other in catalog.steps
            where other.id != step.id && other.version <= mark && (newMark.map { other.version > $0 } ?? true)
                && !state.isCompleted(other.id)
            {
                state.completed.append(StepRecord(id: other.id, version: other.version))
            }
            state.upgradedThrough = newMark
        }
    }

    /// Clears a step's failed attempts, so that it is tried afresh (and not abandoned at once).
    ///
    /// - Parameter stepID: The id of a registered step.
    /// - Throws: ``UpgradeError`` for an unknown step or when no state is stored yet; the store's
    ///   error when it cannot be read or written.
    public func clearFailedAttempts(of stepID: String) async throws {
        try await maintain(stepID) { state, step in
            state.removeAttempts(of: step.id)
            if state.inProgress?.id == step.id { state.inProgress = nil }
        }
    }

    private func maintain(
        _ stepID: String, _ change: @Sendable (inout UpgradeState, UpgradeStep) -> Void
    ) async throws {
        try validate()
        guard let step = catalog.step(withID: stepID) else {
            let known = catalog.steps.prefix(8).map(\.id).joined(separator: ", ")
            throw UpgradeError(
                code: .unknownStep,
                message: "no registered step has the id \"\(stepID)\"; registered: \(known.isEmpty ? "none" : known)"
                    + (catalog.steps.count > 8 ? ", ..." : ""))
        }
        try await LaunchRegistry.shared.exclusive(launchIdentity) {
            let lock = try await store.lockForLaunch()
            defer { lock.unlock() }
            guard var state = try store.load() else {
                throw UpgradeError(
                    code: .noStoredState,
                    message: "no upgrade state is stored yet; run the upgrader once before changing step \(stepID)")
            }
            let before = state
            change(&state, step)
            if state != before { try store.save(state) }
        }
    }
}
