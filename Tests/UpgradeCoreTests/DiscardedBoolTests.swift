import Testing
import UpgradeCore
import VersionKit

/// A `Bool` function whose result Swift lets a caller drop without a warning, as it lets a C or
/// Objective-C function's (imported as discardable): the case where a dropped `false` goes unseen.
@discardableResult @Sendable private func discardableCheck(_ result: Bool) -> Bool { result }

@Sendable private func note() {}

/// Which closures keep a `false`, and the one that drops it: a closure of several statements without
/// `return` returns nothing, so it is the `Void` form, whatever its last line. The docs say exactly
/// this (`UpgradeStep`, `UpgradeStepResult`, *Migrating to AppUpgrade*); the build, where a warning
/// is an error, also shows that the dropped result of a `@discardableResult` call is not warned about.
@Suite("Which closures keep a false")
struct DiscardedBoolTests {
    static let keeping: [DeclarationForm] = [
        .init("one expression", UpgradeStep("1.0") { discardableCheck(false) }, succeeds: false),
        .init(
            "several statements with return",
            UpgradeStep("1.0") {
                note()
                return discardableCheck(false)
            }, succeeds: false),
        .init(
            "several statements, the signature says Bool",
            UpgradeStep("1.0") { () -> Bool in
                note()
                return discardableCheck(false)
            }, succeeds: false),
        .init(
            "several statements with the context, the signature says Bool",
            UpgradeStep("1.0") { (context: UpgradeContext) -> Bool in
                note()
                return discardableCheck(context.attempt > 1)
            }, succeeds: false),
        .init(
            "several statements returning a main-actor call's Bool",
            UpgradeStep("1.0") {
                note()
                return await MainActor.run { discardableCheck(false) }
            }, succeeds: false),
        .init(
            "with the context, several statements returning a main-actor call's Bool",
            UpgradeStep("1.0") { context in
                note()
                return await MainActor.run { discardableCheck(context.attempt > 1) }
            }, succeeds: false),
        .init(
            "by name, several statements returning a main-actor call's Bool",
            try! UpgradeStep(named: "appUpgradeTo_1_0") {
                note()
                return await MainActor.run { discardableCheck(false) }
            }, succeeds: false),
        .init(
            "by name, several statements with return",
            try! UpgradeStep(named: "appUpgradeTo_1_0") {
                note()
                return discardableCheck(false)
            }, succeeds: false),
    ]

    static let dropping: [DeclarationForm] = [
        .init(
            "several statements without return",
            UpgradeStep("1.0") {
                note()
                discardableCheck(false)
            }, succeeds: true),
        .init(
            "by name, several statements without return",
            try! UpgradeStep(named: "appUpgradeTo_1_0") {
                note()
                discardableCheck(false)
            }, succeeds: true),
        .init(
            "with the context, several statements without return",
            UpgradeStep("1.0") { context in
                note()
                discardableCheck(context.attempt > 1)
            }, succeeds: true),
    ]

    @Test("a closure that returns its Bool keeps a false", arguments: keeping)
    func keeps(form: DeclarationForm) async throws {
        let report = try await Self.launch(form.step)
        #expect(report.outcome == .failed)
        #expect(
            report.failedStep.map { step in
                if case .failed(let error) = step.result { return error is UpgradeStepReturnedFalse }
                return false
            } == true)
    }

    @Test("a closure of several statements without return is the Void form: its false is dropped", arguments: dropping)
    func drops(form: DeclarationForm) async throws {
        #expect(try await Self.launch(form.step).outcome == .upgraded)
    }

    private static func launch(_ step: UpgradeStep) async throws -> UpgradeReport {
        try await makeUpgrader(store: RecordingStore(settledState(at: "0.9")), steps: [step]).run(currentVersion: "1.0")
    }
}
