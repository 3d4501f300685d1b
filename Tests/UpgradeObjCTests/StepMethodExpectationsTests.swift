import Testing

@testable import UpgradeObjC

@Suite("Objective-C step methods: the ones the app expects, and no other")
struct StepMethodExpectationsTests {
    @Test("the listed methods as expected, an override named, and unrelated names left out: no difference")
    func asExpected() {
        let listed = ["appUpgradeTo_2_0", "appUpgradeTo_1_1", "appUpgradeTo_2_0", "appUpgradeTo_1_2"]
        let mismatches = StepMethodExpectations.mismatches(
            listed: listed, expected: ["appUpgradeTo_1_1", "appUpgradeTo_1_2", "appUpgradeTo_2_0", "appUpgradeTo_1_1"],
            overridden: ["appUpgradeTo_2_0"])
        #expect(mismatches.isEmpty)
    }

    @Test(
        "each difference is named, by selector",
        arguments: [
            // A category the linker left out: its step is missing.
            (
                ["appUpgradeTo_1_1"], ["appUpgradeTo_1_1", "appUpgradeTo_1_2"], [],
                [
                    StepMethodMismatch.missing(selector: "appUpgradeTo_1_2")
                ]
            ),
            // A method no one listed.
            (
                ["appUpgradeTo_1_1", "appUpgradeTo_1_3"], ["appUpgradeTo_1_1"], [],
                [.unexpected(selector: "appUpgradeTo_1_3")]
            ),
            // Ids compare exactly: another case is another step.
            (
                ["APPUPGRADETO_1_1"], ["appUpgradeTo_1_1"], [],
                [
                    .unexpected(selector: "APPUPGRADETO_1_1"), .missing(selector: "appUpgradeTo_1_1"),
                ]
            ),
            // Two categories (or the class and one) define it, and the app did not say so.
            (
                ["appUpgradeTo_2_1", "appUpgradeTo_2_1", "appUpgradeTo_2_1"], ["appUpgradeTo_2_1"], [],
                [
                    .definedMoreThanOnce(selector: "appUpgradeTo_2_1", count: 3)
                ]
            ),
            // Named as overridden, and the overriding category is gone.
            (
                ["appUpgradeTo_2_0"], ["appUpgradeTo_2_0"], ["appUpgradeTo_2_0"],
                [.notOverridden(selector: "appUpgradeTo_2_0")]
            ),
            // Named as overridden, neither expected nor listed: a stale name.
            ([], [], ["appUpgradeTo_2_0"], [.notOverridden(selector: "appUpgradeTo_2_0")]),
            // Expected, named as overridden, and not loaded at all: missing, said once.
            ([], ["appUpgradeTo_2_0"], ["appUpgradeTo_2_0"], [.missing(selector: "appUpgradeTo_2_0")]),
            // Unexpected and defined twice: both said, ordered by selector name.
            (
                ["appUpgradeTo_3_0", "appUpgradeTo_3_0", "appUpgradeTo_1_1"], ["appUpgradeTo_1_1", "appUpgradeTo_2_0"],
                [],
                [
                    .missing(selector: "appUpgradeTo_2_0"), .unexpected(selector: "appUpgradeTo_3_0"),
                    .definedMoreThanOnce(selector: "appUpgradeTo_3_0", count: 2),
                ]
            ),
        ] as [([String], [String], Set<String>, [StepMethodMismatch])])
    func differences(listed: [String], expected: [String], overridden: Set<String>, mismatches: [StepMethodMismatch]) {
        #expect(
            StepMethodExpectations.mismatches(listed: listed, expected: expected, overridden: overridden) == mismatches)
    }

    @Test("the error names the class, each method as a class method, and what to do")
    func errorText() {
        let error = ObjectiveCStepsError(
            code: .methodsNotAsExpected, className: "XXAppUpdater",
            mismatches: [
                .missing(selector: "appUpgradeTo_1_2"), .definedMoreThanOnce(selector: "appUpgradeTo_2_1", count: 2),
            ])
        #expect(
            error.description == """
                the step methods of the Objective-C class "XXAppUpdater" are not the ones the app expects \
                (2 differences; nothing ran):
                  +[XXAppUpdater appUpgradeTo_1_2]: expected, and not loaded (is its file in the target? a category \
                in a static library is loaded only when the app links with -ObjC)
                  +[XXAppUpdater appUpgradeTo_2_1]: defined 2 times, by the class and its categories (which one a \
                message send reaches depends on the order they were loaded in): keep one definition, or name it as \
                overridden
                """)
    }
}
