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
    /// category overrides is one step, calling the category's method. Steps of equal version are
    /// ordered by selector name; the upgrader then runs them as it runs any steps, with Swift-declared
    /// steps, a floor and any store.
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
        let runtime = try ObjectiveCRuntime.loaded(lookingFor: className)
        guard let found = runtime.lookUpClass(named: className) else {
            throw ObjectiveCStepsError(code: .unknownClass, className: className)
        }
        let selectors = StepMethodClassifier.candidates(among: runtime.classMethodNames(of: found))
        let methods = selectors.map { selector in
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
