import UpgradeCore
import UpgradeFixtures

/// The one place where the simulator turns a fixture's floor into the engine's representation of a
/// floor. `run` (in memory and with `--processes`), `launch`, `plan` and `explore` all register a
/// build's steps through ``engineSteps(build:steps:floor:action:)``.
package enum FloorAdapter {
    /// The engine step that stands for a fixture's floor: the floor's id and version F, declared as
    /// the upgrader's floor (``/UpgradeCore/UpgradeStep/asFloor()``), so that the engine runs it
    /// before every other pending step and rejects a build with a step at or below F. (The fixture
    /// reader rejects such a build first, with the JSON path of the step.)
    ///
    /// - Parameters:
    ///   - floor: The fixture's floor.
    ///   - action: The floor's action.
    /// - Returns: The engine's step.
    package static func engineStep(
        for floor: ScriptedStep, action: @escaping @Sendable (UpgradeContext) async throws -> Void
    ) -> UpgradeStep {
        UpgradeStep(floor.version, id: floor.id, action: action).asFloor()
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
    package static func engineSteps(
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
