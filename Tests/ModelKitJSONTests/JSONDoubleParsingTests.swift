import Foundation
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// Every double the reader gives is the one `Double(String)` gives for the same text, bit for
/// bit: the fast paths (Clinger, Eisel-Lemire) may only be faster than the correctly rounded
/// conversion, never different from it.
@Suite("JSON doubles read like Double(String)")
struct JSONDoubleParsingTests {
    static let edgeValues: [String] = [
        "0", "-0.0", "0e-400", "5e-324", "4.9406564584124654e-324", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "7.4109846876186982e-324", "2.2250738585072009e-308",
        "2.2250738585072011e-308", "2.2250738585072014e-308", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "9007199254740993", "9007199254740995",
        "9007199254740992.000000000000000000001", "9007199254740993.0000000000000000001",
        "1e23", "8.98846567431158e307", "7.2057594037927933e16", "0.1", "0.3", "1e300", "1e-300",
        "123456789012345678e-300", "9.999999999999999e299", "1e-342", "1e-343", "1e308", "1e-308",
        "18446744073709551615", "18446744073709551616", "9999999999999999999", "10000000000000000000",
        "1.0000000000000002", "0.9999999999999999", "4503599627370496.5", "4503599627370497.5",
        "2.22507385850720113605740979670913197593481954635164564e-308",
        "2.22507385850720113605740979670913197593481954635164565e-308",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.000000000000000111022302462515654042363166809082031250000000000000000001",
        "-65.613616999999977", "-65.61361699999997700000001", "179.99999999999997", "-0.000000000000000000001",
        "6.02214076e23", "1E+0005", "1e-0400", "0e9999", "123456789012345678e-0300", "4.4501477170144023e-308",
        // A tie decided by a nonzero digit past the 800th.
        "9007199254740993." + String(repeating: "0", count: 800) + "1",
        "9007199254740993." + String(repeating: "0", count: 800),
        "2.4703282292062327" + String(repeating: "0", count: 780) + "1e-324",
        "1" + String(repeating: "0", count: 300) + "e-300",
        "0." + String(repeating: "0", count: 340) + "1e340",
        String(repeating: "9", count: 400) + "e-92",
    ]

    @Test("edge values, positive and negative", arguments: edgeValues)
    func edgeValue(text: String) throws {
        try expectReadsLikeDouble([text, text.hasPrefix("-") ? String(text.dropFirst()) : "-" + text])
    }

    @Test("the shortest description of random doubles")
    func shortestDescriptions() throws {
        var generator = SeededGenerator(seed: 0xD0_0B1E)
        try inBatches(of: 10_000, total: 150_000) { texts in
            texts.append(Self.randomFiniteDouble(using: &generator).description)
        }
    }

    @Test("random doubles with 17 significant digits")
    func seventeenDigits() throws {
        var generator = SeededGenerator(seed: 17)
        try inBatches(of: 10_000, total: 100_000) { texts in
            texts.append(String(format: "%.17g", Self.randomFiniteDouble(using: &generator)))
        }
    }

    @Test("random digit strings of 1-25 digits with exponents from -330 to 310")
    func randomDigitStrings() throws {
        var generator = SeededGenerator(seed: 0x5EED_D161)
        try inBatches(of: 10_000, total: 150_000) { texts in
            // Up to 13 digits from one draw, and up to 12 more from a second, zero-padded: a
            // digit-by-digit loop would cost more than the conversions in a debug build.
            let count = Int.random(in: 1...25, using: &generator)
            let leading = min(count, 13)
            var digits = String(UInt64.random(in: Self.powersOfTen[leading - 1]..<Self.powersOfTen[leading], using: &generator))
            if count > leading {
                let trailing = String(UInt64.random(in: 0..<Self.powersOfTen[count - leading], using: &generator))
                digits += String(repeating: "0", count: count - leading - trailing.count) + trailing
            }
            if count > 1 && Bool.random(using: &generator) {
                digits.insert(".", at: digits.index(digits.startIndex, offsetBy: Int.random(in: 1..<count, using: &generator)))
            }
            let sign = Bool.random(using: &generator) ? "-" : ""
            texts.append("\(sign)\(digits)e\(Int.random(in: -330...310, using: &generator))")
        }
    }

    // MARK: - Helpers

    /// 10^0 through 10^13.
    static let powersOfTen: [UInt64] = (0...13).map { (0..<$0).reduce(1) { product, _ in product * 10 } }

    /// A double of random bits, redrawn while it is infinite or NaN.
    static func randomFiniteDouble(using generator: inout SeededGenerator) -> Double {
        while true {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { return value }
        }
    }

    /// Checks `total` texts made by `append`, `size` at a time in one array document each (one
    /// scanner per batch keeps the cost in the conversions).
    func inBatches(of size: Int, total: Int, _ append: (inout [String]) -> Void) throws {
        var texts: [String] = []
        texts.reserveCapacity(size)
        for _ in 0..<(total / size) {
            texts.removeAll(keepingCapacity: true)
            for _ in 0..<size { append(&texts) }
            try expectReadsLikeDouble(texts)
        }
    }

    /// Reads `texts` as the elements of one array and compares each double with
    /// `Double(String)`; finite expectations only, as the reader refuses infinite values.
    func expectReadsLikeDouble(_ texts: [String]) throws {
        let cases = texts.compactMap { text in Double(text).flatMap { $0.isFinite ? (text, $0) : nil } }
        try scanning("[" + cases.map(\.0).joined(separator: ",") + "]") { scanner in
            try scanner.beginArray()
            var mismatches = 0
            for (text, expected) in cases {
                // A plain check per element: #expect's bookkeeping would outweigh the conversion.
                guard try scanner.nextElement() else {
                    Issue.record("the array ended before \(text.prefix(60))")
                    return
                }
                let value = try scanner.readDouble()
                if value.bitPattern != expected.bitPattern {
                    mismatches += 1
                    // Some failures tell the story; a broken conversion would flood the log.
                    if mismatches <= 10 {
                        Issue.record("\(text.prefix(60)): read \(value), Double(String) says \(expected)")
                    }
                }
            }
            #expect(try !scanner.nextElement())
            try scanner.finish()
            #expect(mismatches == 0)
        }
    }
}
