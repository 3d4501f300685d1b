import UpgradeCore

/// The one place where the simulator turns a fixture's floor into the engine's representation of a
/// floor. `run` (in memory and with `--processes`), `launch`, `plan` and `explore` all register a
/// build's steps through ``engineSteps(build:steps:floor:action:)``.
enum FloorAdapter {
    /// The engine step that stands for a fixture's floor.
    ///
    /// UpgradeCore has no declaration of a floor yet, so the floor is registered as an ordinary step
    /// with the floor's id and version F, before the build's steps. That is the floor of
    /// <doc:/UpgradeCore/LaunchAlgorithm> as far as a valid fixture can tell: the fixture reader
    /// rejects a build with a floor and a step at or below F (with its JSON path), so every other step
    /// of the build sorts after it; it is pending exactly when a step of version F would be; and it is
    /// a step for attempts, `inProgress`, `giveUpAfter`, reports and events. When UpgradeCore declares
    /// floors (an `UpgradeStep` marked as the floor, which sorts before every other pending step and
    /// whose build rejects steps at or below it), this function returns that declaration instead, and
    /// nothing else in the simulator changes.
    ///
    /// - Parameters:
    ///   - floor: The fixture's floor.
    ///   - action: The floor's action.
    /// - Returns: The engine's step.
    static func engineStep(
        for floor: ScriptedStep, action: @escaping @Sendable (UpgradeContext) async throws -> Void
    ) -> UpgradeStep {
        UpgradeStep(floor.version, id: floor.id, action: action)
    }

    /// The engine steps of one build, in registration order: the floor first when the build has it,
    /// then the build's steps in declaration order.
    ///
    /// - Parameters:
    ///   - build: The build.
    ///   - steps: The app's steps, which `build` indexes.
    ///   - floor: The app's floor.
    ///   - action: Makes the action of a scripted step (or of the floor).
    /// - Returns: The steps to register.
    static func engineSteps(
        build: Releases.Build, steps: [ScriptedStep], floor: ScriptedStep?,
        action: (ScriptedStep) -> @Sendable (UpgradeContext) async throws -> Void
    ) -> [UpgradeStep] {
        var result: [UpgradeStep] = []
        result.reserveCapacity(build.steps.count + 1)
        if build.hasFloor, let floor { result.append(engineStep(for: floor, action: action(floor))) }
        for index in build.steps {
            let step = steps[index]
            result.append(UpgradeStep(step.version, id: step.id, action: action(step)))
        }
        return result
    }
}
