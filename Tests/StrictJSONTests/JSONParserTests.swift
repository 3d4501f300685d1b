import StrictJSON
import Testing

/// The package's strict JSON reader and writer (Modules/StrictJSON), which fixtures, the
/// state document and the launch history are read with.
@Suite("JSON reader")
struct JSONParserTests {
    private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private func syntaxError(_ text: String) -> JSONSyntaxError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("keeps integers, other numbers and booleans apart")
    func numbersAndBooleans() throws {
        let value = try parse(#"[1, true, false, 1.0, -0, 1e2, 12345678901234567890, null]"#)
        #expect(
            value
                == .array([
                    .integer(1), .bool(true), .bool(false), .number("1.0"), .integer(0), .number("1e2"),
                    .number("12345678901234567890"), .null,
                ]))
    }

    @Test("keeps the order of keys")
    func keyOrder() throws {
        guard case .object(let object) = try parse(#"{"b": 1, "a": 2, "c": {"z": [], "y": {}}}"#) else {
            Issue.record("not an object")
            return
        }
        #expect(object.entries.map(\.key) == ["b", "a", "c"])
    }

    @Test("a key is found as Swift strings compare, in whatever code points it is written")
    func lookupByKey() throws {
        guard case .object(let object) = try parse(#"{"b": 1, "a": 2, "\u0063": 3, "é": 4}"#) else {
            Issue.record("not an object")
            return
        }
        for (key, value) in [("b", 1), ("a", 2), ("c", 3), ("é", 4), ("e\u{301}", 4)] {
            #expect(object[key] == .integer(value), "\(key)")
            #expect(object.contains(key: key), "\(key)")
        }
        for missing in ["", "d", "bb", "A"] {
            #expect(!object.contains(key: missing), "\(missing)")
        }
    }

    @Test("reads escapes, surrogate pairs and UTF-8")
    func strings() throws {
        let value = try parse(#"["a\"b\\c\/d\n\t\u00e9\ud83d\ude00", "héllo 😀"]"#)
        #expect(value == .array([.string("a\"b\\c/d\n\té😀"), .string("héllo 😀")]))
    }

    @Test(
        "rejects malformed documents with line, column and path",
        arguments: [
            ("", 1, 1, "", "the document is empty"),
            ("{\"a\": [1,\n  2,, 3]}", 2, 5, "a[2]", "unexpected character \",\"; expected a value"),
            ("{\"a\": 1,}", 1, 9, "", "trailing comma"),
            ("{\"a\": 1, \"a\": 2}", 1, 10, "", "duplicate key \"a\""),
            ("{\"a\": [1, 2]", 1, 13, "", "expected \",\" or \"}\""),
            ("[1] x", 1, 5, "", "after the end of the JSON value"),
            ("{\"s\": \"\\q\"}", 1, 8, "s", "invalid escape"),
            ("{\"s\": \"a\nb\"}", 1, 9, "s", "control character U+000A"),
            ("[01]", 1, 3, "[0]", "leading zero"),
            ("// note\n{}", 1, 1, "", "unexpected character \"/\""),
            ("{\"a\": tru}", 1, 7, "a", "expected a value"),
            ("{\"steps\": [{\"version\": \"1.0\" \"id\": \"x\"}]}", 1, 30, "steps[0]", "expected \",\" or \"}\""),
            ("[1,]", 1, 4, "", "trailing comma before \"]\""),
            ("[NaN]", 1, 2, "[0]", "unexpected character \"N\"; expected a value"),
            ("[-Infinity]", 1, 3, "[0]", "a number needs a digit after \"-\""),
            ("[\"\\ud800\"]", 1, 9, "[0]", "a high surrogate \\uD800 must be followed by a low one"),
            ("[\"\\udc00\"]", 1, 9, "[0]", "a lone low surrogate \\uDC00"),
            ("{\"a\": {\"\\u0062\": 1, \"b\": 2}}", 1, 21, "a", "duplicate key \"b\""),
            ("[\"\\u0041\\q\"]", 1, 9, "[0]", "invalid escape \"\\q\""),
            ("[\"\\n\u{1}\"]", 1, 5, "[0]", "control character U+0001"),
            ("[\"\\n\u{7F}\", \"\u{e9}\", {\"\u{e9}\": 1, \"\u{e9}\": 2}]", 1, 23, "[2]", "duplicate key \"\u{e9}\""),
        ])
    func malformed(text: String, line: Int, column: Int, path: String, message: String) {
        guard let error = syntaxError(text) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(error.line == line)
        #expect(error.column == column)
        #expect(error.path.description == path)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("finds a repeated key in objects small and large, wherever it repeats", arguments: [1, 2, 15, 16, 17, 48])
    func repeatedKeys(members: Int) throws {
        let keys = (0..<members).map { "k\($0)" }
        let unique = "{" + keys.map { "\"\($0)\": 0" }.joined(separator: ", ") + "}"
        #expect(try parse(unique) == .object(JSONObject(entries: keys.map { JSONMember($0, .integer(0)) })))
        for repeated in keys {
            // The repeated key is the last member; the error points at its opening quote.
            let text = "{" + keys.map { "\"\($0)\": 0" }.joined(separator: ", ") + ", \"\(repeated)\": 1}"
            let error = syntaxError(text)
            #expect(error?.message.contains("duplicate key \"\(repeated)\"") == true, "\(members): \(repeated)")
            #expect(error?.column == text.utf8.count - repeated.utf8.count - 5)
        }
        let accents = "{\"e\u{301}\": 0, " + keys.map { "\"\($0)\": 0" }.joined(separator: ", ") + ", \"\u{e9}\": 1}"
        #expect(syntaxError(accents)?.message.contains("duplicate key") == true, "\(members): é")
    }

    @Test("rejects invalid UTF-8")
    func invalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test("writes what it reads")
    func roundTrip() throws {
        let text = #"{"a": [1, true, null, "x\"\n"], "b": {"c": 1.5e3}}"#
        let value = try parse(text)
        #expect(try parse(JSONWriter.compact(value)) == value)
        #expect(try parse(JSONWriter.pretty(value)) == value)
        #expect(JSONWriter.compact(value) == text)
    }

    @Test("renders paths with plain and quoted keys")
    func paths() {
        let path = JSONPath([.key("histories"), .index(2), .key("launches"), .index(0)])
        #expect(path.description == "histories[2].launches[0]")
        #expect(JSONPath([.key("steps"), .index(0), .key("odd key")]).description == #"steps[0]["odd key"]"#)
        #expect(JSONPath().description == "")
    }
}

@Suite("JSON reader: locating a value")
struct JSONLocateTests {
    @Test(
        "the line and column of the value at a path",
        arguments: [
            (JSONPath(["b"].map { .key($0) }), 3, 8),
            (JSONPath([.key("b"), .index(1)]), 3, 12),
            (JSONPath([.key("a")]), 2, 8),
            (JSONPath(), 1, 1),
        ])
    func locates(path: JSONPath, line: Int, column: Int) throws {
        let text = "{\n  \"a\": 1,\n  \"b\": [1, \"é\"]\n}"
        let found = try #require(JSONParser.locate(path, in: Array(text.utf8)))
        #expect(found.line == line)
        #expect(found.column == column)
    }

    @Test("no position for a path the document does not have, or a document that does not parse")
    func missing() {
        #expect(JSONParser.locate(JSONPath([.key("c")]), in: Array("{\"a\": 1}".utf8)) == nil)
        #expect(JSONParser.locate(JSONPath([.key("a")]), in: Array("{\"a\": 1,}".utf8)) == nil)
    }
}
