import Foundation
import ModelKitJSON
import ModelKitTestSupport
import Testing

/// The writer prints every finite double as Swift's `description` does, from its own shortest
/// digits (Schubfach) straight into its buffer: the bytes are compared with `description` and
/// read back with `Double(String)` to the same bit pattern.
@Suite("JSON double printing")
struct JSONDoublePrintingTests {
    /// Writes `values` as one JSON array.
    private static func written(_ values: [Double]) throws -> String {
        var writer = JSONWriter(capacity: values.count * 25)
        writer.beginArray()
        for value in values { try writer.writeDouble(value) }
        writer.endArray()
        return writer.string
    }

    /// Checks that each value is written as its description and reads back bit for bit; returns
    /// how many were checked.
    ///
    /// The array is compared whole with the descriptions joined (one comparison, which keeps
    /// hundreds of thousands of doubles within the test's time in a debug build), and value by
    /// value only when it differs.
    @discardableResult
    private static func check(_ values: [Double]) throws -> Int {
        let descriptions = values.map(\.description)
        let text = try written(values)
        if text != "[" + descriptions.joined(separator: ",") + "]" {
            let texts = text.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
            try #require(texts.count == values.count, "\(text)")
            for (value, (text, description)) in zip(values, zip(texts, descriptions)) where text != description {
                Issue.record("\(value.bitPattern): wrote \(text), description is \(description)")
            }
        }
        for (value, description) in zip(values, descriptions) {
            let read = Double(description)
            if read?.bitPattern != value.bitPattern {
                Issue.record("\(description) reads back as \(String(describing: read)), not \(value.bitPattern)")
            }
        }
        return values.count
    }

    /// Doubles where the digits or the layout change, with the text they must have.
    @Test("layout examples", arguments: [
        (0.0, "0.0"), (-0.0, "-0.0"), (0.1, "0.1"), (100.0, "100.0"), (1e-5, "1e-05"), (0.0001, "0.0001"),
        (0.0001.nextDown, "9.999999999999999e-05"), (1e16, "1e+16"), (1e15, "1000000000000000.0"),
        (1e15.nextDown, "999999999999999.9"), (9_007_199_254_740_992, "9007199254740992.0"),
        (9_007_199_254_740_992.nextUp, "9.007199254740994e+15"), (1.5e300, "1.5e+300"),
        (Double.leastNonzeroMagnitude, "5e-324"), (Double.leastNormalMagnitude, "2.2250738585072014e-308"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"), (-65.61361699999998, "-65.61361699999998"),
        (19.99, "19.99"), (-0.001, "-0.001"), (123_456_789.125, "123456789.125"), (1e100, "1e+100"),
        (2.5e-5, "2.5e-05"), (1e-7, "1e-07"), (0.30000000000000004, "0.30000000000000004"),
    ])
    func layout(value: Double, text: String) throws {
        #expect(try Self.written([value]) == "[\(text)]")
        try Self.check([value, -value])
    }

    /// Every power of ten that is a double (1e-323 to 1e308), every power of two, the subnormal
    /// and normal edges, the layout's edges (10^15, 10^16, 2^53, 10^-4, 10^-5): each with its
    /// neighbours and its negative, by family (a test case a value would cost more than the
    /// values).
    static let edges: [(family: String, values: [Double])] = [
        ("powers of ten", (-324...308).compactMap { exponent in Double("1e\(exponent)").flatMap { $0 == 0 ? nil : $0 } }),
        ("powers of two", (-1074...1023).map { Double(sign: .plus, exponent: $0, significand: 1) }),
        ("subnormal and normal edges", [
            .leastNonzeroMagnitude, Double.leastNormalMagnitude.nextDown, .leastNormalMagnitude, .greatestFiniteMagnitude,
        ]),
        ("layout edges", [1e15, 1e16, 9_007_199_254_740_992, 1e-4, 1e-5, 1e22, 1e23]),
    ]

    @Test("edges: powers of ten and two, subnormals, layout changes", arguments: edges)
    func edge(family: String, values: [Double]) throws {
        let neighbours = values.flatMap { [$0.nextDown, $0, $0.nextUp] }.filter(\.isFinite)
        try Self.check(neighbours + neighbours.map { -$0 })
    }

    /// Checks `count` values made by `next` (nil for none this time), in chunks.
    private static func checkRandom(count: Int, seed: UInt64, _ next: (inout SeededGenerator) -> Double?) throws {
        var generator = SeededGenerator(seed: seed)
        var values: [Double] = []
        values.reserveCapacity(chunk)
        var checked = 0
        while checked < count {
            values.removeAll(keepingCapacity: true)
            while values.count < chunk {
                if let value = next(&generator) { values.append(value) }
            }
            checked += try check(values)
        }
    }

    /// Finite bit patterns from a fixed seed, spread over every exponent.
    @Test("random bit patterns", arguments: 0..<4)
    func randomBits(part: Int) throws {
        try Self.checkRandom(count: Self.randomBitsPerPart, seed: 0xD0B1E &+ UInt64(part)) { generator in
            let value = Double(bitPattern: generator.next())
            return value.isFinite ? value : nil
        }
    }

    /// Decimals of 1 to 17 digits at every scale, from a fixed seed: as prices and coordinates,
    /// and with any exponent.
    @Test("random decimals of 1 to 17 digits", arguments: 0..<4)
    func randomDecimals(part: Int) throws {
        var made = 0
        try Self.checkRandom(count: Self.randomDecimalsPerPart, seed: 0xDEC1 &+ UInt64(part)) { generator in
            made += 1
            let digits = Int.random(in: 1...17, using: &generator)
            var smallest: UInt64 = 1
            for _ in 1..<digits { smallest *= 10 }
            let significand = UInt64.random(in: smallest...(smallest * 10 - 1), using: &generator)
            if made % 4 == 0 {
                // Any exponent, read as a literal: the nearest double to that decimal.
                let exponent = Int.random(in: -330...300, using: &generator)
                return Double("\(significand)e\(exponent)").flatMap { $0.isFinite && $0 != 0 ? $0 : nil }
            }
            // A decimal of up to `digits` places, as prices and coordinates are made.
            var scale = 1.0
            for _ in 0..<Int.random(in: 0...digits, using: &generator) { scale *= 10 }
            return Double(significand) / scale
        }
    }

    /// Decimals of one to eight places, the writer's short path (up to 2^52 / 10^8, from 0.0001),
    /// and around its edges; then doubles of 2 to 17 digits with their first digit at every power
    /// from 10^-5 to 10^17, so the point comes after each of the first sixteen digits, or an
    /// exponent follows; from a fixed seed, with their negatives.
    @Test("short decimals and every place of the point")
    func pointPlaces() throws {
        var generator = SeededGenerator(seed: 0x901E7)
        let edges = [0.0001, 0.000_123_45, 0.5, 0.999_999_99, 1.000_000_01, 45_035_995.123_456_78, 45_035_996.27, 45_035_996.273_704_96]
        var values = edges.flatMap { [$0.nextDown, $0, $0.nextUp] }
        for places in 1...8 {
            var scale = 1
            for _ in 0..<places { scale *= 10 }
            for _ in 0..<200 {
                let integer = Int.random(in: 0..<45_035_996, using: &generator) >> Int.random(in: 0...25, using: &generator)
                let fraction = String(Int.random(in: 0..<scale, using: &generator) + scale).dropFirst()
                values.append(Double("\(integer).\(fraction)")!)
            }
        }
        for digits in 2...17 {
            var smallest: UInt64 = 1
            for _ in 1..<digits { smallest *= 10 }
            for first in -5...17 {
                for _ in 0..<20 {
                    let significand = UInt64.random(in: smallest...(smallest * 10 - 1), using: &generator)
                    values.append(Double("\(significand)e\(first - digits + 1)")!)
                }
            }
        }
        try Self.check(values + values.map { -$0 })
    }

    /// Values per call of check(_:).
    static let chunk = 10_000
    /// Random bit patterns per part (four parts): 240,000 in all, from fixed seeds.
    static let randomBitsPerPart = 60_000
    /// Random decimals per part (four parts): 240,000 in all, from fixed seeds.
    static let randomDecimalsPerPart = 60_000
}
