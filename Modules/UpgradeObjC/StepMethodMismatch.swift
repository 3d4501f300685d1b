/// A difference between the step methods an app expects of its Objective-C class and the ones the
/// runtime lists, found before anything runs.
///
/// The runtime lists a class method once for each definition of it that is loaded: once for the
/// class's own `@implementation` and once for each category that defines it. It does not say which
/// category a definition came from in a way that survives a release build (the symbols that name
/// categories are stripped), so a selector listed more than once is detected and counted, not told
/// apart.
public enum StepMethodMismatch: Sendable, Hashable, CustomStringConvertible {
    /// An expected method that the runtime does not list: the file that defines it is not in the
    /// target, or its category sits in a static library linked without `-ObjC`, so the linker left
    /// it out.
    case missing(selector: String)
    /// A step method that the runtime lists and the app does not expect: add its id to the expected
    /// ones, or remove the method.
    case unexpected(selector: String)
    /// A step method defined more than once (by the class and a category, or by two categories)
    /// that the app did not name as overridden: which definition a message send reaches depends on
    /// the order in which the categories were loaded.
    case definedMoreThanOnce(selector: String, count: Int)
    /// A method the app named as overridden that the runtime lists once or not at all: the
    /// overriding category is not loaded (linked without `-ObjC`, say), or it was removed. (An
    /// expected method that is not listed at all is ``missing(selector:)`` instead.)
    case notOverridden(selector: String)

    /// The selector's name, exactly as the app or the runtime gives it.
    public var selector: String {
        switch self {
        case .missing(let selector), .unexpected(let selector), .definedMoreThanOnce(let selector, _),
            .notOverridden(let selector):
            return selector
        }
    }

    /// The difference in words, such as `appUpgradeTo_2_1: expected, and not loaded (...)`.
    public var description: String { "\(selector): \(reason)" }

    /// What is wrong, without the selector, such as `expected, and not loaded (...)`.
    public var reason: String {
        switch self {
        case .missing:
            return "expected, and not loaded (is its file in the target? a category in a static library is loaded"
                + " only when the app links with -ObjC)"
        case .unexpected:
            return "loaded, and not expected (add its id to the expected ones, or remove the method)"
        case .definedMoreThanOnce(_, let count):
            return "defined \(count) times, by the class and its categories (which one a message send reaches"
                + " depends on the order they were loaded in): keep one definition, or name it as overridden"
        case .notOverridden:
            return "named as overridden, and not defined more than once (is the overriding category linked? a"
                + " category in a static library is loaded only when the app links with -ObjC)"
        }
    }
}
