import VersionKit

/// The error thrown when a class's `appUpgradeTo_…` methods cannot be made into steps.
///
/// It is thrown before anything runs: for a process without an Objective-C runtime, for a class the
/// runtime does not know, for a class with methods named like steps that cannot be steps
/// (``unusableMethods`` names every one of them and why), and for a class whose step methods are not
/// the ones the app expects (``mismatches`` names every difference).
public struct ObjectiveCStepsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: Sendable, Hashable {
        /// The process has no Objective-C runtime loaded, or the one loaded lacks a function that
        /// finding or calling the methods needs.
        case noRuntime
        /// The runtime knows no class of that name.
        case unknownClass
        /// Some class methods start with `appUpgradeTo_` (in any case) but are not usable steps.
        case unusableMethods
        /// The step methods the runtime lists are not the ones the app expects: one is missing, one
        /// is not expected, or one is defined more than once without the app naming it as overridden.
        case methodsNotAsExpected
    }

    /// What kind of problem it is.
    public let code: Code
    /// The name of the class whose methods were looked for.
    public let className: String
    /// For ``Code-swift.enum/unusableMethods``, every method named like a step that cannot be one,
    /// ordered by selector name; empty for the other codes.
    public let unusableMethods: [UnusableStepMethod]
    /// For ``Code-swift.enum/noRuntime``, what was looked for and not found.
    public let detail: String
    /// For ``Code-swift.enum/methodsNotAsExpected``, every difference, ordered by selector name;
    /// empty for the other codes.
    public let mismatches: [StepMethodMismatch]

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of problem it is.
    ///   - className: The class whose methods were looked for.
    ///   - unusableMethods: The unusable methods, for ``Code-swift.enum/unusableMethods``.
    ///   - detail: What was not found, for ``Code-swift.enum/noRuntime``.
    ///   - mismatches: The differences, for ``Code-swift.enum/methodsNotAsExpected``.
    public init(
        code: Code, className: String, unusableMethods: [UnusableStepMethod] = [], detail: String = "",
        mismatches: [StepMethodMismatch] = []
    ) {
        self.code = code
        self.className = className
        self.unusableMethods = unusableMethods
        self.detail = detail
        self.mismatches = mismatches
    }

    /// A message a person can act on: the class, and what is wrong.
    public var description: String {
        switch code {
        case .noRuntime:
            return "cannot find the steps of the Objective-C class \"\(className)\": \(detail)"
        case .unknownClass:
            return "no Objective-C class named \"\(className)\" is loaded in this process: check the name, and"
                + " that the library or framework that defines it is linked and loaded"
        case .unusableMethods:
            let count = unusableMethods.count
            let lines = unusableMethods.map { "  +[\(className) \($0.selector)]: \($0.reason)" }
            return "the Objective-C class \"\(className)\" has \(count) class method\(count == 1 ? "" : "s")"
                + " named like \(count == 1 ? "a step that cannot be one" : "steps that cannot be steps")"
                + " (a step is + (BOOL) or + (void), takes no argument, and is named appUpgradeTo_A_B or"
                + " appUpgradeTo_A_B_C; rename a helper so that it does not start with appUpgradeTo_):\n"
                + lines.joined(separator: "\n")
        case .methodsNotAsExpected:
            let count = mismatches.count
            let lines = mismatches.map { "  +[\(className) \($0.selector)]: \($0.reason)" }
            return "the step methods of the Objective-C class \"\(className)\" are not the ones the app expects"
                + " (\(count) difference\(count == 1 ? "" : "s"); nothing ran):\n" + lines.joined(separator: "\n")
        }
    }
}

/// A class method whose name starts with `appUpgradeTo_` (in any case) but that cannot be a step.
public struct UnusableStepMethod: Sendable, Hashable {
    /// What makes a method unusable as a step.
    public enum Problem: Sendable, Hashable {
        /// The name, up to its first `:`, is not a whole step name; the error says what is wrong.
        case notAStepName(VersionParseError)
        /// The method takes arguments (its selector has this many `:`); a step takes none.
        case takesArguments(Int)
        /// The method returns something other than `BOOL` or `void`; the value is the return type's
        /// Objective-C type encoding, such as `@` for an object.
        case unsupportedReturnType(String)
        /// The runtime gives no type encoding for the method, so its return type is unknown.
        case missingTypeEncoding
    }

    /// The selector's name, exactly as the runtime lists it.
    public let selector: String
    /// Everything that is wrong with it, in the order: arguments, name, return type.
    public let problems: [Problem]

    /// Creates the description of an unusable method.
    ///
    /// - Parameters:
    ///   - selector: The selector's name.
    ///   - problems: What is wrong with it.
    public init(selector: String, problems: [Problem]) {
        self.selector = selector
        self.problems = problems
    }

    /// The problems as one sentence, such as `takes 1 argument; a step takes none`.
    public var reason: String {
        problems.map(\.description).joined(separator: "; ")
    }
}

extension UnusableStepMethod.Problem: CustomStringConvertible {
    /// The problem in words.
    public var description: String {
        switch self {
        case .notAStepName(let error):
            return "not a step name: \(error)"
        case .takesArguments(let count):
            return "takes \(count) argument\(count == 1 ? "" : "s"); a step takes none"
        case .unsupportedReturnType(let encoding):
            return "returns \(ObjectiveCTypeEncoding.describe(encoding)) (type encoding \"\(encoding)\");"
                + " a step returns BOOL or void"
        case .missingTypeEncoding:
            return "the runtime gives no type encoding for it, so its return type is unknown"
        }
    }
}
