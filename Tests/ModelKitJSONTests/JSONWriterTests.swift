import ModelKitCore
import ModelKitJSON
import Testing
import ModelKitTestSupport

@Suite("JSONWriter")
struct JSONWriterTests {
    /// Writes with `body` and returns the text.
    private func written(_ options: JSONWriter.Options = [], _ body: (inout JSONWriter) throws -> Void) rethrows -> String {
        var writer = JSONWriter(options: options, capacity: 64)
        try body(&writer)
        return writer.string
    }

    @Test("compact output has no whitespace and the right separators")
    func compact() throws {
        let text = try written { writer in
            writer.beginObject()
            writer.writeKey("a")
            writer.writeInt64(1)
            writer.writeKey("b")
            writer.beginArray()
            writer.writeBool(true)
            writer.writeBool(false)
            writer.writeNull()
            writer.beginObject()
            writer.endObject()
            writer.beginArray()
            writer.endArray()
            try writer.writeDouble(0.5)
            writer.endArray()
            writer.writeKey("c")
            writer.writeString("d")
            writer.endObject()
        }
        expectEqual(text, #"{"a":1,"b":[true,false,null,{},[],0.5],"c":"d"}"#)
    }

    @Test("pretty output indents by two spaces and writes \"key\": value")
    func pretty() throws {
        let text = written(.prettyPrinted) { writer in
            writer.beginObject()
            writer.writeKey("a")
            writer.writeInt64(1)
            writer.writeKey("list")
            writer.beginArray()
            writer.writeString("x")
            writer.beginObject()
            writer.writeKey("deep")
            writer.beginArray()
            writer.endArray()
            writer.endObject()
            writer.endArray()
            writer.writeKey("empty")
            writer.beginObject()
            writer.endObject()
            writer.endObject()
        }
        let expected = """
        {
          "a": 1,
          "list": [
            "x",
            {
              "deep": []
            }
          ],
          "empty": {}
        }
        """
        expectEqual(text, expected)
    }

    @Test("top-level scalars", arguments: [JSONWriter.Options(), .prettyPrinted])
    func scalars(options: JSONWriter.Options) throws {
        expectEqual(written(options) { $0.writeString("s") }, "\"s\"")
        expectEqual(written(options) { $0.writeNull() }, "null")
        expectEqual(written(options) { $0.writeBool(false) }, "false")
        expectEqual(written(options) { $0.writeUInt64(.max) }, "18446744073709551615")
    }

    @Test("integers", arguments: [Int64.min, -1, 0, 9, 10, 99, 100, 123_456_789, .max])
    func integers(value: Int64) throws {
        expectEqual(written { $0.writeInt64(value) }, String(value))
        if value >= 0 { expectEqual(written { $0.writeUInt64(UInt64(value)) }, String(value)) }
    }

    @Test("integers next to every power of ten have the right number of digits")
    func integersAtEveryDigitCount() {
        var power: UInt64 = 1
        for _ in 0...19 {
            for value in [power &- 1, power, power &+ 1] {
                expectEqual(written { $0.writeUInt64(value) }, String(value))
                if value <= UInt64(Int64.max) {
                    expectEqual(written { $0.writeInt64(-Int64(value)) }, String(-Int64(value)))
                }
            }
            power = power.multipliedReportingOverflow(by: 10).partialValue
        }
        expectEqual(written { $0.writeUInt64(.max) }, String(UInt64.max))
    }

    @Test("strings escape only quotes, backslashes and control characters")
    func escaping() throws {
        expectEqual(written { $0.writeString("a\"b\\c/d") }, #""a\"b\\c/d""#)
        expectEqual(written { $0.writeString("\u{8}\u{C}\n\r\t") }, #""\b\f\n\r\t""#)
        expectEqual(written { $0.writeString("\u{0}\u{1}\u{1F}\u{7F}") }, "\"\\u0000\\u0001\\u001f\u{7F}\"")
        expectEqual(written { $0.writeString("é€😀\u{2028}") }, "\"é€😀\u{2028}\"")
        expectEqual(written { $0.writeString("") }, "\"\"")
        for byte in UInt8(0)..<0x80 {
            let string = String(Unicode.Scalar(byte))
            let text = written { $0.writeString(string) }
            try expectEqual(readString(text), string)
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C { expectEqual(text, "\"\(string)\"") }
        }
    }

    @Test("keys: escaped on the fly, pre-escaped bytes, and static strings")
    func keys() throws {
        let escaped = JSONWriter.escapedKey("say \"hi\"")
        expectEqual(escaped, Array(#""say \"hi\"""#.utf8))
        let text = written(.prettyPrinted) { writer in
            writer.beginObject()
            writer.writeKey(preEscaped: escaped)
            writer.writeInt64(1)
            escaped.withUnsafeBytes { writer.writeKey(preEscaped: $0) }
            writer.writeInt64(2)
            writer.writeKey(preEscaped: #""id""#)
            writer.writeInt64(3)
            writer.writeKey("a\nb")
            writer.writeInt64(4)
            writer.endObject()
        }
        expectEqual(text, "{\n  \"say \\\"hi\\\"\": 1,\n  \"say \\\"hi\\\"\": 2,\n  \"id\": 3,\n  \"a\\nb\": 4\n}")
    }

    @Test("doubles are written in the shortest form that reads back the same", arguments: [
        (0.0, "0.0"), (-0.0, "-0.0"), (1.0, "1.0"), (-2.5, "-2.5"), (0.1, "0.1"), (1e-5, "1e-05"), (1e16, "1e+16"),
        (123_456_789.125, "123456789.125"), (.leastNonzeroMagnitude, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (9_007_199_254_740_992, "9007199254740992.0"),
    ])
    func doubles(value: Double, text: String) throws {
        try expectEqual(written { try $0.writeDouble(value) }, text)
    }

    @Test("random doubles print in their shortest form and read back bit for bit")
    func randomDoubles() throws {
        var generator = SeededGenerator(seed: 2024)
        var checked = 0
        while checked < 5000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite else { continue }
            checked += 1
            let text = try written { try $0.writeDouble(value) }
            expectEqual(text, value.description)
            let read = try scanning(text) { scanner in
                let read = try scanner.readDouble()
                try scanner.finish()
                return read
            }
            #expect(read.bitPattern == value.bitPattern, "\(text)")
            // Shortest: dropping the last significant digit no longer reads back the same.
            let mantissa = text.split(separator: "e")[0]
            let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
            if digits.count > 1, !mantissa.hasSuffix(".0") {
                let exponent = text.split(separator: "e").dropFirst().first.map { "e" + $0 } ?? ""
                let shorter = String(mantissa.dropLast()) + exponent
                if let shorterValue = Double(shorter) { #expect(shorterValue != value, "\(text) vs \(shorter)") }
            }
        }
        // Typical values too.
        for _ in 0..<2000 {
            let value = Double(Int64.random(in: -1_000_000...1_000_000, using: &generator)) / 1000
            try expectEqual(JSONValue(parsing: written { try $0.writeDouble(value) }), .double(value))
        }
    }

    /// Decimals of up to eight places between 0.001 and 10^15 take a path of their own (integer
    /// digits, no string): it writes exactly what `description` writes, at every scale and
    /// sign, at the edges of its range and just past them.
    @Test("short decimals write what description writes", arguments: 0...9)
    func shortDecimals(places: Int) throws {
        var generator = SeededGenerator(seed: UInt64(places) &+ 77)
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        var values: [Double] = [0.001, 0.000999, 1e15, 999_999_999_999_999.9, 4_503_599_627_370_495, 0.30000000000000004]
        for _ in 0..<4000 {
            let digits = Int64.random(in: -99_999_999_999_999...99_999_999_999_999, using: &generator)
            values.append(Double(digits / Int64.random(in: 1...1_000_000, using: &generator)) / scale)
            values.append(Double(Int64.random(in: -100_000...100_000, using: &generator)) / scale)
        }
        for value in values {
            try expectEqual(written { try $0.writeDouble(value) }, value.description)
        }
    }

    @Test("NaN and infinities throw a typed error", arguments: [Double.nan, .infinity, -.infinity, .signalingNaN])
    func nonFinite(value: Double) throws {
        var writer = JSONWriter()
        writer.beginArray()
        let error = try #require(throws: JSONWriteError.self) { try writer.writeDouble(value) }
        guard case .nonFiniteNumber = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(error.description.hasSuffix("JSON has no NaN or infinity"))
        expectEqual(writer.bytes, [UInt8(ascii: "[")])
    }

    @Test("number text is checked", arguments: [("19.99", true), ("-0", true), ("1e5", true), ("01", false), ("1.", false), ("", false), ("1 ", false), ("NaN", false)])
    func numberText(text: String, valid: Bool) throws {
        var writer = JSONWriter()
        if valid {
            try writer.writeNumber(text: text)
            expectEqual(writer.string, text)
        } else {
            #expect(throws: JSONWriteError.self) { try writer.writeNumber(text: text) }
            #expect(writer.bytes.isEmpty)
        }
    }

    @Test("dictionaries: sorted with .sortedKeys")
    func dictionaries() throws {
        let dictionary: [String: JSONValue] = ["b": .int(2), "a": .int(1), "é": .null, "B": .bool(true), "": .string("")]
        var writer = JSONWriter(options: .sortedKeys)
        try writer.write(dictionary)
        expectEqual(writer.string, #"{"":"","B":true,"a":1,"b":2,"é":null}"#)
        var unsorted = JSONWriter()
        try unsorted.write(dictionary)
        guard case .object(let members) = try JSONValue(parsing: unsorted.bytes) else {
            Issue.record("not an object")
            return
        }
        expectEqual(Set(members.map(\.key)), Set(dictionary.keys))
        let counts = ["x": 1, "y": 2]
        let text = written([.sortedKeys, .prettyPrinted]) { writer in
            writer.writeObject(counts) { writer, count in writer.writeInt64(Int64(count)) }
        }
        expectEqual(text, "{\n  \"x\": 1,\n  \"y\": 2\n}")
    }

    @Test("sorted keys keep duplicate keys in order")
    func sortedDuplicates() throws {
        let value: JSONValue = .object([.init("b", .int(1)), .init("a", .int(2)), .init("b", .int(3)), .init("a", .int(4))])
        try expectEqual(value.jsonString(options: .sortedKeys), #"{"a":2,"a":4,"b":1,"b":3}"#)
    }

    @Test("writer output is always valid JSON for generated values")
    func randomTrees() throws {
        var generator = SeededGenerator(seed: 99)
        func randomValue(_ depth: Int) -> JSONValue {
            switch Int.random(in: 0..<(depth > 4 ? 6 : 8), using: &generator) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2: return .int(Int64.random(in: .min ... .max, using: &generator))
            case 3: return .uint(UInt64.random(in: UInt64(Int64.max) + 1 ... .max, using: &generator))
            case 4:
                let value = Double(bitPattern: generator.next())
                return .double(value.isFinite ? value : 0.5)
            case 5: return .string(String(repeating: "ab\"\n😀", count: Int.random(in: 0...3, using: &generator)))
            case 6: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth + 1) })
            default:
                return .object((0..<Int.random(in: 0...4, using: &generator)).map { index in
                    JSONMember("k\(index % 3)", randomValue(depth + 1))
                })
            }
        }
        for _ in 0..<300 {
            let value = randomValue(0)
            for options in [JSONWriter.Options(), .prettyPrinted] {
                let bytes = try value.jsonBytes(options: options)
                try JSONValidator.validate(bytes)
                try expectEqual(JSONValue(parsing: bytes), value)
            }
        }
    }
}
