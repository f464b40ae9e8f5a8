import Foundation

extension JSONValue {
    /// The JSON number for a decimal, losing nothing: `.int` or `.uint` for whole numbers that
    /// fit 64 bits, `.double` when a `Double`'s shortest description is the same number, and
    /// `.decimal` otherwise.
    ///
    /// ```swift
    /// JSONValue(exactly: Decimal(string: "19.99")!)                 // .double(19.99)
    /// JSONValue(exactly: Decimal(string: "0.1000000000000000001")!) // .decimal(...)
    /// ```
    public init(exactly decimal: Decimal) {
        if decimal.isWholeNumber {
            if let integer = Int64(exactly: decimal) {
                self = .int(integer)
                return
            }
            if let integer = UInt64(exactly: decimal) {
                self = .uint(integer)
                return
            }
        }
        if let double = Double(exactly: decimal) {
            self = .double(double)
        } else {
            self = .decimal(decimal)
        }
    }

    /// The number as a `Decimal` with the digits it was written with (a `.double` by its
    /// shortest description), or nil when this is not a number.
    public var exactDecimal: Decimal? {
        switch self {
        case .int(let integer): return Decimal(integer)
        case .uint(let integer): return Decimal(integer)
        case .double(let double): return Decimal(exactly: double)
        case .decimal(let decimal): return decimal
        default: return nil
        }
    }
}

// The number rules every tree reader shares (JSON values, Foundation objects): an integer
// property takes any whole number in its range, a fraction is a mismatch, and a whole number out
// of range is a range error that shows the number as written.
extension JSONValue {
    /// The number as an `Int64`.
    package func int64Value() throws -> Int64 {
        switch self {
        case .int(let integer): return integer
        case .uint(let integer): throw integerRange(Int64.self, "\(integer)")
        case .double(let number) where number.rounded() == number:
            guard let exact = Int64(exactly: number) else { throw integerRange(Int64.self, "\(number)") }
            return exact
        case .decimal(let number) where number.isWholeNumber:
            guard let exact = Int64(exactly: number) else { throw integerRange(Int64.self, number.description) }
            return exact
        default: throw ModelError.mismatch(expected: "an integer", found: ModelError.describe(self))
        }
    }

    /// The number as a `UInt64`.
    package func uint64Value() throws -> UInt64 {
        switch self {
        case .int(let integer):
            guard let exact = UInt64(exactly: integer) else { throw integerRange(UInt64.self, "\(integer)") }
            return exact
        case .uint(let integer): return integer
        case .double(let number) where number.rounded() == number:
            guard let exact = UInt64(exactly: number) else { throw integerRange(UInt64.self, "\(number)") }
            return exact
        case .decimal(let number) where number.isWholeNumber:
            guard let exact = UInt64(exactly: number) else { throw integerRange(UInt64.self, number.description) }
            return exact
        default: throw ModelError.mismatch(expected: "an integer", found: ModelError.describe(self))
        }
    }

    /// The number as the nearest `Double`.
    package func doubleValue() throws -> Double {
        switch self {
        case .int(let integer): return Double(integer)
        case .uint(let integer): return Double(integer)
        case .double(let number): return number
        case .decimal(let number):
            guard let double = Double(number.description), double.isFinite else {
                throw integerRange(Double.self, number.description)
            }
            return double
        default: throw ModelError.mismatch(expected: "a number", found: ModelError.describe(self))
        }
    }

    /// The number as a `Decimal`, with the digits it was written with.
    package func decimalValue() throws -> Decimal {
        guard let decimal = exactDecimal else {
            throw ModelError.mismatch(expected: "a number", found: ModelError.describe(self))
        }
        return decimal
    }
}

extension Decimal {
    /// A `Double`'s value as its shortest description says it (`0.1` is 0.1, not the binary
    /// fraction nearest to it), as JSON writes it; nil for NaN and infinities.
    package init?(exactly double: Double) {
        guard double.isFinite else { return nil }
        self.init(string: double.description, locale: posixLocale)
    }

    /// Whether the decimal has no fractional part.
    package var isWholeNumber: Bool {
        var value = self
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        return rounded == self
    }
}

extension Double {
    /// The `Double` whose shortest description is exactly `decimal`, or nil when no `Double`
    /// says that number (it has more significant digits than a `Double` keeps, or is too large).
    package init?(exactly decimal: Decimal) {
        guard let double = Double(decimal.description), double.isFinite, Decimal(exactly: double) == decimal else {
            return nil
        }
        self = double
    }
}

extension Int64 {
    /// The decimal as an `Int64`, when it is a whole number in range.
    package init?(exactly decimal: Decimal) {
        guard decimal.isWholeNumber, let value = Int64(decimal.description) else { return nil }
        self = value
    }
}

extension UInt64 {
    /// The decimal as a `UInt64`, when it is a whole number in range.
    package init?(exactly decimal: Decimal) {
        guard decimal.isWholeNumber, let value = UInt64(decimal.description) else { return nil }
        self = value
    }
}

/// The locale numbers are read in: `.` for the fraction, no grouping.
package let posixLocale = Locale(identifier: "en_US_POSIX")
