import UpgradeCore

extension UpgradeStep {
    /// Makes a step of each `appUpgradeTo_A_B[_C]` class method of an Objective-C class, as the
    /// pattern's `class_copyMethodList` found them: the methods of the class's metaclass, categories
    /// included, as loaded in the process now.
    ///
    /// Each step's id is the selector's name exactly as written, and its version is the name's
    /// version. A `+ (BOOL)` method fails its attempt when it returns `NO`; a `+ (void)` method
    /// succeeds when it returns. Each method is called on the main thread (the main actor) inside an
    /// autorelease pool, through the implementation a message send reaches: a selector that a
    /// category overrides is one step, calling the category's method. The main thread is blocked
    /// while a method runs, as it was under the pattern. Steps of equal version are
    /// ordered by selector name; the upgrader then runs them as it runs any steps, with Swift-declared
    /// steps, a floor and any store.
    ///
    /// It finds what is loaded, and nothing says what should be: a category that the linker left out
    /// (a static library linked without `-ObjC`) is a step that silently never runs, and a selector
    /// that two categories define runs whichever was loaded last. Prefer
    /// ``objectiveCMethods(ofClassNamed:expecting:overridden:fileID:line:)``, which checks both.
    ///
    /// ```swift
    /// let upgrader = try Upgrader(store: store) {
    ///     try UpgradeStep.objectiveCMethods(ofClassNamed: "XXAppUpdater")
    ///     UpgradeStep("9.2") { try await reindexSearch() }
    /// }
    /// ```
    ///
    /// On Apple platforms this is the system's runtime. On Linux it is whichever runtime the process
    /// has loaded (GCC's `libobjc`, as GNUstep uses, or libobjc2), found at run time whether it was
    /// loaded globally or not. There a method runs inside libobjc2's own autorelease pool, or, on
    /// GCC's runtime, which has none, inside an `NSAutoreleasePool` made through the runtime when a
    /// Foundation that defines the class (GNUstep Base) is loaded; without one, there is no pool.
    ///
    /// - Parameters:
    ///   - className: The class whose class methods are the steps, such as `XXAppUpdater`.
    ///   - fileID: The file that asks for the steps; keep the default, so that errors can name it.
    ///   - line: The line that asks for the steps; keep the default.
    /// - Returns: The steps, ordered by version, then by selector name (byte by byte, so
    ///   `APPUPGRADETO_8_8` before `appUpgradeTo_8_8`).
    /// - Throws: ``ObjectiveCStepsError``: with code ``ObjectiveCStepsError/Code-swift.enum/unusableMethods``
    ///   naming every class method whose name starts with `appUpgradeTo_` (in any case) that cannot be
    ///   a step (not a whole step name, takes arguments, returns neither `BOOL` nor `void`), so that no
    ///   malformed step silently disappears; ``ObjectiveCStepsError/Code-swift.enum/unknownClass`` when
    ///   no class of that name is loaded; ``ObjectiveCStepsError/Code-swift.enum/noRuntime`` when the
    ///   process has no Objective-C runtime.
    public static func objectiveCMethods(
        ofClassNamed className: String, fileID: String = #fileID, line: Int = #line
    ) throws(ObjectiveCStepsError) -> [UpgradeStep] {
        let (runtime, found, listed) = try listedMethods(ofClassNamed: className)
        return try steps(of: listed, in: found, className: className, runtime: runtime, fileID: fileID, line: line)
    }

    /// Makes a step of each `appUpgradeTo_A_B[_C]` class method of an Objective-C class, as
    /// ``objectiveCMethods(ofClassNamed:fileID:line:)`` does, after checking that they are exactly
    /// the methods the app expects: none missing, none unexpected, none defined twice by mistake.
    ///
    /// Without the check, a step that is not loaded disappears without a word: a category in a
    /// static library that the app links without `-ObjC` (the linker keeps no object file that
    /// only a category is in), or a file left out of the target. The launch then moves the
    /// upgraded-through mark past it, and it never runs. With the expected ids written down, that
    /// is a configuration error before anything runs, and the app's unit test (or its first launch
    /// in development) finds it.
    ///
    /// ```swift
    /// let upgrader = try Upgrader(store: store) {
    ///     try UpgradeStep.objectiveCMethods(
    ///         ofClassNamed: "XXAppUpdater",
    ///         expecting: ["appUpgradeTo_1_1", "appUpgradeTo_1_2", "appUpgradeTo_2_0"],
    ///         overridden: ["appUpgradeTo_2_0"])
    /// }
    /// ```
    ///
    /// The runtime lists a class method once per definition that is loaded: once for the class's
    /// own `@implementation` and once for each category that defines it, on Apple's runtime and on
    /// GCC's alike. A selector listed more than once is an error unless the app names it in
    /// `overridden`; it cannot say which category it means, since the runtime does not tell which
    /// category a definition came from (the symbols that name categories are stripped from a
    /// release build): a named selector calls the implementation a message send reaches, which is
    /// the category loaded last, in the order the linker put the object files. A selector named in
    /// `overridden` that is then listed only once is an error too: the overriding category is gone.
    ///
    /// - Parameters:
    ///   - className: The class whose class methods are the steps, such as `XXAppUpdater`.
    ///   - expectedIDs: Every step method the class must have, by selector name, such as
    ///     `appUpgradeTo_8_8_8` (in any order; a repeated id counts once).
    ///   - overridden: The selectors that the class and a category, or several categories, define
    ///     on purpose; each is one step, calling the implementation a message send reaches.
    ///   - fileID: The file that asks for the steps; keep the default, so that errors can name it.
    ///   - line: The line that asks for the steps; keep the default.
    /// - Returns: The steps, ordered by version, then by selector name.
    /// - Throws: ``ObjectiveCStepsError``: the errors of ``objectiveCMethods(ofClassNamed:fileID:line:)``
    ///   first, then, with code ``ObjectiveCStepsError/Code-swift.enum/methodsNotAsExpected``, every
    ///   ``StepMethodMismatch``: an expected method not loaded, a step method loaded and not
    ///   expected, one defined more than once and not in `overridden`, and one in `overridden`
    ///   defined only once.
    public static func objectiveCMethods(
        ofClassNamed className: String, expecting expectedIDs: [String], overridden: Set<String> = [],
        fileID: String = #fileID, line: Int = #line
    ) throws(ObjectiveCStepsError) -> [UpgradeStep] {
        let (runtime, found, listed) = try listedMethods(ofClassNamed: className)
        let steps = try steps(of: listed, in: found, className: className, runtime: runtime, fileID: fileID, line: line)
        let mismatches = StepMethodExpectations.mismatches(
            listed: listed.filter(StepMethodClassifier.isNamedLikeStep), expected: expectedIDs, overridden: overridden)
        guard mismatches.isEmpty else {
            throw ObjectiveCStepsError(code: .methodsNotAsExpected, className: className, mismatches: mismatches)
        }
        return steps
    }

    /// The runtime, the class, and the names of its class methods as the runtime lists them.
    private static func listedMethods(
        ofClassNamed className: String
    ) throws(ObjectiveCStepsError) -> (ObjectiveCRuntime, ObjectiveCRuntime.Class, [String]) {
        let runtime = try ObjectiveCRuntime.loaded(lookingFor: className)
        guard let found = runtime.lookUpClass(named: className) else {
            throw ObjectiveCStepsError(code: .unknownClass, className: className)
        }
        return (runtime, found, runtime.classMethodNames(of: found))
    }

    /// The steps of the listed methods named like steps, or the error naming every unusable one.
    private static func steps(
        of listed: [String], in found: ObjectiveCRuntime.Class, className: String, runtime: ObjectiveCRuntime,
        fileID: String, line: Int
    ) throws(ObjectiveCStepsError) -> [UpgradeStep] {
        let methods = StepMethodClassifier.candidates(among: listed).map { selector in
            StepMethodClassifier.ListedMethod(
                selector: selector, typeEncoding: runtime.typeEncoding(ofClassMethod: selector, in: found))
        }
        return try StepMethodClassifier.steps(from: methods, className: className).map { method in
            UpgradeStep(
                method.version, id: method.selector, summary: "+[\(className) \(method.selector)]",
                fileID: fileID, line: line
            ) { () async -> Bool in
                await runtime.call(method.selector, in: found, returning: method.returns)
            }
        }
    }
}
