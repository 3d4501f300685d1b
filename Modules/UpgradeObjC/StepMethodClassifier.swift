import VersionKit

/// Decides which of a class's methods are steps, from their names and type encodings alone: the part
/// of finding steps that needs no Objective-C runtime.
enum StepMethodClassifier {
    /// A class method as the runtime lists it, after duplicates are merged.
    struct ListedMethod: Sendable, Hashable {
        /// The selector's name, exactly as the runtime gives it.
        let selector: String
        /// The type encoding of the implementation a message send reaches, or `nil` when the runtime
        /// gives none.
        let typeEncoding: String?
    }

    /// A method that is a usable step.
    struct StepMethod: Sendable, Hashable {
        /// The selector's name: the step's id.
        let selector: String
        /// The name's version.
        let version: Version
        /// What the method returns.
        let returns: ObjectiveCTypeEncoding.ReturnKind
    }

    /// What a method named like a step is.
    enum Classification: Sendable, Hashable {
        /// A usable step.
        case step(StepMethod)
        /// A method that cannot be a step, with what is wrong.
        case unusable(UnusableStepMethod)
    }

    /// Whether a selector's name starts with `appUpgradeTo_`, compared without regard to ASCII case:
    /// such a method must be a usable step, or it is a configuration error.
    ///
    /// - Parameter selector: The selector's name.
    /// - Returns: `true` when it starts with the prefix in any case.
    static func isNamedLikeStep(_ selector: String) -> Bool {
        let prefix = Version.stepNamePrefix.utf8
        guard selector.utf8.count >= prefix.count else { return false }
        return zip(selector.utf8, prefix).allSatisfy { lowercased($0) == lowercased($1) }
    }

    /// The selectors named like steps, each once, in the order first listed: the runtime lists a
    /// selector once for the class and once for each category that overrides it.
    ///
    /// - Parameter selectors: The selectors' names as the runtime lists them.
    /// - Returns: The distinct names that start with the step-name prefix.
    static func candidates(among selectors: [String]) -> [String] {
        var seen = Set<String>()
        return selectors.filter { isNamedLikeStep($0) && seen.insert($0).inserted }
    }

    /// Makes steps of the methods named like steps, or reports every one that cannot be a step.
    ///
    /// - Parameters:
    ///   - methods: The class's distinct methods named like steps.
    ///   - className: The class, for the error.
    /// - Returns: The steps, ordered by version, then by selector name (the runtime's order of
    ///   methods is not stable, so equal versions need an order of their own).
    /// - Throws: ``ObjectiveCStepsError`` with code ``ObjectiveCStepsError/Code-swift.enum/unusableMethods``
    ///   naming every unusable method, ordered by selector name.
    static func steps(from methods: [ListedMethod], className: String) throws(ObjectiveCStepsError) -> [StepMethod] {
        var steps: [StepMethod] = []
        var unusable: [UnusableStepMethod] = []
        for method in methods {
            switch classify(method) {
            case .step(let step): steps.append(step)
            case .unusable(let method): unusable.append(method)
            }
        }
        guard unusable.isEmpty else {
            throw ObjectiveCStepsError(
                code: .unusableMethods, className: className,
                unusableMethods: unusable.sorted { precedes($0.selector, $1.selector) })
        }
        return steps.sorted { left, right in
            left.version != right.version ? left.version < right.version : precedes(left.selector, right.selector)
        }
    }

    /// One method as a step, or what is wrong with it.
    ///
    /// - Parameter method: A method whose name starts with the step-name prefix.
    /// - Returns: The step, or the method with every problem found.
    static func classify(_ method: ListedMethod) -> Classification {
        var problems: [UnusableStepMethod.Problem] = []
        let colons = method.selector.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: ":") ? 1 : 0) }
        if colons > 0 { problems.append(.takesArguments(colons)) }
        let name = method.selector.prefix { $0 != ":" }
        var version: Version?
        do {
            version = try Version(parsingStepName: name)
        } catch {
            problems.append(.notAStepName(error))
        }
        var returns: ObjectiveCTypeEncoding.ReturnKind?
        if let encoding = method.typeEncoding {
            let returnType = ObjectiveCTypeEncoding.returnType(of: encoding)
            returns = ObjectiveCTypeEncoding.kind(of: returnType)
            if returns == nil { problems.append(.unsupportedReturnType(returnType)) }
        } else {
            problems.append(.missingTypeEncoding)
        }
        guard problems.isEmpty, let version, let returns else {
            return .unusable(UnusableStepMethod(selector: method.selector, problems: problems))
        }
        return .step(StepMethod(selector: method.selector, version: version, returns: returns))
    }

    /// Selector order: by the names' bytes, which for step names (ASCII) is the order of their
    /// characters, the same on every platform and in every locale.
    static func precedes(_ left: String, _ right: String) -> Bool {
        left.utf8.lexicographicallyPrecedes(right.utf8)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
