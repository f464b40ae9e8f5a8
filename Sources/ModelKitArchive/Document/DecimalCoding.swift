import Foundation
import ModelKitCore
import ModelKitPropertyList

/// `NSDecimalNumber`'s archived form: the fields of Foundation's `Decimal` under `NS.exponent`,
/// `NS.length`, `NS.negative`, `NS.compact`, `NS.mantissa` (eight 16-bit words, little-endian
/// bytes) and `NS.mantissa.bo` (1: little-endian).
enum DecimalCoding {
    static let keys = ["NS.exponent", "NS.length", "NS.negative", "NS.compact", "NS.mantissa.bo", "NS.mantissa"]

    /// The keys and inline values of an `NSDecimalNumber` object for `value`.
    static func fields(of value: Decimal) -> ([String], [PropertyListValue]) {
        // The mantissa as eight 16-bit words, from the significand's decimal digits (the fields of
        // `Decimal` itself are not public on every platform).
        var words = [UInt16](repeating: 0, count: 8)
        let magnitude = value.isSignMinus ? -value : value
        let digits = magnitude.isZero ? "0" : "\(magnitude.significand)"
        for digit in digits.utf8 where digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") {
            var carry = UInt32(digit - UInt8(ascii: "0"))
            for index in words.indices {
                let product = UInt32(words[index]) * 10 + carry
                words[index] = UInt16(truncatingIfNeeded: product)
                carry = product >> 16
            }
        }
        let length = (words.lastIndex { $0 != 0 } ?? -1) + 1
        var bytes = Data()
        bytes.reserveCapacity(16)
        for word in words {
            bytes.append(UInt8(truncatingIfNeeded: word))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
        }
        let values: [PropertyListValue] = [
            .integer(PropertyListInteger(Int64(magnitude.isZero ? 0 : magnitude.exponent))),
            .integer(PropertyListInteger(Int64(length))),
            .bool(value.isSignMinus),
            .bool(true),
            .integer(1),
            .data(bytes),
        ]
        return (keys, values)
    }

    /// The decimal an `NSDecimalNumber` object holds, or nil when its fields are malformed.
    static func decimal(from object: PropertyListDictionary) -> Decimal? {
        guard let exponent = object["NS.exponent"]?.int64Value, let length = object["NS.length"]?.int64Value,
              exponent >= -128, exponent <= 127, length >= 0, length <= 8,
              let mantissa = object["NS.mantissa"]?.dataValue
        else { return nil }
        let negative = object["NS.negative"]?.boolValue ?? false
        let bigEndian = object["NS.mantissa.bo"]?.int64Value == 0
        var words = [UInt16](repeating: 0, count: 8)
        let bytes = [UInt8](mantissa)
        for index in 0..<min(8, bytes.count / 2) {
            let first = UInt16(bytes[index * 2])
            let second = UInt16(bytes[index * 2 + 1])
            words[index] = bigEndian ? first << 8 | second : second << 8 | first
        }
        // Rebuild the value from its words: mantissa * 10^exponent.
        var result = Decimal(0)
        for word in words.prefix(Int(length)).reversed() {
            result = result * 65_536 + Decimal(Int(word))
        }
        guard exponent != 0 else { return negative ? -result : result }
        var scaled = result
        let power = Decimal(sign: .plus, exponent: Int(exponent), significand: 1)
        scaled = result * power
        return negative ? -scaled : scaled
    }
}
