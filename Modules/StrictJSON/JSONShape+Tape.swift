import VersionKit

/// ``JSONShape``'s readers over a ``JSONTape``: each reads a value of the kind it expects from its
/// token, and hands any other value (made with ``JSONTape/value(at:)``) to the reader of the same
/// name over ``JSONValue``, which decides it and words the fault. So each rule and each message is
/// in one place, and a document that reads well makes no ``JSONValue``.
extension JSONShape {
    /// Checks an object whose required keys the caller has looked up: when the token is an object
    /// with every required key (`found` of them, found by ``JSONTape/value(forKey:in:expectedAt:)``)
    /// and no other, the common case, it passes; anything else is decided by
    /// ``object(_:at:keys:required:)``, which names an unknown or missing key or lets through an
    /// optional one of `keys`.
    ///
    /// - Parameters:
    ///   - tape: The document.
    ///   - index: The object's token.
    ///   - path: Its path.
    ///   - found: How many of the required keys the caller found.
    ///   - requiredCount: How many keys are required.
    ///   - keys: The keys it may have, made only when the common case does not hold.
    ///   - required: The keys it must have, as many as `requiredCount`.
    /// - Throws: ``JSONShapeFault`` as ``object(_:at:keys:required:)`` does.
    package func object(
        _ tape: JSONTape, _ index: Int, at path: @autoclosure () -> JSONPath, found: Int, requiredCount: Int,
        keys: @autoclosure () -> [String], required: @autoclosure () -> [String]
    ) throws(JSONShapeFault) {
        if case .object = tape.kind(index), found == requiredCount, tape.memberCount(index) == requiredCount { return }
        _ = try object(tape.value(at: index), at: path(), keys: keys(), required: required())
    }

    /// A list's token: its number of values, which follow it (``JSONTape/after(_:)`` steps from
    /// one to the next).
    ///
    /// - Throws: ``JSONShapeFault`` for any other value, as ``array(_:at:)`` words it.
    package func array(_ tape: JSONTape, _ index: Int, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault)
        -> Int
    {
        if case .array = tape.kind(index) { return tape.memberCount(index) }
        _ = try array(tape.value(at: index), at: path())
        throw failure(path(), "expected a list")
    }

    /// A string.
    ///
    /// - Throws: ``JSONShapeFault`` for any other value, as ``string(_:at:)`` words it.
    package func string(_ tape: JSONTape, _ index: Int, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault)
        -> String
    {
        if let text = tape.string(index) { return text }
        return try string(tape.value(at: index), at: path())
    }

    /// `true` or `false`.
    ///
    /// - Throws: ``JSONShapeFault`` for any other value, as ``bool(_:at:)`` words it.
    package func bool(_ tape: JSONTape, _ index: Int, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault)
        -> Bool
    {
        if let flag = tape.bool(index) { return flag }
        return try bool(tape.value(at: index), at: path())
    }

    /// A whole number of at least `minimum`; `what` names it in the message.
    ///
    /// - Throws: ``JSONShapeFault`` for any other value, as ``integer(_:at:minimum:what:)`` words it.
    package func integer(
        _ tape: JSONTape, _ index: Int, at path: @autoclosure () -> JSONPath, minimum: Int, what: String
    ) throws(JSONShapeFault) -> Int {
        if let number = tape.integer(index), number >= minimum { return number }
        return try integer(tape.value(at: index), at: path(), minimum: minimum, what: what)
    }

    /// A version string such as `"1.2"`, read from the bytes where they lie when it has no escape.
    ///
    /// - Throws: ``JSONShapeFault`` for any other value, as ``version(_:at:)`` words it.
    package func version(_ tape: JSONTape, _ index: Int, at path: @autoclosure () -> JSONPath) throws(JSONShapeFault)
        -> Version
    {
        if let text = tape.plainBytes(index), let version = Version(utf8: text) { return version }
        return try version(tape.value(at: index), at: path())
    }

    /// A version string or `null`.
    ///
    /// - Throws: ``JSONShapeFault`` for any other value, as ``optionalVersion(_:at:)`` words it.
    package func optionalVersion(_ tape: JSONTape, _ index: Int, at path: @autoclosure () -> JSONPath)
        throws(JSONShapeFault) -> Version?
    {
        if tape.isNull(index) { return nil }
        return try version(tape, index, at: path())
    }
}
