import VersionKit

/// Reads typed values out of a parsed ``JSONValue`` strictly, wording each fault the same way for
/// every document the package reads (fixtures, state documents, history lines).
///
/// Each reader names the JSON path of the value and what is wrong with it, as a ``JSONShapeFault``
/// that the caller turns into its own error, with the file or store it came from. Paths are taken
/// as autoclosures: they are built only for an error.
package struct JSONShape {
    /// Creates a reader.
    package init() {}

    /// The fault at `path` with `message`.
    package func failure(_ path: JSONPath, _ message: String) -> JSONShapeFault {
        JSONShapeFault(path: path, message: message)
    }

    /// An object with only `keys` and every one of `required`; an unknown key is named, with the
    /// closest known key when one is close.
    package func object(_ value: JSONValue, at path: @autoclosure () -> JSONPath, keys: [String], required: [String])
        throws(JSONShapeFault)
        -> JSONObject
    {
        guard case .object(let object) = value else {
            throw failure(path(), "expected an object, found \(describe(value))")
        }
        let missing = required.first { !object.contains(key: $0) }
        for entry in object.entries where !keys.contains(entry.key) {
            var message = "unknown key \(JSONWriter.quoted(entry.key))"
            if let suggestion = Suggestion.closest(to: entry.key, among: keys) {
                message += " (did you mean \(JSONWriter.quoted(suggestion))?)"
            }
            message += "; the keys here are \(keys.joined(separator: ", "))"
            throw failure(path().appending(entry.key), message)
        }
        if let missing { throw failure(path(), "missing the required key \(JSONWriter.quoted(missing))") }
        return object
    }

    /// A list.
    package func array(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault) -> [JSONValue] {
        guard case .array(let elements) = value else {
            throw failure(path(), "expected a list, found \(describe(value))")
        }
        return elements
    }

    /// A string.
    package func string(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault) -> String {
        guard case .string(let text) = value else {
            throw failure(path(), "expected a string, found \(describe(value))")
        }
        return text
    }

    /// A string that is not empty.
    package func nonEmptyString(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault)
        -> String
    {
        let text = try string(value, at: path())
        if text.isEmpty { throw failure(path(), "must not be empty") }
        return text
    }

    /// `true` or `false`.
    package func bool(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault) -> Bool {
        guard case .bool(let flag) = value else {
            throw failure(path(), "expected true or false, found \(describe(value))")
        }
        return flag
    }

    /// A whole number of at least `minimum`; `what` names it in the message.
    package func integer(_ value: JSONValue, at path: @autoclosure () -> JSONPath, minimum: Int, what: String)
        throws(JSONShapeFault) -> Int
    {
        guard case .integer(let number) = value else {
            throw failure(path(), "expected a whole number, found \(describe(value))")
        }
        if number < minimum { throw failure(path(), "\(what) must be at least \(minimum); found \(number)") }
        return number
    }

    /// A finite number, whole or not.
    package func number(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault) -> Double {
        switch value {
        case .integer(let number):
            return Double(number)
        case .number(let literal):
            guard let number = Double(literal), number.isFinite else {
                throw failure(path(), "the number \(literal) is out of range")
            }
            return number
        default:
            throw failure(path(), "expected a number, found \(describe(value))")
        }
    }

    /// A version string such as `"1.2"`.
    package func version(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault) -> Version {
        switch value {
        case .string(let text):
            do {
                return try Version(parsing: text)
            } catch {
                throw failure(path(), error.description)
            }
        case .integer(let number):
            throw failure(path(), "expected a version in quotes, such as \"1.0\"; found the number \(number)")
        case .number(let literal):
            throw failure(path(), "expected a version in quotes, such as \"\(literal)\"; found the number \(literal)")
        default:
            throw failure(path(), "expected a version string such as \"1.2\", found \(describe(value))")
        }
    }

    /// A version string or `null`.
    package func optionalVersion(_ value: JSONValue, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault)
        -> Version?
    {
        if case .null = value { return nil }
        return try version(value, at: path())
    }

    /// A value as a message names it: `the number 3`, `the string "x"`, `a list`.
    package func describe(_ value: JSONValue) -> String {
        switch value {
        case .integer(let number): "the number \(number)"
        case .number(let literal): "the number \(literal)"
        case .string(let text):
            "the string \(JSONWriter.quoted(text.count > 40 ? String(text.prefix(40)) + "…" : text))"
        default: value.kindDescription
        }
    }
}

/// A value that does not have the shape a reader expects: where it is, and what is wrong.
package struct JSONShapeFault: Error, Sendable {
    /// The path of the value.
    package var path: JSONPath
    /// What is wrong with it, as a sentence without its location.
    package var message: String

    /// Creates a fault.
    ///
    /// - Parameters:
    ///   - path: The path of the value.
    ///   - message: What is wrong with it.
    package init(path: JSONPath, message: String) {
        self.path = path
        self.message = message
    }
}
