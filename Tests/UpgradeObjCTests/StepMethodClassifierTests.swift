import Testing
import VersionKit

@testable import UpgradeObjC

@Suite("Objective-C step methods: which names and types are steps")
struct StepMethodClassifierTests {
    @Test(
        "the prefix appUpgradeTo_ in any case makes a method one that must be a step",
        arguments: [
            ("appUpgradeTo_1_2", true), ("APPUPGRADETO_1_2", true), ("AppUpgradeTo_anything", true),
            ("appUpgradeTo_", true), ("appupgradeto_1_2:", true), ("appUpgradeTo", false), ("xappUpgradeTo_1_2", false),
            ("upgradeHelper", false), ("", false), ("appUpgradeT0_1_2", false),
        ])
    func namedLikeStep(selector: String, expected: Bool) {
        #expect(StepMethodClassifier.isNamedLikeStep(selector) == expected)
    }

    @Test("a selector listed twice (a category overriding the class) is one candidate; unrelated methods none")
    func candidates() {
        let listed = [
            "appUpgradeTo_2_0", "resetCaches", "appUpgradeTo_1_1", "appUpgradeTo_2_0", "xappUpgradeTo_1_2",
            "APPUPGRADETO_3_0",
        ]
        #expect(
            StepMethodClassifier.candidates(among: listed) == [
                "appUpgradeTo_2_0", "appUpgradeTo_1_1", "APPUPGRADETO_3_0",
            ])
    }

    @Test(
        "BOOL (C on GCC's runtime, c on Intel Macs, B on arm64) and void (v, oneway Vv) methods are steps",
        arguments: [
            ("appUpgradeTo_1_2", "C16@0:8", "1.2", ObjectiveCTypeEncoding.ReturnKind.bool),
            ("appUpgradeTo_8_8_8", "c16@0:8", "8.8.8", .bool),
            ("APPUPGRADETO_8_8_0", "B16@0:8", "8.8.0", .bool),
            ("appUpgradeTo_9_0", "v16@0:8", "9.0", .void),
            ("appUpgradeTo_9_01", "Vv16@0:8", "9.1", .void),
        ])
    func usable(selector: String, encoding: String, version: String, kind: ObjectiveCTypeEncoding.ReturnKind) throws {
        let method = StepMethodClassifier.ListedMethod(selector: selector, typeEncoding: encoding)
        let expected = StepMethodClassifier.StepMethod(
            selector: selector, version: try Version(parsing: version), returns: kind)
        #expect(StepMethodClassifier.classify(method) == .step(expected))
    }

    @Test(
        "a method named like a step that cannot be one gets every problem it has",
        arguments: [
            ("appUpgradeTo_1_2:", "C20@0:8i16", ["takes 1 argument; a step takes none"]),
            (
                "appUpgradeTo_1_x:with:", "@32@0:8i16@24",
                [
                    "takes 2 arguments; a step takes none",
                    "not a step name: \"appUpgradeTo_1_x\": unexpected character \"x\" at offset 15; only ASCII digits 0-9 and \"_\" may appear",
                    "returns an object (id) (type encoding \"@\"); a step returns BOOL or void",
                ]
            ),
            (
                "appUpgradeTo_1_2_3_4", "C16@0:8",
                [
                    "not a step name: \"appUpgradeTo_1_2_3_4\": more than 3 components (the 4th starts at offset 19); a step name is appUpgradeTo_ and 2 or 3 numbers separated by \"_\", such as appUpgradeTo_1_2_3"
                ]
            ),
            (
                "appUpgradeTo_1", "C16@0:8",
                [
                    "not a step name: \"appUpgradeTo_1\": 1 component; a step name is appUpgradeTo_ and 2 or 3 numbers separated by \"_\", such as appUpgradeTo_1_2_3"
                ]
            ),
            ("appUpgradeTo_1_3", "i16@0:8", ["returns int (type encoding \"i\"); a step returns BOOL or void"]),
            (
                "appUpgradeTo_1_3", "{CGPoint=dd}16@0:8",
                ["returns a struct (type encoding \"{CGPoint=dd}\"); a step returns BOOL or void"]
            ),
            ("appUpgradeTo_1_3", "^v16@0:8", ["returns a pointer (type encoding \"^v\"); a step returns BOOL or void"]),
            (
                "appUpgradeTo_1_3", "@\"NSString\"16@0:8",
                ["returns an object (id) (type encoding \"@\"NSString\"\"); a step returns BOOL or void"]
            ),
            (
                "appUpgradeTo_1_3", "r*16@0:8",
                ["returns a C string (type encoding \"r*\"); a step returns BOOL or void"]
            ),
        ])
    func unusable(selector: String, encoding: String, reasons: [String]) {
        let method = StepMethodClassifier.ListedMethod(selector: selector, typeEncoding: encoding)
        guard case .unusable(let found) = StepMethodClassifier.classify(method) else {
            Issue.record("\(selector) \(encoding) was taken as a step")
            return
        }
        #expect(found.selector == selector)
        #expect(found.problems.map(\.description) == reasons)
    }

    @Test("a method without a type encoding cannot be a step: its return type is unknown")
    func missingEncoding() {
        let method = StepMethodClassifier.ListedMethod(selector: "appUpgradeTo_1_2", typeEncoding: nil)
        #expect(
            StepMethodClassifier.classify(method)
                == .unusable(UnusableStepMethod(selector: "appUpgradeTo_1_2", problems: [.missingTypeEncoding])))
    }

    @Test(
        "steps are ordered by version, and equal versions (8.8 == 8.8.0) by selector name, whatever the runtime's order"
    )
    func ordering() throws {
        let selectors = [
            "appUpgradeTo_9_0", "appUpgradeTo_8_8_0", "appUpgradeTo_8_10", "appUpgradeTo_8_8", "APPUPGRADETO_8_8",
            "appUpgradeTo_1_2",
        ]
        let expected = [
            "appUpgradeTo_1_2", "APPUPGRADETO_8_8", "appUpgradeTo_8_8", "appUpgradeTo_8_8_0", "appUpgradeTo_8_10",
            "appUpgradeTo_9_0",
        ]
        for shift in selectors.indices {
            let listed = (selectors[shift...] + selectors[..<shift]).map {
                StepMethodClassifier.ListedMethod(selector: $0, typeEncoding: "C16@0:8")
            }
            let steps = try StepMethodClassifier.steps(from: listed, className: "XXAppUpdater")
            #expect(steps.map(\.selector) == expected)
        }
    }

    @Test("a class without methods named like steps has no steps, and no error")
    func none() throws {
        #expect(StepMethodClassifier.candidates(among: ["resetCaches", "upgradeHelper", "xappUpgradeTo_1_2"]).isEmpty)
        #expect(try StepMethodClassifier.steps(from: [], className: "XXAppUpdater").isEmpty)
    }

    @Test("every unusable method is named in one error, by selector, and no step is made")
    func oneErrorForAll() {
        let listed = [
            StepMethodClassifier.ListedMethod(selector: "appUpgradeTo_1_3", typeEncoding: "@16@0:8"),
            StepMethodClassifier.ListedMethod(selector: "appUpgradeTo_1_1", typeEncoding: "C16@0:8"),
            StepMethodClassifier.ListedMethod(selector: "appUpgradeTo_1_2:", typeEncoding: "C20@0:8i16"),
        ]
        #expect {
            try StepMethodClassifier.steps(from: listed, className: "XXAppUpdater")
        } throws: { error in
            guard let error = error as? ObjectiveCStepsError else { return false }
            return error.code == .unusableMethods && error.className == "XXAppUpdater"
                && error.unusableMethods.map(\.selector) == ["appUpgradeTo_1_2:", "appUpgradeTo_1_3"]
                && error.description == """
                    the Objective-C class "XXAppUpdater" has 2 class methods named like steps that cannot be steps \
                    (a step is + (BOOL) or + (void), takes no argument, and is named appUpgradeTo_A_B or \
                    appUpgradeTo_A_B_C; rename a helper so that it does not start with appUpgradeTo_):
                      +[XXAppUpdater appUpgradeTo_1_2:]: takes 1 argument; a step takes none
                      +[XXAppUpdater appUpgradeTo_1_3]: returns an object (id) (type encoding "@"); a step returns BOOL or void
                    """
        }
    }

    @Test("one unusable method is worded in the singular")
    func singular() {
        let error = ObjectiveCStepsError(
            code: .unusableMethods, className: "XXAppUpdater",
            unusableMethods: [UnusableStepMethod(selector: "appUpgradeTo_1_3", problems: [.missingTypeEncoding])])
        #expect(
            error.description.hasPrefix(
                "the Objective-C class \"XXAppUpdater\" has 1 class method named like a step that cannot be one (a step is"
            ))
    }

    @Test("an unknown class and a missing runtime are errors naming the class")
    func classErrors() {
        #expect(
            ObjectiveCStepsError(code: .unknownClass, className: "XXAppUpdatr").description
                == "no Objective-C class named \"XXAppUpdatr\" is loaded in this process: check the name, and that the"
                + " library or framework that defines it is linked and loaded")
        #expect(
            ObjectiveCStepsError(code: .noRuntime, className: "XXAppUpdater", detail: "no runtime here").description
                == "cannot find the steps of the Objective-C class \"XXAppUpdater\": no runtime here")
    }
}
