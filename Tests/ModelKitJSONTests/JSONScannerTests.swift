import ModelKitCore
import ModelKitJSON
import Testing
import ModelKitTestSupport

@Suite("JSONScanner: cursor, containers, kinds and skipping")
struct JSONScannerTests {
    @Test("peek tells the kind of the next value and consumes nothing but whitespace", arguments: [
        ("{}", JSONValueKind.object), ("[]", .array), ("\"\"", .string), ("-1", .number), ("7", .number),
        ("true", .bool), ("false", .bool), ("null", .null), (" \n\t\r 0", .number),
    ])
    func peek(json: String, kind: JSONValueKind) throws {
        try scanning(json) { scanner in
            try expectEqual(scanner.peek(), kind)
            try expectEqual(scanner.peek(), kind)
            try scanner.skipValue()
            try scanner.finish()
        }
    }

    @Test("peek at the end of input or at garbage is a syntax error", arguments: ["", "   ", "}", "x", ","])
    func peekErrors(json: String) throws {
        try scanning(json) { scanner in
            #expect(throws: JSONSyntaxError.self) { try scanner.peek() }
        }
    }

    @Test("consumeNull consumes only null")
    func consumeNull() throws {
        try scanning("[null, 1, nul]") { scanner in
            try scanner.beginArray()
            #expect(try scanner.nextElement())
            #expect(try scanner.consumeNull())
            #expect(try scanner.nextElement())
            #expect(try !scanner.consumeNull())
            expectEqual(scanner.offset, 7) // only the whitespace before the value was passed
            try expectEqual(scanner.readInt64(), 1)
            #expect(try scanner.nextElement())
            let error = try #require(throws: JSONSyntaxError.self) { try scanner.consumeNull() }
            expectEqual(error.kind, .invalidLiteral(expected: "null"))
        }
        let consumed = try scanning("") { scanner in try scanner.consumeNull() }
        #expect(!consumed)
    }

    @Test("booleans", arguments: [("true", true), ("false", false), (" true ", true)])
    func booleans(json: String, value: Bool) throws {
        try scanning(json) { scanner in
            try expectEqual(scanner.readBool(), value)
            try scanner.finish()
        }
    }

    @Test("broken literals are syntax errors", arguments: ["tru", "fals", "trUe", "falsy", "t", "f"])
    func brokenBooleans(json: String) throws {
        try scanning(json) { scanner in
            let error = try #require(throws: JSONSyntaxError.self) { try scanner.readBool() }
            guard case .invalidLiteral = error.kind else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test("walking an object and an array")
    func walking() throws {
        let json = #"{"id": 7, "name" : "Ann", "tags": ["a", "b"], "empty": {}, "none": [], "skip": {"x": [1, {"y": 2}]}}"#
        try scanning(json) { scanner in
            try scanner.beginObject()
            var seen: [String] = []
            while let key = try scanner.nextKey({ String(decoding: $0, as: UTF8.self) }) {
                seen.append(key)
                switch key {
                case "id": try expectEqual(scanner.readInt64(), 7)
                case "name": try expectEqual(scanner.readString(), "Ann")
                case "tags":
                    try scanner.beginArray()
                    var tags: [String] = []
                    while try scanner.nextElement() { tags.append(try scanner.readString()) }
                    expectEqual(tags, ["a", "b"])
                case "empty":
                    try scanner.beginObject()
                    #expect(try scanner.nextKey { _ in 0 } == nil)
                case "none":
                    try scanner.beginArray()
                    #expect(try !scanner.nextElement())
                default:
                    expectEqual(scanner.depth, 1)
                    try scanner.skipValue()
                }
            }
            expectEqual(seen, ["id", "name", "tags", "empty", "none", "skip"])
            expectEqual(scanner.depth, 0)
            try scanner.finish()
        }
    }

    @Test("keys with escapes are unescaped")
    func escapedKeys() throws {
        try scanning(#"{"a\"b": 1, "\u00e9\n": 2}"#) { scanner in
            try scanner.beginObject()
            try expectEqual(scanner.nextKey { String(decoding: $0, as: UTF8.self) }, "a\"b")
            try scanner.skipValue()
            try expectEqual(scanner.nextKey { String(decoding: $0, as: UTF8.self) }, "é\n")
            try scanner.skipValue()
            #expect(try scanner.nextKey { _ in true } == nil)
        }
    }

    @Test("separators are checked", arguments: [
        (#"{"a" 1}"#, JSONSyntaxError.Kind.unexpectedByte(UInt8(ascii: "1"), expected: .colon)),
        (#"{"a":1 "b":2}"#, .unexpectedByte(UInt8(ascii: "\""), expected: .commaOrObjectEnd)),
        (#"{"a":1,}"#, .trailingComma(before: UInt8(ascii: "}"))),
        (#"{,"a":1}"#, .unexpectedByte(UInt8(ascii: ","), expected: .keyOrObjectEnd)),
        (#"{"a":1,,"b":2}"#, .unexpectedByte(UInt8(ascii: ","), expected: .key)),
        (#"{"a":1"#, .unexpectedEndOfInput(expected: .commaOrObjectEnd)),
        (#"{"#, .unexpectedEndOfInput(expected: .keyOrObjectEnd)),
        (#"{1:2}"#, .unexpectedByte(UInt8(ascii: "1"), expected: .keyOrObjectEnd)),
        (#"{"a":1]"#, .unexpectedByte(UInt8(ascii: "]"), expected: .commaOrObjectEnd)),
    ])
    func objectSyntax(json: String, kind: JSONSyntaxError.Kind) throws {
        let viaKeys = try #require(throws: JSONSyntaxError.self) {
            try scanning(json) { scanner in
                try scanner.beginObject()
                while try scanner.nextKey({ _ in () }) != nil { try scanner.skipValue() }
            }
        }
        expectEqual(viaKeys.kind, kind)
        let viaSkip = try #require(throws: JSONSyntaxError.self) { try scanning(json) { try $0.skipValue() } }
        expectEqual(viaSkip, viaKeys)
    }

    @Test("array separators are checked", arguments: [
        ("[1 2]", JSONSyntaxError.Kind.unexpectedByte(UInt8(ascii: "2"), expected: .commaOrArrayEnd)),
        ("[1,]", .trailingComma(before: UInt8(ascii: "]"))),
        ("[1,\n ]", .trailingComma(before: UInt8(ascii: "]"))),
        ("[,1]", .unexpectedByte(UInt8(ascii: ","), expected: .value)),
        ("[1", .unexpectedEndOfInput(expected: .commaOrArrayEnd)),
        ("[", .unexpectedEndOfInput(expected: .valueOrArrayEnd)),
        ("[1}", .unexpectedByte(UInt8(ascii: "}"), expected: .commaOrArrayEnd)),
    ])
    func arraySyntax(json: String, kind: JSONSyntaxError.Kind) throws {
        let viaElements = try #require(throws: JSONSyntaxError.self) {
            try scanning(json) { scanner in
                try scanner.beginArray()
                while try scanner.nextElement() { try scanner.skipValue() }
            }
        }
        expectEqual(viaElements.kind, kind)
        let viaSkip = try #require(throws: JSONSyntaxError.self) { try scanning(json) { try $0.skipValue() } }
        expectEqual(viaSkip, viaElements)
    }

    @Test("reading the wrong kind throws a value error and consumes nothing", arguments: [
        ("42", JSONValueKind.number, "42", "number 42"),
        ("\"yesterday\"", .string, "\"yesterday\"", "string \"yesterday\""),
        ("true", .bool, "true", "true"),
        ("null", .null, "null", "null"),
        ("[1, 2,\n  3]", .array, "[1, 2, 3]", "array [1, 2, 3]"),
        (#"{"a": {"b": [1, 2]}}"#, .object, #"{"a": {"b": [1, 2]}}"#, #"object {"a": {"b": [1, 2]}}"#),
    ])
    func wrongKind(json: String, found: JSONValueKind, excerpt: String, described: String) throws {
        try scanning("  " + json) { scanner in
            expectEqual(scanner.describeNextValue(), described)
            let reads: [(JSONValueKind, (inout JSONScanner) throws -> Void)] = [
                (.string, { _ = try $0.readString() }),
                (.number, { _ = try $0.readInt64() }),
                (.number, { _ = try $0.readUInt64() }),
                (.number, { _ = try $0.readDouble() }),
                (.number, { _ = try $0.readNumberText() }),
                (.bool, { _ = try $0.readBool() }),
                (.object, { try $0.beginObject() }),
                (.array, { try $0.beginArray() }),
            ]
            for (kind, read) in reads where kind != found {
                let error = try #require(throws: JSONValueError.self) { try read(&scanner) }
                expectEqual(error.found, found)
                expectEqual(error.excerpt, excerpt)
                expectEqual(error.offset, 2)
                #expect(error.line == 1 && error.column == 3)
                #expect(error.message.hasSuffix("found \(described)"))
            }
            #expect(scanner.offset <= 2)
            expectEqual(scanner.depth, 0)
            try scanner.skipValue()
            try scanner.finish()
        }
    }

    @Test("descriptions of long values are cut to about 40 characters")
    func longDescriptions() throws {
        let long = "\"" + String(repeating: "abcdefghij", count: 20) + "\""
        try scanning(long) { scanner in
            let text = scanner.describeNextValue()
            #expect(text.hasPrefix("string \"abcdefghij"))
            #expect(text.hasSuffix("…"))
            #expect(text.count <= 48)
        }
        try scanning("") { expectEqual($0.describeNextValue(), "end of input") }
        try scanning("}") { expectEqual($0.describeNextValue(), "'}'") }
    }

    @Test("collect-all: remember the position, and on error restore and skip")
    func collectAll() throws {
        let json = #"[{"n": 1}, {"n": "two"}, {"n": 3}, {"n": 4.5}, {"n": {"deep": [1]}}]"#
        var numbers: [Int64] = []
        var problems: [String] = []
        try scanning(json) { scanner in
            try scanner.beginArray()
            while try scanner.nextElement() {
                let mark = scanner.checkpoint()
                do {
                    try scanner.beginObject()
                    while let key = try scanner.nextKey({ String(decoding: $0, as: UTF8.self) }) {
                        if key == "n" { numbers.append(try scanner.readInt64()) } else { try scanner.skipValue() }
                    }
                } catch let error as JSONValueError {
                    problems.append(error.message)
                    scanner.restore(mark)
                    expectEqual(scanner.offset, mark.offset)
                    try scanner.skipValue()
                }
            }
            try scanner.finish()
            expectEqual(scanner.depth, 0)
        }
        expectEqual(numbers, [1, 3])
        expectEqual(problems, [
            "expected a number, found string \"two\"",
            "number 4.5 is not a whole number, so it cannot be read as 'Int64'",
            "expected a number, found object {\"deep\": [1]}",
        ])
    }

    @Test("skipValue skips any value and validates it", arguments: [
        "0", "\"s\"", "true", "null", "[]", "{}", #"{"a":[{"b":[]},"c",-1.5e3,false]}"#, "[[[[[[]]]]]]",
    ])
    func skip(json: String) throws {
        try scanning("[\(json), 1]") { scanner in
            try scanner.beginArray()
            #expect(try scanner.nextElement())
            try scanner.skipValue()
            #expect(try scanner.nextElement())
            try expectEqual(scanner.readInt64(), 1)
            #expect(try !scanner.nextElement())
            try scanner.finish()
        }
    }

    @Test("skipValue counts the containers already open against maxDepth")
    func skipDepth() throws {
        let limits = JSONLimits(maxDepth: 3)
        try scanning("[[[]]]", limits: limits) { try $0.skipValue() }
        let error = try #require(throws: JSONSyntaxError.self) {
            try scanning("[[[[]]]]", limits: limits) { scanner in
                try scanner.beginArray()
                #expect(try scanner.nextElement())
                try scanner.skipValue()
            }
        }
        expectEqual(error.kind, .limitExceeded(.maxDepth, limit: 3))
        expectEqual(error.offset, 3)
    }

    @Test("begin fails past maxDepth, naming the limit")
    func beginDepth() throws {
        let error = try #require(throws: JSONSyntaxError.self) {
            try scanning(nestedArrays(1_000_000, closed: false)) { scanner in
                while true { try scanner.beginArray(); _ = try scanner.nextElement() }
            }
        }
        expectEqual(error.kind, .limitExceeded(.maxDepth, limit: 512))
        expectEqual(error.offset, 512)
    }

    @Test("skipValue on a million brackets gives a depth error")
    func skipMillion() throws {
        let error = try #require(throws: JSONSyntaxError.self) {
            try scanning(nestedArrays(1_000_000, closed: false)) { try $0.skipValue() }
        }
        expectEqual(error.kind, .limitExceeded(.maxDepth, limit: 512))
    }

    @Test("finish rejects anything but whitespace after the value", arguments: ["1 2", "{} x", "[]]", "\"a\"\"b\""])
    func finish(json: String) throws {
        let error = try #require(throws: JSONSyntaxError.self) {
            try scanning(json) { scanner in
                try scanner.skipValue()
                try scanner.finish()
            }
        }
        guard case .unexpectedByte(_, expected: .endOfDocument) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
    }

    @Test("offset can be set and is clamped to the document")
    func offset() throws {
        try scanning("[1, 2]") { scanner in
            scanner.offset = 4
            let value = try scanner.readInt64()
            expectEqual(value, 2)
            scanner.offset = -10
            expectEqual(scanner.offset, 0)
            scanner.offset = 1000
            expectEqual(scanner.offset, 6)
            #expect(scanner.isAtEnd())
            #expect(throws: JSONSyntaxError.self) { try scanner.peek() }
        }
    }

    @Test("skipping the rest of a container")
    func skipRemaining() throws {
        try scanning(#"{"a": [1, 2, 3], "b": {"c": 1}, "d": 4}"#) { scanner in
            try scanner.beginObject()
            #expect(try scanner.nextKey { _ in () } != nil)
            try scanner.beginArray()
            #expect(try scanner.nextElement())
            try expectEqual(scanner.readInt64(), 1)
            try scanner.skipRemainingElements()
            try scanner.skipRemainingMembers()
            expectEqual(scanner.depth, 0)
            try scanner.finish()
        }
    }

    @Test("any operation at any offset of any input throws or succeeds, never crashes")
    func randomOperations() throws {
        var generator = SeededGenerator(seed: 0xBAD5EED)
        let inputs = [
            #"{"a": [1, -2.5e3, "x\u00e9\ud83d\ude00\n", true, null, {"b": []}], "c": "😀", "d": 1e400}"#,
            #"[01, 1., "\ud800", "\x", tru, nul, fals, {"k" 1}, [1,], {"a":1,}, "unterminated"#,
            "  \n\t", "", "[[[[[[[[[[", "}}}]]]", "\"\\", "-", "1e", "\u{FEFF}[]",
        ].map { Array($0.utf8) } + [[0xEF, 0xBB], [0x22, 0xF0, 0x9F], [0xFF, 0xFE, 0x00]]
        for _ in 0..<4000 {
            let input = inputs[Int.random(in: 0..<inputs.count, using: &generator)]
            try scanning(input, limits: JSONLimits(maxDepth: 4, maxStringLength: 12)) { scanner in
                for _ in 0..<6 {
                    scanner.offset = Int.random(in: -2...(input.count + 2), using: &generator)
                    _ = scanner.describeNextValue()
                    _ = scanner.isAtEnd()
                    do {
                        switch Int.random(in: 0..<17, using: &generator) {
                        case 0: _ = try scanner.peek()
                        case 1: _ = try scanner.consumeNull()
                        case 2: _ = try scanner.readBool()
                        case 3: _ = try scanner.readString()
                        case 4: _ = try scanner.readStringBytes { $0.count }
                        case 5: _ = try scanner.readInt64()
                        case 6: _ = try scanner.readUInt64()
                        case 7: _ = try scanner.readDouble()
                        case 8: _ = try scanner.readNumberText()
                        case 9: _ = try scanner.readNumberValue()
                        case 10: try scanner.beginObject()
                        case 11: _ = try scanner.nextKey { $0.count }
                        case 12: try scanner.beginArray()
                        case 13: _ = try scanner.nextElement()
                        case 14: try scanner.skipValue()
                        case 15: _ = try JSONValue(reading: &scanner)
                        default: try scanner.finish()
                        }
                    } catch is JSONSyntaxError {
                    } catch is JSONValueError {
                    }
                    #expect((0...input.count).contains(scanner.offset))
                }
            }
        }
    }
}
