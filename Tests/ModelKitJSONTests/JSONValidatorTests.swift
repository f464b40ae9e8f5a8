import ModelKitCore
import ModelKitJSON
import Testing
import ModelKitTestSupport

@Suite("JSONValidator and the JSONTestSuite conformance files")
struct JSONValidatorTests {
    @Test("all 318 JSONTestSuite files are bundled")
    func suiteIsComplete() {
        let names = Fixtures.suiteFileNames()
        expectEqual(names.count, 318)
        expectEqual(names.filter { $0.hasPrefix("y_") }.count, 95)
        expectEqual(names.filter { $0.hasPrefix("n_") }.count, 188)
        expectEqual(names.filter { $0.hasPrefix("i_") }.count, 35)
    }

    @Test("every JSONTestSuite file is judged as the suite says", arguments: Fixtures.suiteFileNames())
    func conformance(file: String) throws {
        let bytes = try Fixtures.bytes("JSONTestSuite/\(file)")
        let validation = Result { try JSONValidator.validate(bytes) }
        let parse = Result { try JSONValue(parsing: bytes) }
        switch file.prefix(2) {
        case "y_":
            try validation.get()
            let value = try parse.get()
            // Whatever was accepted writes back to JSON that reads as the same value.
            try expectEqual(JSONValue(parsing: value.jsonBytes()), value)
        case "n_":
            let validatorError = try #require(throws: JSONSyntaxError.self) { try validation.get() }
            let parserError = try #require(throws: JSONSyntaxError.self) { try parse.get() }
            for error in [validatorError, parserError] {
                let lines = bytes.filter { $0 == 0x0A }.count + 1
                #expect((0...bytes.count).contains(error.offset), "\(error)")
                #expect((1...lines).contains(error.line), "\(error)")
                #expect(error.column >= 1 && error.column <= error.offset + 1, "\(error)")
                #expect(error.description.hasPrefix("invalid JSON at line \(error.line), column \(error.column)"))
            }
            // Both readers stop at the same place for the same reason.
            expectEqual(validatorError, parserError)
        default:
            // Implementation-defined: either answer, as long as it is an answer and the two
            // readers agree on syntax (a number too large for a Double is valid syntax that
            // JSONValue rejects with a JSONValueError).
            switch (validation, parse) {
            case (.success, .success), (.failure, .failure):
                break
            case (.success, .failure(let error)):
                #expect(error is JSONValueError, "\(file): \(error)")
            case (.failure(let error), .success):
                Issue.record("\(file): validator rejected what the parser accepted: \(error)")
            }
        }
    }

    @Test("implementation-defined files get the answers this engine documents", arguments: [
        ("i_number_huge_exp.json", true),
        ("i_number_real_underflow.json", true),
        ("i_structure_500_nested_arrays.json", true),
        ("i_structure_UTF-8_BOM_empty_object.json", false),
        ("i_string_UTF8_surrogate_U+D800.json", false),
        ("i_string_lone_second_surrogate.json", false),
        ("i_string_invalid_utf-8.json", false),
        ("i_string_overlong_sequence_2_bytes.json", false),
        ("i_string_UTF-16LE_with_BOM.json", false),
    ])
    func implementationDefined(file: String, validSyntax: Bool) throws {
        let bytes = try Fixtures.bytes("JSONTestSuite/\(file)")
        expectEqual(JSONValidator.isValid(bytes), validSyntax)
    }

    @Test("a byte order mark is rejected with its own message")
    func byteOrderMark() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValidator.validate([0xEF, 0xBB, 0xBF, 0x7B, 0x7D]) }
        expectEqual(error.kind, .byteOrderMark)
        expectEqual(error.message, "a byte order mark is not allowed at the start of JSON")
    }

    @Test("a million opening brackets give a depth error, not a stack overflow")
    func millionDeep() throws {
        let bytes = nestedArrays(1_000_000, closed: false)
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValidator.validate(bytes) }
        expectEqual(error.kind, .limitExceeded(.maxDepth, limit: 512))
        expectEqual(error.offset, 512)
        expectEqual(error.message, "nesting is deeper than the limit 'maxDepth' (512)")
    }

    @Test("with no depth limit, a million-deep document validates without recursion")
    func millionDeepUnlimited() throws {
        try JSONValidator.validate(nestedArrays(1_000_000), limits: JSONLimits(maxDepth: .max))
        let unclosed = nestedArrays(1_000_000, closed: false)
        let error = try #require(throws: JSONSyntaxError.self) {
            try JSONValidator.validate(unclosed, limits: JSONLimits(maxDepth: .max))
        }
        expectEqual(error.kind, .unexpectedEndOfInput(expected: .valueOrArrayEnd))
    }

    @Test("depth limit and limit + 1", arguments: [1, 2, 63, 64, 65, 512, 1000])
    func depthLimit(limit: Int) throws {
        let limits = JSONLimits(maxDepth: limit)
        try JSONValidator.validate(nestedArrays(limit), limits: limits)
        let error = try #require(throws: JSONSyntaxError.self) {
            try JSONValidator.validate(nestedArrays(limit + 1), limits: limits)
        }
        expectEqual(error.kind, .limitExceeded(.maxDepth, limit: limit))
        expectEqual(error.offset, limit)
        #expect(error.description.contains("'maxDepth' (\(limit))"))

        var object = ""
        for _ in 0..<limit { object += #"{"a":"# }
        object += "1" + String(repeating: "}", count: limit)
        try JSONValidator.validate(object, limits: limits)
        #expect(throws: JSONSyntaxError.self) { try JSONValidator.validate("[\(object)]", limits: limits) }
    }

    @Test("a depth of zero allows only scalars")
    func zeroDepth() throws {
        let limits = JSONLimits(maxDepth: 0)
        try JSONValidator.validate("\"text\"", limits: limits)
        #expect(throws: JSONSyntaxError.self) { try JSONValidator.validate("[]", limits: limits) }
    }

    @Test("document size limit", arguments: [0, 1, 7, 8])
    func documentSize(limit: Int) throws {
        let document = "[1,2,3]" // 7 bytes
        let limits = JSONLimits(maxDocumentSize: limit)
        if limit >= 7 {
            try JSONValidator.validate(document, limits: limits)
            _ = try JSONValue(parsing: document, limits: limits)
        } else {
            for result in [Result { try JSONValidator.validate(document, limits: limits) },
                           Result { _ = try JSONValue(parsing: document, limits: limits) }] {
                let error = try #require(throws: JSONSyntaxError.self) { try result.get() }
                expectEqual(error.kind, .limitExceeded(.maxDocumentSize, limit: limit))
                expectEqual(error.message, "the document is larger than the limit 'maxDocumentSize' (\(limit) bytes)")
            }
        }
    }

    @Test("string length limit counts bytes between the quotes", arguments: [0, 3, 10])
    func stringLength(limit: Int) throws {
        let limits = JSONLimits(maxStringLength: limit)
        let fits = "[\"" + String(repeating: "a", count: limit) + "\"]"
        let over = "[\"" + String(repeating: "a", count: limit + 1) + "\"]"
        try JSONValidator.validate(fits, limits: limits)
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValidator.validate(over, limits: limits) }
        expectEqual(error.kind, .limitExceeded(.maxStringLength, limit: limit))
        expectEqual(error.offset, 1)
        #expect(error.description.contains("'maxStringLength' (\(limit) bytes)"))
    }

    @Test("inputs of every kind of container are accepted", arguments: [
        "[]", "{}", " [ ] ", "\t{\r\n}\n", "0", "-0", "\"\"", "true", "false", "null",
        #"{"a":[1,{"b":null}],"c":"d"}"#, "[[[]]]", #"[{}, {"": {}}]"#, "1e5", "[0.5E-3]",
    ])
    func accepts(json: String) throws {
        try JSONValidator.validate(json)
        #expect(JSONValidator.isValid(Array(json.utf8)))
        #expect(JSONValidator.isValid(json))
    }

    @Test("malformed inputs are rejected", arguments: [
        "", " ", "[", "]", "[1,]", "{\"a\":1,}", "{,}", "[,1]", "01", "+1", ".5", "1.", "1.e3",
        "-", "--1", "1e", "1e+", "0x1", "NaN", "Infinity", "'a'", "[1 2]", "{\"a\" 1}", "{1:2}",
        "nul", "tru", "fals", "truex", "[true false]", "\"a", "\"\\x\"", "/* c */ 1", "1 // c",
        "[1] [2]", "{\"a\":1}}", "\u{0C}[]", "[\"\t\"]",
    ])
    func rejects(json: String) throws {
        #expect(throws: JSONSyntaxError.self) { try JSONValidator.validate(json) }
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: json) }
    }

    @Test("mutated documents: never a crash, and the validator and the parser agree")
    func mutations() throws {
        var generator = SeededGenerator(seed: 0xF00D)
        let seeds = try Fixtures.suiteFileNames().filter { $0.hasPrefix("y_") }.map { try Fixtures.bytes("JSONTestSuite/\($0)") }
            + [Array(#"{"a": [1, -2.5e3, "x\u00e9\n", true, null, {"b": []}], "c": "😀"}"#.utf8)]
        let alphabet = Array(#"{}[]",:-+.0123456789eEtrufalsn\u/ "#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        for _ in 0..<3000 {
            var bytes = seeds[Int.random(in: 0..<seeds.count, using: &generator)]
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let index = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
                let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where !bytes.isEmpty: bytes[index] = byte
                case 1 where !bytes.isEmpty: bytes.remove(at: index)
                default: bytes.insert(byte, at: min(index, bytes.count))
                }
            }
            let valid = JSONValidator.isValid(bytes)
            do {
                let value = try JSONValue(parsing: bytes)
                #expect(valid, "parser accepted what the validator rejected: \(bytes)")
                try expectEqual(JSONValue(parsing: value.jsonBytes()), value)
            } catch let error as JSONSyntaxError {
                #expect(!valid, "validator accepted what the parser rejected: \(error)")
                #expect(error.offset >= 0 && error.offset <= bytes.count)
            } catch let error as JSONValueError {
                expectEqual(error.kind, .numberOutOfRange(type: "Double"))
            }
        }
    }
}
