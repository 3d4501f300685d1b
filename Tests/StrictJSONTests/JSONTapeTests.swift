import StrictJSON
import Testing
import VersionKit

/// The parser's tokens (``JSONTape``), which the state document is read from, and the shape readers
/// over them: the same document, keys and faults as the values that ``JSONParser/parse(_:)`` makes.
@Suite("JSON reader: the tape")
struct JSONTapeTests {
    /// The tape of `text`, lent to `body` with the bytes it reads.
    private func withTape<T>(_ text: String, _ body: (JSONTape) throws -> T) throws -> T {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in try body(try JSONParser.tape(buffer)) }
    }

    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// A key that no other of the list has: `k0`, `k1`, ... of varied lengths and last bytes, so that
    /// the bits the parser keeps for its keys collide once there are more than a few.
    private func key(_ index: Int) -> String { "k" + String(repeating: "x", count: index % 5) + "\(index)" }

    @Test("a repeated key is found among any number of keys, wherever the first one is", arguments: [2, 9, 40, 70])
    func duplicateAmongMany(count: Int) {
        let keys = (0..<count).map(key)
        let distinct = "{" + keys.map { "\"\($0)\": 1" }.joined(separator: ", ") + "}"
        #expect(syntaxError(distinct) == nil)
        for repeated in 0..<count {
            let text = String(distinct.dropLast()) + ", \"\(keys[repeated])\": 2}"
            let error = syntaxError(text)
            #expect(error?.message == "duplicate key \"\(keys[repeated])\"", "key \(repeated) of \(count)")
        }
    }

    @Test(
        "a repeated key is found past the keys compared one by one, written with escapes or in other bytes",
        arguments: [0, 14, 15, 16, 17, 100, 5_000])
    func duplicateAmongManyWrittenOtherwise(fillers: Int) {
        // Keys written with an escape, as a hostile document may have thousands of.
        let filler = (0..<fillers).map { "\"\\u0041\($0)\": 1" }
        func object(_ members: [String]) -> String { "{" + (filler + members).joined(separator: ", ") + "}" }
        let cases: [([String], String?)] = [
            (["\"b\": 1", "\"\\u0062\": 2"], "b"),
            (["\"\\u0062\": 1", "\"b\": 2"], "b"),
            (["\"e\u{301}\u{323}\": 1", "\"e\u{323}\u{301}\": 2"], "e\u{323}\u{301}"),
            (["\"\u{e9}\": 1", "\"e\u{301}\": 2"], nil),
            (["\"A0\": 1"], fillers > 0 ? "A0" : nil),
            (["\"b\": 1", "\"c\": 2"], nil),
        ]
        for (members, repeated) in cases {
            let text = object(members)
            let error = syntaxError(text)
            #expect(error?.message == repeated.map { "duplicate key \"\($0)\"" }, "\(members) after \(fillers)")
            if let error, repeated != nil {
                // At the repeated key: the last member's.
                // Columns count characters as Unicode scalars.
                let column = text.unicodeScalars.count - members.last!.unicodeScalars.count
                #expect(error.column == column, "\(members) after \(fillers)")
            }
        }
    }

    @Test(
        "keys compare as text: an escape, the same characters in other bytes; not another length",
        arguments: [
            (#"{"a": 1, "\u0061": 2}"#, true),
            (#"{"\u0061": 1, "a": 2}"#, true),
            (#"{"b": 1, "\u0062c": 2, "bc": 3}"#, true),
            ("{\"é\": 1, \"é\": 2}", true),
            // Two combining marks in either order: the same text, as long, in other bytes.
            ("{\"e\u{301}\u{323}\": 1, \"e\u{323}\u{301}\": 2}", true),
            // é in one character and in two: the same text, but another length, as objects compare keys.
            ("{\"\u{e9}\": 1, \"e\u{301}\": 2}", false),
            (#"{"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]}"#, false),
            (#"{"": 1, "\u0000": 2, "\"": 3}"#, false),
            (#"{"": 1, "x": 2, "": 3}"#, true),
        ])
    func keysCompareAsText(text: String, duplicate: Bool) throws {
        let error = syntaxError(text)
        #expect((error?.message.hasPrefix("duplicate key") ?? false) == duplicate, "\(String(describing: error))")
        if !duplicate {
            // Keys that are not the same key stay members of their own, none the same as another.
            guard case .object(let object) = try JSONParser.parse(Array(text.utf8)) else {
                Issue.record("not an object")
                return
            }
            let keys = object.entries.map(\.key)
            for (index, key) in keys.enumerated() {
                #expect(!keys[..<index].contains { $0.isSameKey(as: key) }, "\(key) in \(text)")
            }
        }
    }

    @Test("a key is found wherever the reader expects it, and the next expected is the member after it")
    func lookups() throws {
        let text = #"{"b": {"a": 0, "c": 9}, "a": [1, {"a": 5}], "\u0063": 3, "é": 4, "d": null}"#
        try withTape(text) { tape in
            let starts = [-5, 0, 1, 2, 3, 4, 7, 9, 14, tape.count, 99]
            // Tokens: 0 the object; 1 "b", 2 its object (3 "a", 4, 5 "c", 6); 7 "a", 8 its list (9, 10 an
            // object: 11 "a", 12); 13 "c" written with an escape, 14; 15 "é", 16; 17 "d", 18.
            for (key, expected) in [("b", 2), ("a", 8), ("c", 14), ("é", 16), ("d", 18)] as [(StaticString, Int)] {
                for start in starts {
                    var next = start
                    #expect(tape.value(forKey: key, in: 0, expectedAt: &next) == expected, "\(key) from \(start)")
                    #expect(next == tape.after(expected), "\(key) from \(start)")
                }
            }
            // In order from the first member, each key is the next.
            var next = tape.firstMember(of: 0)
            for key in ["b", "a", "c", "é", "d"] as [StaticString] {
                let expectedKey = next
                #expect(tape.value(forKey: key, in: 0, expectedAt: &next) == expectedKey + 1, "\(key)")
            }
            for missing in ["", "e", "bb", "A", "e\u{301}"] as [StaticString] {
                var next = tape.firstMember(of: 0)
                #expect(tape.value(forKey: missing, in: 0, expectedAt: &next) == nil, "\(missing)")
                #expect(next == tape.firstMember(of: 0))
            }
            // A string value with the text of the key is not taken for the key.
            try withTape(#"{"x": "a", "a": 1}"#) { small in
                var value = 2
                #expect(small.value(forKey: "a", in: 0, expectedAt: &value) == 4)
            }
            // Not an object: no key.
            var next2 = 0
            #expect(tape.value(forKey: "a", in: 8, expectedAt: &next2) == nil)
            #expect(tape.value(forKey: "a", in: 4, expectedAt: &next2) == nil)
            // A nested object's keys, not the outer one's; an outer key is not expected in it.
            var inner = tape.firstMember(of: 2)
            #expect(tape.value(forKey: "c", in: 2, expectedAt: &inner) == 6)
            #expect(tape.integer(6) == 9)
            var outer = 13
            #expect(tape.value(forKey: "c", in: 2, expectedAt: &outer) == 6)
        }
    }

    @Test("the value of every token is the part of the document's value it stands for")
    func valuesOfTokens() throws {
        let text = #"{"list": [1, -2.5, "x\ny", [], {}, [null, true, false]], "object": {"é": {"k": [0]}}}"#
        let document = try JSONParser.parse(Array(text.utf8))
        try withTape(text) { tape in
            #expect(tape.value(at: 0) == document)
            // Every container's members, walked with `after`, are its value's members.
            func check(_ index: Int, _ value: JSONValue) {
                #expect(tape.value(at: index) == value)
                switch value {
                case .array(let elements):
                    #expect(tape.memberCount(index) == elements.count)
                    var element = index + 1
                    for expected in elements {
                        check(element, expected)
                        element = tape.after(element)
                    }
                    #expect(element == tape.after(index))
                case .object(let object):
                    #expect(tape.memberCount(index) == object.count)
                    var member = tape.firstMember(of: index)
                    for entry in object.entries {
                        #expect(tape.string(member) == entry.key)
                        check(member + 1, entry.value)
                        member = tape.after(member + 1)
                    }
                    #expect(member == tape.after(index))
                default:
                    #expect(tape.after(index) == index + 1)
                }
            }
            check(0, document)
        }
    }

    @Test("integers that fit in Int are integers, to the last one; beyond, numbers as written")
    func integerLimits() throws {
        let text = "[\(Int.max), \(Int.min), 9223372036854775808, -9223372036854775809, -0, 0, 18446744073709551616]"
        #expect(
            try JSONParser.parse(Array(text.utf8))
                == .array([
                    .integer(.max), .integer(.min), .number("9223372036854775808"), .number("-9223372036854775809"),
                    .integer(0), .integer(0), .number("18446744073709551616"),
                ]))
    }

    @Test(
        "a string's end, escape, control character or non-ASCII character is found at every position",
        arguments: 0..<20)
    func stringsAtEveryPosition(length: Int) throws {
        for position in 0...length {
            let before = String(repeating: "a", count: position)
            let after = String(repeating: "b", count: length - position)
            for (written, read) in [("\\\"", "\""), ("\\\\", "\\"), ("\\u0041", "A"), ("é", "é"), ("😀", "😀"), ("", "")]
            {
                let text = "[\"\(before)\(written)\(after)\", 1]"
                #expect(
                    try JSONParser.parse(Array(text.utf8)) == .array([.string(before + read + after), .integer(1)]),
                    "\(text)")
            }
            let control = "[\"\(before)\u{1}\(after)\"]"
            let error = syntaxError(control)
            #expect(error?.message.hasPrefix("control character U+0001") == true, "\(control)")
            #expect(error?.column == 3 + position, "\(control)")
            let unterminated = "[\"\(before)\(after)"
            #expect(syntaxError(unterminated)?.message == "unexpected end of the document inside a string")
            var invalid = Array("[\"\(before)".utf8)
            invalid.append(0xFF)
            invalid += Array("\(after)\"]".utf8)
            #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(invalid) }
        }
    }

    @Test(
        "the shape readers over the tape give what those over values give, faults worded the same",
        arguments: [
            #"1"#, #"-3"#, #"0"#, #""x""#, #""""#, #"true"#, #"false"#, #"null"#, #"[]"#, #"[1]"#, #"{}"#, #"1.5"#,
            #""1.2""#, #""1.2.3""#, #""1\u002e2""#, #""1..2""#, #""v1""#, #""\u00e9""#,
        ])
    func shapeReaders(value: String) throws {
        let shape = JSONShape()
        let path = JSONPath().appending("v")
        let tree = try JSONParser.parse(Array(value.utf8))
        func same<T: Equatable>(
            _ onTape: (JSONTape) throws(JSONShapeFault) -> T, _ onValue: () throws(JSONShapeFault) -> T
        ) throws {
            let expected = Result { () throws(JSONShapeFault) in try onValue() }
            let found = try withTape(value) { tape in Result { () throws(JSONShapeFault) in try onTape(tape) } }
            switch (found, expected) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(value)")
            case (.failure(let a), .failure(let b)):
                #expect(a.message == b.message, "\(value)")
                #expect(a.path == b.path, "\(value)")
            default: Issue.record("\(value): \(found) on the tape, \(expected) from the value")
            }
        }
        try same({ tape throws(JSONShapeFault) in try shape.string(tape, 0, at: path) }) {
            () throws(JSONShapeFault) in try shape.string(tree, at: path)
        }
        try same({ tape throws(JSONShapeFault) in try shape.bool(tape, 0, at: path) }) {
            () throws(JSONShapeFault) in try shape.bool(tree, at: path)
        }
        try same({ tape throws(JSONShapeFault) in try shape.integer(tape, 0, at: path, minimum: 0, what: "n") }) {
            () throws(JSONShapeFault) in try shape.integer(tree, at: path, minimum: 0, what: "n")
        }
        try same({ tape throws(JSONShapeFault) in try shape.version(tape, 0, at: path) }) {
            () throws(JSONShapeFault) in try shape.version(tree, at: path)
        }
        try same({ tape throws(JSONShapeFault) in try shape.optionalVersion(tape, 0, at: path) }) {
            () throws(JSONShapeFault) in try shape.optionalVersion(tree, at: path)
        }
        try same({ tape throws(JSONShapeFault) in try shape.array(tape, 0, at: path) }) {
            () throws(JSONShapeFault) in try shape.array(tree, at: path).count
        }
    }

    @Test(
        "the object check over the tape passes what the check over values passes, and words the rest",
        arguments: [
            (#"{"a": 1, "b": 2}"#, true),
            (#"{"b": 2, "a": 1}"#, true),
            (#"{"a": 1, "b": 2, "c": 3}"#, true),
            (#"{"a": 1}"#, false),
            (#"{"a": 1, "b": 2, "x": 3}"#, false),
            (#"{"a": 1, "bb": 2}"#, false),
            (#"{"\u0061": 1, "b": 2}"#, true),
            (#"[1]"#, false),
        ])
    func objectCheck(text: String, passes: Bool) throws {
        let shape = JSONShape()
        let tree = try JSONParser.parse(Array(text.utf8))
        let expected: String?
        do {
            _ = try shape.object(tree, at: JSONPath(), keys: ["a", "b", "c"], required: ["a", "b"])
            expected = nil
        } catch {
            expected = error.message
        }
        #expect((expected == nil) == passes)
        try withTape(text) { tape in
            var next = tape.firstMember(of: 0)
            let found = [
                tape.value(forKey: "a", in: 0, expectedAt: &next), tape.value(forKey: "b", in: 0, expectedAt: &next),
            ].compactMap { $0 }.count
            do throws(JSONShapeFault) {
                try shape.object(
                    tape, 0, at: JSONPath(), found: found, requiredCount: 2, keys: ["a", "b", "c"],
                    required: ["a", "b"])
                #expect(expected == nil)
            } catch {
                #expect(error.message == expected)
            }
        }
    }
}
