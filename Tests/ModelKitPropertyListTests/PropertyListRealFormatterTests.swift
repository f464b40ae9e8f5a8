import Foundation
import Testing
@testable import ModelKitPropertyList
import ModelKitTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// C's `%.17g`, the formatting Apple's XML writer uses for reals.
private func cFormat(_ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    _ = buffer.withUnsafeMutableBufferPointer { pointer in
        withVaList([value]) { vsnprintf(pointer.baseAddress, 64, "%.17g", $0) }
    }
    return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
}

struct PropertyListRealFormatterTests {
    @Test(arguments: [
        (1.0, "1"),
        (1.5, "1.5"),
        (-2.5, "-2.5"),
        (0.1, "0.10000000000000001"),
        (0.5, "0.5"),
        (100.0, "100"),
        (1e15, "1000000000000000"),
        (1e16, "10000000000000000"),
        (1e17, "1e+17"),
        (123_456_789_012_345_678.0, "1.2345678901234568e+17"),
        (1e100, "1e+100"),
        (0.0001, "0.0001"),
        (0.00001, "1.0000000000000001e-05"),
        (1.0 / 3.0, "0.33333333333333331"),
        (2.0 / 3.0, "0.66666666666666663"),
        (9_007_199_254_740_993.0, "9007199254740992"),
        (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        (Double.leastNonzeroMagnitude, "4.9406564584124654e-324"),
        (Double.leastNormalMagnitude, "2.2250738585072014e-308"),
        (509_523_358.684097, "509523358.68409699"),
        (0.0, "0.0"),
        (-0.0, "0.0"),
        (Double.infinity, "+infinity"),
        (-Double.infinity, "-infinity"),
        (Double.nan, "nan"),
    ] as [(Double, String)])
    func formatsLikeApple(_ value: Double, _ expected: String) {
        expectEqual(PropertyListRealFormatter.format(value), expected)
    }

    @Test func matchesCPrintfOnThousandsOfValues() {
        var generator = SeededGenerator(seed: 0x5EED)
        var checked = 0
        var mismatches: [String] = []
        func check(_ value: Double) {
            guard value.isFinite, value != 0 else { return }
            checked += 1
            let ours = PropertyListRealFormatter.format(value)
            let theirs = cFormat(value)
            if ours != theirs, mismatches.count < 10 { mismatches.append("\(value.bitPattern): \(ours) vs \(theirs)") }
            // Seventeen significant digits identify the double.
            if Double(ours) != value, mismatches.count < 10 { mismatches.append("\(value) does not read back from \(ours)") }
        }
        // Random bit patterns cover every exponent, subnormals included.
        for _ in 0..<1_500 { check(Double(bitPattern: generator.next())) }
        // Values of everyday magnitude, with short and long decimal forms.
        for _ in 0..<3_000 {
            let scale = pow(10, Double(Int(generator.next() % 25) - 12))
            check(Double(Int64(truncatingIfNeeded: generator.next() % 2_000_000) - 1_000_000) / 1_000 * scale)
            check(Double(generator.next() % 1_000_000_000) / Double(generator.next() % 999 + 1))
        }
        // Exact ties at the 17th digit round half to even.
        for text in ["0.125", "1.0000000000000000125", "9.9999999999999995e22", "5e-324", "8.5", "0.3"] {
            if let value = Double(text) { check(value) }
        }
        #expect(checked > 7_000)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    @Test func descriptionOfRealsUsesTheFormatter() {
        expectEqual(PropertyListReal(1.5).description, "1.5")
        expectEqual(PropertyListReal(Float(0.1)).description, "0.10000000149011612")
    }
}
