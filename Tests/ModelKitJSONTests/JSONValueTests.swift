import Foundation
import ModelKitCore
import ModelKitJSON
import Testing
import ModelKitTestSupport

@Suite("JSONValue parsing and writing")
struct JSONValueTests {
    // MARK: - twitter.json

    @Test("twitter.json parses with the expected content")
    func twitterContent() throws {
        let bytes = try Fixtures.bytes("twitter.json")
        expectEqual(bytes.count, 631_515)
        try JSONValidator.validate(bytes)
        let value = try JSONValue(parsing: bytes)
        guard case .array(let statuses)? = value["statuses"] else {
            Issue.record("no 'statuses' array")
            return
        }
        expectEqual(statuses.count, 100)
        #expect(value["statuses"]?[0]?["id"] == .int(505_874_924_095_815_681))
        #expect(value["statuses"]?[0]?["id_str"] == .string("505874924095815681"))
        #expect(value["statuses"]?[0]?["created_at"] == .string("Sun Aug 31 00:29:15 +0000 2014"))
        #expect(value["statuses"]?[0]?["in_reply_to_status_id"] == .null)
        #expect(value["statuses"]?[0]?["truncated"] == .bool(false))
        #expect(value["statuses"]?[0]?["user"]?["name"] == .string("AYUMI"))
        let retweets = statuses.filter { $0["retweeted_status"] != nil }
        expectEqual(retweets.count, 73)
        guard case .string(let text)? = value["statuses"]?[0]?["text"] else {
            Issue.record("no text")
            return
        }
        #expect(text.hasPrefix("@aym0566x \n\n名前:前田あゆみ"))
    }

    @Test("twitter.json agrees with JSONSerialization")
    func twitterAgreesWithFoundation() throws {
        let bytes = try Fixtures.bytes("twitter.json")
        let value = try JSONValue(parsing: bytes)
        let object = try JSONSerialization.jsonObject(with: Data(bytes))
        let foundationStatuses = (object as? [String: Any])?["statuses"] as? [[String: Any]]
        guard case .array(let statuses)? = value["statuses"], let foundationStatuses else {
            Issue.record("no statuses")
            return
        }
        expectEqual(statuses.count, foundationStatuses.count)
        for (status, reference) in zip(statuses, foundationStatuses) {
            expectEqual(status["id_str"], .string(reference["id_str"] as? String ?? "?"))
            expectEqual(status["text"], .string(reference["text"] as? String ?? "?"))
            if case .object(let members) = status {
                expectEqual(Set(members.map(\.key)), Set(reference.keys))
            }
        }
    }

    @Test("twitter.json writes back and reparses equal", arguments: [
        JSONWriter.Options(), [.prettyPrinted], [.sortedKeys], [.prettyPrinted, .sortedKeys],
    ])
    func twitterRoundTrip(options: JSONWriter.Options) throws {
        let value = try JSONValue(parsing: try Fixtures.bytes("twitter.json"))
        let written = try value.jsonBytes(options: options)
        try JSONValidator.validate(written)
        let reparsed = try JSONValue(parsing: written)
        let expected = options.contains(.sortedKeys) ? sortedRecursively(value) : value
        expectEqual(reparsed, expected)
        // Writing is deterministic: the same options give the same bytes again.
        try expectEqual(reparsed.jsonBytes(options: options), written)
        if options.contains(.prettyPrinted) {
            #expect(written.contains(0x0A))
        } else {
            #expect(!written.contains(0x0A))
            #expect(written.count < 631_515)
        }
    }

    // MARK: - Numbers

    @Test("numbers map to int, uint, double or, to keep their digits, decimal", arguments: [
        ("0", JSONValue.int(0)),
        ("-0", .int(0)),
        ("42", .int(42)),
        ("-42", .int(-42)),
        ("999999999999999999", .int(999_999_999_999_999_999)),
        ("9223372036854775807", .int(.max)),
        ("-9223372036854775808", .int(.min)),
        ("9223372036854775808", .uint(9_223_372_036_854_775_808)),
        ("18446744073709551615", .uint(.max)),
        ("18446744073709551616", .decimal(Decimal(string: "18446744073709551616")!)),
        ("-9223372036854775809", .decimal(Decimal(string: "-9223372036854775809")!)),
        ("1.0", .double(1)),
        ("1e2", .double(100)),
        ("-0.0", .double(-0.0)),
        ("0.1", .double(0.1)),
        ("1E-2", .double(0.01)),
        ("123456789012345678901234567890", .decimal(Decimal(string: "123456789012345678901234567890")!)),
        ("0.30000000000000004", .double(0.30000000000000004)),
        ("0.30000000000000004441", .decimal(Decimal(string: "0.30000000000000004441")!)),
        ("1.5e300", .double(1.5e300)),
        ("123456789012345678e250", .double(1.2345678901234568e267)),
    ])
    func numberKinds(json: String, expected: JSONValue) throws {
        let value = try JSONValue(parsing: json)
        expectEqual(value, expected)
        if case .double(let number) = value, case .double(let wanted) = expected {
            expectEqual(number.sign, wanted.sign)
        }
    }

    @Test("a number too large for a Double is an error naming 'Double'", arguments: ["1e400", "-1e400", "[1,2e999]"])
    func infiniteNumber(json: String) throws {
        let error = try #require(throws: JSONValueError.self) { try JSONValue(parsing: json) }
        expectEqual(error.kind, .numberOutOfRange(type: "Double"))
        #expect(error.message.contains("is out of range for 'Double'"))
    }

    @Test("tiny numbers round to zero")
    func underflow() throws {
        try expectEqual(JSONValue(parsing: "1e-400"), .double(0))
        try expectEqual(JSONValue(parsing: "4.9406564584124654e-324"), .double(.leastNonzeroMagnitude))
    }

    // MARK: - Structure

    @Test("members keep document order and duplicates")
    func memberOrder() throws {
        let value = try JSONValue(parsing: #"{"b":1,"a":2,"b":3}"#)
        expectEqual(value, .object([.init("b", .int(1)), .init("a", .int(2)), .init("b", .int(3))]))
        expectEqual(value["b"], .int(3))
    }

    @Test("nested and empty containers")
    func nested() throws {
        let value = try JSONValue(parsing: #" {"a": [1, [], {}, [[true]], {"x": {"y": null}}], "": "e"} "#)
        let expected: JSONValue = .object([
            .init("a", .array([
                .int(1), .array([]), .object([]), .array([.array([.bool(true)])]),
                .object([.init("x", .object([.init("y", .null)]))]),
            ])),
            .init("", .string("e")),
        ])
        expectEqual(value, expected)
    }

    @Test("every input type parses the same", arguments: [#"{"k":["v",1.5,null]}"#, "[]", "\"é\""])
    func inputTypes(json: String) throws {
        let expected = try JSONValue(parsing: json)
        try expectEqual(JSONValue(parsing: Array(json.utf8)), expected)
        try expectEqual(JSONValue(parsing: Data(json.utf8)), expected)
        try expectEqual(JSONValue(parsing: json.utf8), expected)
        try expectEqual(JSONValue(parsing: ArraySlice(Array(json.utf8))), expected)
        try expectEqual(Array(json.utf8).withUnsafeBytes { try JSONValue(parsing: $0) }, expected)
    }

    @Test("a million opening brackets give a depth error, not a stack overflow")
    func millionDeep() throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValue(parsing: nestedArrays(1_000_000, closed: false)) }
        expectEqual(error.kind, .limitExceeded(.maxDepth, limit: 512))
        #expect(error.line == 1 && error.column == 513)
    }

    @Test("depth limit and limit + 1", arguments: [1, 5, 512])
    func depthLimit(limit: Int) throws {
        let limits = JSONLimits(maxDepth: limit)
        var value = try JSONValue(parsing: nestedArrays(limit), limits: limits)
        var depth = 0
        while case .array(let elements) = value {
            depth += 1
            value = elements.first ?? .null
        }
        expectEqual(depth, limit)
        let error = try #require(throws: JSONSyntaxError.self) { try JSONValue(parsing: nestedArrays(limit + 1), limits: limits) }
        expectEqual(error.kind, .limitExceeded(.maxDepth, limit: limit))
    }

    @Test("reading a value from a scanner leaves the scanner after it")
    func readingFromScanner() throws {
        let values = try scanning(#"[{"a":[1]}, "x"]"#) { scanner in
            try scanner.beginArray()
            var values: [JSONValue] = []
            while try scanner.nextElement() {
                values.append(try JSONValue(reading: &scanner))
            }
            try scanner.finish()
            expectEqual(scanner.depth, 0)
            return values
        }
        expectEqual(values, [.object([.init("a", .array([.int(1)]))]), .string("x")])
    }

    // MARK: - Writing

    @Test("values write as compact JSON")
    func compact() throws {
        let value: JSONValue = .object([
            .init("s", .string("a\"b\\c/d\n")), .init("i", .int(-7)), .init("u", .uint(.max)),
            .init("d", .double(2.5)), .init("w", .double(3)), .init("b", .bool(true)), .init("n", .null),
            .init("a", .array([.array([]), .object([])])),
        ])
        let expected = #"{"s":"a\"b\\c/d\n","i":-7,"u":18446744073709551615,"d":2.5,"w":3.0,"b":true,"n":null,"a":[[],{}]}"#
        try expectEqual(value.jsonString(), expected)
        try expectEqual(JSONValue(parsing: expected), value)
    }

    @Test("values write as pretty, sorted JSON")
    func prettySorted() throws {
        let value: JSONValue = .object([.init("b", .array([.int(1), .object([])])), .init("a", .object([.init("z", .null), .init("y", .bool(false))]))])
        let expected = """
        {
          "a": {
            "y": false,
            "z": null
          },
          "b": [
            1,
            {}
          ]
        }
        """
        try expectEqual(value.jsonString(options: [.prettyPrinted, .sortedKeys]), expected)
    }

    @Test("NaN and infinity cannot be written", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(number: Double) throws {
        let error = try #require(throws: JSONWriteError.self) { try JSONValue.array([.double(number)]).jsonBytes() }
        #expect(error.description.hasPrefix("cannot write '"))
    }

    @Test("a deep tree built in code writes without recursion")
    func deepTreeWrites() throws {
        var value = JSONValue.null
        for _ in 0..<300 { value = .array([value]) }
        let text = try value.jsonString()
        expectEqual(text, String(repeating: "[", count: 300) + "null" + String(repeating: "]", count: 300))
    }
}
