/// Where the parts of a validated number literal lie in the document.
///
/// Made by ``JSONScanner/scanNumber(at:)``, which checks the RFC 8259 grammar
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; the conversions below rely on it.
// @usableFromInline: no inlinable body uses this type (only scanNumber(at:) and the out-of-line
// number paths do): a candidate for removal, with the attributes of its members below.
@usableFromInline
struct NumberLiteral: Sendable {
    /// The offset of the first byte (`-` or a digit).
    // @usableFromInline, these six fields: no inlinable body reads them (only the out-of-line
    // number paths do): candidates for removal.
    @usableFromInline var start: Int
    /// The offset after the last byte.
    @usableFromInline var end: Int
    /// Whether the literal starts with `-`.
    @usableFromInline var isNegative: Bool
    /// The offset of the first integer digit.
    @usableFromInline var integerStart: Int
    /// The offset after the last integer digit.
    @usableFromInline var integerEnd: Int
    /// The offset after the last fraction digit; `integerEnd` when there is no fraction.
    @usableFromInline var fractionEnd: Int

    /// Whether the literal has neither fraction nor exponent.
    // @usableFromInline: no inlinable body reads this (only readNumberValue(), out of line, does):
    // a candidate for removal.
    @usableFromInline var isInteger: Bool { end == integerEnd }

    /// The number of fraction digits.
    var fractionDigitCount: Int { fractionEnd > integerEnd ? fractionEnd - integerEnd - 1 : 0 }

    /// The number of integer and fraction digits together.
    var digitCount: Int { integerEnd - integerStart + fractionDigitCount }
}

/// The exact integer value of a number literal, when it has one.
// @usableFromInline: no inlinable body uses this type (only exactInteger(_:) and its out-of-line
// callers do): a candidate for removal.
@usableFromInline
enum ExactInteger: Sendable {
    /// The magnitude (the sign is the literal's).
    case magnitude(UInt64)
    /// The literal has a nonzero fractional part.
    case notIntegral
    /// The literal is a whole number whose magnitude is above `UInt64.max`.
    case outOfRange
}

extension JSONScanner {
    /// Whether `byte` can continue a number after its integer digits (`.`, `e`, `E`).
    // @inlinable: the end-of-integer check of the inlinable readInt64() and readUInt64(), compiled
    // with them into their callers.
    @inlinable @inline(__always)
    static func continuesNumber(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte | 0x20 == UInt8(ascii: "e")
    }

    /// Checks the number grammar from `start` (a `-` or digit) and returns where the parts lie.
    // @usableFromInline: no inlinable body calls this (only skipping, the out-of-line number paths
    // and JSONWriter.writeNumber(text:) do): a candidate for removal.
    @usableFromInline
    func scanNumber(at start: Int) throws -> NumberLiteral {
        var index = start
        let isNegative = index < end && input[index] == UInt8(ascii: "-")
        if isNegative { index &+= 1 }
        let integerStart = index
        guard index < end, input[index] &- UInt8(ascii: "0") <= 9 else {
            try fail(.invalidNumber(.missingIntegerDigits), at: index)
        }
        if input[index] == UInt8(ascii: "0") {
            index &+= 1
            if index < end, input[index] &- UInt8(ascii: "0") <= 9 {
                try fail(.invalidNumber(.leadingZero), at: integerStart)
            }
        } else {
            index = digitsEnd(from: index &+ 1)
        }
        let integerEnd = index
        if index < end, input[index] == UInt8(ascii: ".") {
            index &+= 1
            guard index < end, input[index] &- UInt8(ascii: "0") <= 9 else {
                try fail(.invalidNumber(.missingFractionDigits), at: index)
            }
            index = digitsEnd(from: index &+ 1)
        }
        let fractionEnd = index
        if index < end, input[index] | 0x20 == UInt8(ascii: "e") {
            index &+= 1
            if index < end, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") { index &+= 1 }
            guard index < end, input[index] &- UInt8(ascii: "0") <= 9 else {
                try fail(.invalidNumber(.missingExponentDigits), at: index)
            }
            index = digitsEnd(from: index &+ 1)
        }
        return NumberLiteral(
            start: start, end: index, isNegative: isNegative,
            integerStart: integerStart, integerEnd: integerEnd, fractionEnd: fractionEnd
        )
    }

    /// The offset of the first non-digit at or after `start`.
    // @usableFromInline: no inlinable body calls this (only scanNumber(at:), out of line, does): a
    // candidate for removal.
    @usableFromInline
    func digitsEnd(from start: Int) -> Int {
        var index = start
        while index < end, input[index] &- UInt8(ascii: "0") <= 9 { index &+= 1 }
        return index
    }

    /// The digit at position `n` of the literal's integer-then-fraction digit sequence.
    private func digit(_ n: Int, of literal: NumberLiteral) -> UInt8 {
        let integerCount = literal.integerEnd - literal.integerStart
        let offset = n < integerCount ? literal.integerStart + n : literal.integerEnd + 1 + (n - integerCount)
        return input[offset] &- UInt8(ascii: "0")
    }

    /// The literal's decimal exponent (after `e`), saturated to ±1,000,000,000.
    private func exponent(of literal: NumberLiteral) -> Int {
        guard literal.end > literal.fractionEnd else { return 0 }
        var index = literal.fractionEnd + 1
        var negative = false
        if input[index] == UInt8(ascii: "-") || input[index] == UInt8(ascii: "+") {
            negative = input[index] == UInt8(ascii: "-")
            index += 1
        }
        var value = 0
        while index < literal.end {
            if value < 1_000_000_000 { value = value * 10 + Int(input[index] &- UInt8(ascii: "0")) }
            index += 1
        }
        return negative ? -value : value
    }

    /// The exact integer value of a literal such as `120`, `1.20e2` or `12000e-2`.
    // @usableFromInline: no inlinable body calls this (only readInt64Slowly(), readUInt64Slowly()
    // and readNumberValue(), out of line, do): a candidate for removal.
    @usableFromInline
    func exactInteger(_ literal: NumberLiteral) -> ExactInteger {
        let count = literal.digitCount
        var first = 0
        while first < count, digit(first, of: literal) == 0 { first += 1 }
        if first == count { return .magnitude(0) }
        var last = count - 1
        while digit(last, of: literal) == 0 { last -= 1 }
        // value = digits[first...last] × 10^scale
        let scale = exponent(of: literal) - literal.fractionDigitCount + (count - 1 - last)
        if scale < 0 { return .notIntegral }
        if last - first + 1 + scale > 20 { return .outOfRange }
        var magnitude: UInt64 = 0
        for n in first...last {
            let product = magnitude.multipliedReportingOverflow(by: 10)
            let sum = product.partialValue.addingReportingOverflow(UInt64(digit(n, of: literal)))
            if product.overflow || sum.overflow { return .outOfRange }
            magnitude = sum.partialValue
        }
        for _ in 0..<scale {
            let product = magnitude.multipliedReportingOverflow(by: 10)
            if product.overflow { return .outOfRange }
            magnitude = product.partialValue
        }
        return .magnitude(magnitude)
    }

    /// The literal's value correctly rounded to a `Double` (infinite when it is too large).
    ///
    /// Short mantissas with small exponents are computed exactly with one IEEE operation
    /// (Clinger's fast path: both operands are exact, so the single rounding is correct); other
    /// values whose first 19 significant digits settle the rounding take ``EiselLemire``; what
    /// is left goes to Swift's `Double(_: Substring)`, which is correctly rounded.
    // @usableFromInline: no inlinable body calls this (only the out-of-line double and number-value
    // paths do): a candidate for removal.
    @usableFromInline
    func doubleValue(_ literal: NumberLiteral) -> Double {
        let count = literal.digitCount
        var mantissa: UInt64 = 0
        var significant = 0
        var n = 0
        while n < count {
            let value = digit(n, of: literal)
            if significant > 0 || value != 0 {
                if significant == 19 { break }
                mantissa = mantissa &* 10 &+ UInt64(value)
                significant += 1
            }
            n += 1
        }
        if mantissa == 0 { return literal.isNegative ? -0.0 : 0.0 }
        // value = mantissa × 10^scale, or a little more when digits were dropped
        let scale = exponent(of: literal) - literal.fractionDigitCount + (count - n)
        var fast: Double?
        if n == count || !hasNonzeroDigit(from: n, of: literal) {
            fast = JSONScanner.quickDouble(mantissa: mantissa, scale: scale)
        } else {
            fast = EiselLemire.magnitude(truncatedMantissa: mantissa, power: scale)
        }
        if let fast { return literal.isNegative ? -fast : fast }
        return slowDoubleValue(literal)
    }

    /// Whether a digit at or after position `n` of the literal's digit sequence is not zero.
    private func hasNonzeroDigit(from n: Int, of literal: NumberLiteral) -> Bool {
        let count = literal.digitCount
        var n = n
        while n < count {
            if digit(n, of: literal) != 0 { return true }
            n += 1
        }
        return false
    }

    /// The exact decimal `mantissa × 10^scale` (a mantissa of at most 19 digits) correctly
    /// rounded, when one IEEE operation (Clinger's fast path) or ``EiselLemire`` settles it; nil
    /// when neither does. The one-pass reader and the general path both convert through it.
    @inline(__always)
    static func quickDouble(mantissa: UInt64, scale: Int) -> Double? {
        if mantissa <= 1 << 53, let exact = clingerFastPath(mantissa, scale) { return exact }
        return EiselLemire.magnitude(mantissa: mantissa, power: scale)
    }

    /// `mantissa × 10^scale` when it can be computed with one correctly rounded operation.
    @inline(__always)
    private static func clingerFastPath(_ mantissa: UInt64, _ scale: Int) -> Double? {
        switch scale {
        case 0...22:
            return Double(mantissa) * exactPowerOfTen(scale)
        case -22 ..< 0:
            return Double(mantissa) / exactPowerOfTen(-scale)
        case 23...37:
            // Move the excess power into the mantissa while it stays exact.
            var scaled = mantissa
            for _ in 0 ..< (scale - 22) {
                let product = scaled.multipliedReportingOverflow(by: 10)
                if product.overflow || product.partialValue > 1 << 53 { return nil }
                scaled = product.partialValue
            }
            return Double(scaled) * 1e22
        default:
            return nil
        }
    }

    /// The correctly rounded value via `Double(_:)`, with very long mantissas cut to 800
    /// significant digits plus a sticky digit, which cannot change the rounding (a halfway
    /// point between two doubles has at most 767 significant digits) but bounds the work.
    private func slowDoubleValue(_ literal: NumberLiteral) -> Double {
        let count = literal.digitCount
        guard count > 800 else {
            // Unsafe: the literal as a slice of the document, copied once into the String;
            // scanNumber(at:) found its end inside the document.
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: input[literal.start..<literal.end]), as: UTF8.self)
            return Double(text) ?? .nan
        }
        var first = 0
        while first < count, digit(first, of: literal) == 0 { first += 1 }
        if first == count { return literal.isNegative ? -0.0 : 0.0 }
        var text: [UInt8] = literal.isNegative ? Array("-0.".utf8) : Array("0.".utf8)
        var n = first
        while n < count && n - first < 800 {
            text.append(digit(n, of: literal) &+ UInt8(ascii: "0"))
            n += 1
        }
        while n < count {
            if digit(n, of: literal) != 0 {
                text.append(UInt8(ascii: "1"))
                break
            }
            n += 1
        }
        // value = 0.digits[first...] × 10^(scale + significant count)
        let scale = exponent(of: literal) - literal.fractionDigitCount + (count - first)
        text.append(contentsOf: "e\(scale)".utf8)
        return Double(String(decoding: text, as: UTF8.self)) ?? .nan
    }
}
