import ModelKitCore
import ModelKitJSON
import Testing
import ModelKitTestSupport

@Suite("JSONScanner: numbers")
struct JSONScannerNumbersTests {
    // MARK: - Integers

    @Test("exact Int64 values, including the edges", arguments: [
        ("0", Int64(0)), ("-0", 0), ("7", 7), ("-7", -7), ("123456789012345678", 123_456_789_012_345_678),
        ("999999999999999999", 999_999_999_999_999_999), ("1000000000000000000", 1_000_000_000_000_000_000),
        ("9223372036854775807", .max), ("-9223372036854775808", .min), ("-9223372036854775807", -.max),
        ("1.0", 1), ("1e3", 1000), ("1E+3", 1000), ("2500e-2", 25), ("-1.5e1", -15), ("0.0e99", 0),
        ("12.340e2", 1234), ("0.000001e6", 1), ("9.223372036854775807e18", .max),
        ("100000000000000000000000e-5", 1_000_000_000_000_000_000),
    ])
    func int64(json: String, value: Int64) throws {
        try scanning(json) { scanner in
            try expectEqual(scanner.readInt64(), value)
            try scanner.finish()
        }
    }

    /// Every length, every digit in every place, the run ending at the input's end, before the
    /// bytes either side of the digits (`/` and `:`), before more JSON or an exponent.
    @Test("integers of every length read exactly, wherever their digits end", arguments: 1...20)
    func everyLength(length: Int) throws {
        var generator = SeededGenerator(seed: UInt64(length))
        for _ in 0..<300 {
            let first = length == 1 ? Int.random(in: 0...9, using: &generator) : Int.random(in: 1...9, using: &generator)
            let digits = "\(first)" + String((1..<length).map { _ in Character("\(Int.random(in: 0...9, using: &generator))") })
            for sign in ["", "-"] {
                let text = sign + digits
                for after in ["", "/", ":", ", 12345678]", "e0"] {
                    try scanning(text + after) { scanner in
                        if let expected = Int64(text) {
                            try expectEqual(scanner.readInt64(), expected, "\(text + after)")
                            expectEqual(scanner.offset, after == "e0" ? text.utf8.count + 2 : text.utf8.count)
                        } else {
                            #expect(throws: JSONValueError.self) { try scanner.readInt64() }
                        }
                    }
                    guard sign.isEmpty else { continue }
                    try scanning(text + after) { scanner in
                        if let expected = UInt64(text) {
                            try expectEqual(scanner.readUInt64(), expected, "\(text + after)")
                        } else {
                            #expect(throws: JSONValueError.self) { try scanner.readUInt64() }
                        }
                    }
                }
            }
        }
    }

    @Test("exact UInt64 values, including the edges", arguments: [
        ("0", UInt64(0)), ("-0", 0), ("18446744073709551615", .max), ("9223372036854775808", 9_223_372_036_854_775_808),
        ("1234567890123456789", 1_234_567_890_123_456_789), ("1e19", 10_000_000_000_000_000_000),
        ("1.8446744073709551615e19", .max), ("0.5e1", 5),
    ])
    func uint64(json: String, value: UInt64) throws {
        try scanning(json) { scanner in
            try expectEqual(scanner.readUInt64(), value)
            try scanner.finish()
        }
    }

    @Test("integers out of range say so and consume nothing", arguments: [
        ("9223372036854775808", "Int64"), ("-9223372036854775809", "Int64"), ("1e19", "Int64"),
        ("99999999999999999999999", "Int64"), ("1e1000000000000000000000", "Int64"), ("-1e20", "Int64"),
        ("18446744073709551616", "UInt64"), ("-1", "UInt64"), ("1e20", "UInt64"), ("-0.5e1", "UInt64"),
    ])
    func outOfRange(json: String, type: String) throws {
        try scanning("[\(json)]") { scanner in
            try scanner.beginArray()
            #expect(try scanner.nextElement())
            let error = try #require(throws: JSONValueError.self) {
                if type == "Int64" { _ = try scanner.readInt64() } else { _ = try scanner.readUInt64() }
            }
            expectEqual(error.kind, .numberOutOfRange(type: type))
            expectEqual(error.found, .number)
            expectEqual(error.offset, 1)
            expectEqual(error.message, "number \(json) is out of range for '\(type)'")
            expectEqual(scanner.offset, 1)
            try expectEqual(scanner.readNumberText(), json)
        }
    }

    @Test("fractions that are not whole numbers say so", arguments: [
        "1.5", "0.1", "-2.25", "1e-1", "10e-2", "123456789012345678901234567890e-10", "1.0000000000000000000001",
    ])
    func notWhole(json: String) throws {
        for type in ["Int64", "UInt64"] {
            try scanning(json) { scanner in
                let error = try #require(throws: JSONValueError.self) {
                    if type == "Int64" { _ = try scanner.readInt64() } else { _ = try scanner.readUInt64() }
                }
                expectEqual(error.kind, .notAnInteger(type: type))
                expectEqual(error.message, "number \(json) is not a whole number, so it cannot be read as '\(type)'")
                expectEqual(scanner.offset, 0)
            }
        }
    }

    @Test("readInteger checks the range of the requested type")
    func smallIntegers() throws {
        try scanning("[127, 128, -129, 255, -1, 3.5]") { scanner in
            try scanner.beginArray()
            _ = try scanner.nextElement()
            try expectEqual(scanner.readInteger(Int8.self), 127)
            _ = try scanner.nextElement()
            let tooBig = try #require(throws: JSONValueError.self) { try scanner.readInteger(Int8.self) }
            expectEqual(tooBig.message, "number 128 is out of range for 'Int8'")
            try expectEqual(scanner.readInteger(UInt8.self), 128)
            _ = try scanner.nextElement()
            #expect(throws: JSONValueError.self) { try scanner.readInteger(Int8.self) }
            try expectEqual(scanner.readInteger(Int16.self), -129)
            _ = try scanner.nextElement()
            try expectEqual(scanner.readInteger(UInt8.self), 255)
            _ = try scanner.nextElement()
            let negative = try #require(throws: JSONValueError.self) { try scanner.readInteger(UInt32.self) }
            expectEqual(negative.kind, .numberOutOfRange(type: "UInt32"))
            try expectEqual(scanner.readInteger(Int.self), -1)
            _ = try scanner.nextElement()
            let fraction = try #require(throws: JSONValueError.self) { try scanner.readInteger(Int32.self) }
            expectEqual(fraction.kind, .notAnInteger(type: "Int32"))
            try scanner.skipValue()
            #expect(try !scanner.nextElement())
        }
    }

    @Test("malformed numbers are syntax errors", arguments: [
        ("01", JSONSyntaxError.NumberProblem.leadingZero, 0), ("-01", .leadingZero, 1), ("00", .leadingZero, 0),
        ("-", .missingIntegerDigits, 1), ("-x", .missingIntegerDigits, 1), ("1.", .missingFractionDigits, 2),
        ("1.e5", .missingFractionDigits, 2), ("1e", .missingExponentDigits, 2), ("1e+", .missingExponentDigits, 3),
        ("1E-x", .missingExponentDigits, 3), ("-.5", .missingIntegerDigits, 1),
    ])
    func malformed(json: String, problem: JSONSyntaxError.NumberProblem, offset: Int) throws {
        for read in 0..<5 {
            let error = try #require(throws: JSONSyntaxError.self) {
                try scanning(json) { scanner in
                    switch read {
                    case 0: _ = try scanner.readInt64()
                    case 1: _ = try scanner.readUInt64()
                    case 2: _ = try scanner.readDouble()
                    case 3: _ = try scanner.readNumberText()
                    default: try scanner.skipValue()
                    }
                }
            }
            expectEqual(error.kind, .invalidNumber(problem))
            expectEqual(error.offset, offset)
        }
    }

    @Test("numbers that are not JSON are not numbers", arguments: ["+1", ".5", "NaN", "Infinity", "-Infinity", "0x10"])
    func notNumbers(json: String) throws {
        let valid = JSONValidator.isValid(Array(json.utf8))
        #expect(!valid)
    }

    // MARK: - Doubles

    static let hardDoubles: [String] = [
        "0", "-0", "0.0", "1", "0.1", "0.2", "0.3", "1e23", "8.98846567431158e307", "1.7976931348623157e308",
        "1.7976931348623158e308", "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
        "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "5e-324", "1e-323",
        "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740994", "9007199254740995",
        "18014398509481985", "123456789012345678", "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124", "1.00000000000000011102230246251565404236316680908203126",
        "3.141592653589793238462643383279502884197169399375105820974944", "1e22", "1e-22", "9.999999999999999e22",
        "123456789e-30", "1448997445238699", "4503599627370497.5", "7.2057594037927933e16", "3.0540412e5",
        "0.000001", "1e-7", "12345.6789e-3", "-12.5E+2", "1e308", "1e-308", "0.1e1", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791",
        "2.225073858507201136057409796709131975934819546351645648023426109724822222021076945516529523908135087914149158913039621106870086438694594645527657207407820621743379988141063267329253552286881372149012981122451451889849057222307285255133155755015914397476397983411801999323962548289017107081850690630666655994938275772572015763062615109e-308",
    ]

    @Test("doubles are correctly rounded (the same as Double(String))", arguments: hardDoubles)
    func hardDouble(text: String) throws {
        let expected = try #require(Double(text))
        try scanning(text) { scanner in
            let value = try scanner.readDouble()
            #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) != \(expected)")
            try scanner.finish()
        }
        if case .double(let parsed) = try JSONValue(parsing: text) {
            expectEqual(parsed.bitPattern, expected.bitPattern)
        }
    }

    @Test("very long mantissas round correctly")
    func longMantissas() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        for _ in 0..<200 {
            let digits = Int.random(in: 780...1200, using: &generator)
            var text = String(Int.random(in: 1...9, using: &generator))
            for _ in 0..<digits { text.append(String(Int.random(in: 0...9, using: &generator))) }
            let point = Int.random(in: 1...digits, using: &generator)
            text.insert(".", at: text.index(text.startIndex, offsetBy: point))
            text += "e\(Int.random(in: -300...300, using: &generator) - (point - 1))"
            let expected = try #require(Double(text))
            #expect(try scanning(text) { try $0.readDouble() }.bitPattern == expected.bitPattern, "\(text.prefix(30))…")
        }
        // A halfway case decided by a nonzero digit far beyond the 800th.
        let aboveHalfway = "9007199254740993." + String(repeating: "0", count: 1000) + "1"
        try expectEqual(scanning(aboveHalfway) { try $0.readDouble() }, 9_007_199_254_740_994)
        let halfway = "9007199254740993." + String(repeating: "0", count: 1000)
        try expectEqual(scanning(halfway) { try $0.readDouble() }, 9_007_199_254_740_992)
    }

    @Test("random decimal literals round like Double(String)")
    func randomLiterals() throws {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<5000 {
            let digitCount = Int.random(in: 1...25, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            text += String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digitCount { text += String(Int.random(in: 0...9, using: &generator)) }
            if digitCount > 1 && Bool.random(using: &generator) {
                text.insert(".", at: text.index(text.endIndex, offsetBy: -Int.random(in: 1...(digitCount - 1), using: &generator)))
            }
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -340...310, using: &generator))" }
            let expected = try #require(Double(text))
            guard expected.isFinite else { continue }
            let value = try scanning(text) { try $0.readDouble() }
            #expect(value.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test("numbers too large for a Double are errors that consume nothing", arguments: ["1e309", "-1e400", "1e99999999999999999999"])
    func infiniteDoubles(json: String) throws {
        try scanning(json) { scanner in
            let error = try #require(throws: JSONValueError.self) { try scanner.readDouble() }
            expectEqual(error.kind, .numberOutOfRange(type: "Double"))
            expectEqual(scanner.offset, 0)
            try scanner.skipValue()
            try scanner.finish()
        }
    }

    @Test("tiny numbers round to zero or a subnormal", arguments: [("1e-400", 0.0), ("-1e-400", -0.0), ("0e99999", 0.0)])
    func tinyDoubles(json: String, value: Double) throws {
        let read = try scanning(json) { try $0.readDouble() }
        #expect(read == value && read.sign == value.sign)
    }

    @Test("number text is returned exactly as written", arguments: ["0", "-0.0", "1.50", "1E+400", "12345678901234567890123"])
    func numberText(json: String) throws {
        try scanning(" \(json) ") { scanner in
            try expectEqual(scanner.readNumberText(), json)
            try scanner.finish()
        }
    }

    @Test("a number ends at the first byte that cannot continue it", arguments: ["[1,2]", "{\"a\":-3}", "[0]", "[-0.5e-3 ]"])
    func numberEnds(json: String) throws {
        #expect(JSONValidator.isValid(Array(json.utf8)))
        _ = try JSONValue(parsing: json)
    }
}
