// MARK: - Reals

/// Formats reals exactly as Apple's XML property list writer does.
///
/// CoreFoundation prints a `<real>` as `nan`, `+infinity`, `-infinity`, `0.0` for either zero,
/// and otherwise with C's `%.17g`: the value correctly rounded (half to even) to 17 significant
/// digits, in fixed notation when the decimal exponent is between -4 and 16, in exponent notation
/// (`e+17`, `e-05`: sign and at least two digits) otherwise, with trailing zeros and a trailing
/// decimal point removed. Seventeen digits always identify a `Double` uniquely, so the text reads
/// back to the same value (except `-0.0`, which prints as `0.0`, as in Apple's output).
///
/// This is a locale-independent implementation: the exact decimal expansion of the double comes
/// from big-integer arithmetic, so no C library formatting (and no `LC_NUMERIC`) is involved.
///
/// ```swift
/// PropertyListRealFormatter.format(1.5)    // "1.5"
/// PropertyListRealFormatter.format(1)      // "1"
/// PropertyListRealFormatter.format(0.1)    // "0.10000000000000001"
/// PropertyListRealFormatter.format(1e100)  // "1e+100"
/// ```
enum PropertyListRealFormatter {
    /// Significant digits of `%.17g` (`DBL_DIG + 2`).
    static let precision = 17

    /// The text of a `<real>` element for `value`.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-infinity" : "+infinity" }
        if value == 0 { return "0.0" }
        let negative = value < 0
        let magnitude = value.magnitude
        // Integers below 2^53 print as themselves: their exponent is at most 15 (fixed notation)
        // and they have at most 16 digits (no rounding).
        if magnitude < 9_007_199_254_740_992, magnitude.rounded(.towardZero) == magnitude {
            return (negative ? "-" : "") + String(UInt64(magnitude))
        }
        var (digits, exponent) = decimalDigits(of: magnitude)
        roundToPrecision(&digits, exponent: &exponent)
        return (negative ? "-" : "") + layOut(digits: digits, exponent: exponent)
    }

    /// The exact decimal digits of a positive finite double, and the decimal exponent of the first
    /// digit (`value = d0.d1d2… × 10^exponent`).
    static func decimalDigits(of value: Double) -> (digits: [UInt8], exponent: Int) {
        let exponentBits = Int(value.exponentBitPattern)
        let significand: UInt64
        let binaryExponent: Int
        if exponentBits == 0 {
            significand = value.significandBitPattern
            binaryExponent = -1074
        } else {
            significand = value.significandBitPattern | (1 << 52)
            binaryExponent = exponentBits - 1075
        }
        var number = BigUnsigned(significand)
        var scale = 0
        if binaryExponent >= 0 {
            number.multiply(byPowerOfTwo: binaryExponent)
        } else {
            // m × 2^-k = m × 5^k / 10^k.
            number.multiply(byPowerOfFive: -binaryExponent)
            scale = -binaryExponent
        }
        let digits = number.decimalDigits()
        return (digits, digits.count - 1 - scale)
    }

    /// Rounds `digits` to `precision` significant digits, half to even, padding with zeros.
    static func roundToPrecision(_ digits: inout [UInt8], exponent: inout Int) {
        if digits.count <= precision {
            digits.append(contentsOf: repeatElement(0, count: precision - digits.count))
            return
        }
        let first = digits[precision]
        var roundUp = first > 5
        if first == 5 {
            let rest = digits[(precision + 1)...]
            roundUp = rest.contains { $0 != 0 } || digits[precision - 1] % 2 == 1
        }
        digits.removeSubrange(precision...)
        guard roundUp else { return }
        var position = precision - 1
        while position >= 0 {
            if digits[position] == 9 {
                digits[position] = 0
                position -= 1
            } else {
                digits[position] += 1
                return
            }
        }
        // Every digit was 9: the value rounds up to the next power of ten.
        digits[0] = 1
        exponent += 1
    }

    /// Lays out `precision` digits in `%g` style.
    static func layOut(digits: [UInt8], exponent: Int) -> String {
        var significant = digits.count
        while significant > 1, digits[significant - 1] == 0 { significant -= 1 }
        var text: [UInt8] = []
        text.reserveCapacity(32)
        let zero = UInt8(ascii: "0")
        if exponent < -4 || exponent >= precision {
            text.append(zero + digits[0])
            if significant > 1 {
                text.append(UInt8(ascii: "."))
                for index in 1..<significant { text.append(zero + digits[index]) }
            }
            text.append(UInt8(ascii: "e"))
            text.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let magnitude = exponent.magnitude
            if magnitude < 10 { text.append(zero) }
            text.append(contentsOf: String(magnitude).utf8)
        } else if exponent >= 0 {
            for index in 0...exponent { text.append(zero + digits[index]) }
            if significant > exponent + 1 {
                text.append(UInt8(ascii: "."))
                for index in (exponent + 1)..<significant { text.append(zero + digits[index]) }
            }
        } else {
            text.append(zero)
            text.append(UInt8(ascii: "."))
            text.append(contentsOf: repeatElement(zero, count: -exponent - 1))
            for index in 0..<significant { text.append(zero + digits[index]) }
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// A minimal arbitrary-precision unsigned integer for exact decimal expansion of doubles.
struct BigUnsigned {
    /// 32-bit limbs, least significant first.
    private(set) var limbs: [UInt32]

    init(_ value: UInt64) {
        limbs = [UInt32(truncatingIfNeeded: value), UInt32(truncatingIfNeeded: value >> 32)]
        trim()
    }

    /// Multiplies by a value below 2^32.
    mutating func multiply(by factor: UInt32) {
        var carry: UInt64 = 0
        for index in limbs.indices {
            let product = UInt64(limbs[index]) * UInt64(factor) + carry
            limbs[index] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 { limbs.append(UInt32(truncatingIfNeeded: carry)) }
    }

    /// Multiplies by 2^power.
    mutating func multiply(byPowerOfTwo power: Int) {
        let wholeLimbs = power / 32
        let bits = power % 32
        if bits != 0 { multiply(by: UInt32(1) << UInt32(bits)) }
        if wholeLimbs != 0 { limbs.insert(contentsOf: repeatElement(0, count: wholeLimbs), at: 0) }
    }

    /// Multiplies by 5^power.
    mutating func multiply(byPowerOfFive power: Int) {
        var remaining = power
        while remaining >= 13 {
            multiply(by: 1_220_703_125)  // 5^13, the largest power of five below 2^32
            remaining -= 13
        }
        var factor: UInt32 = 1
        for _ in 0..<remaining { factor *= 5 }
        if factor != 1 { multiply(by: factor) }
    }

    /// The decimal digits, most significant first (values 0...9).
    func decimalDigits() -> [UInt8] {
        var number = limbs
        var chunks: [UInt32] = []  // base 10^9, least significant first
        while !(number.count == 1 && number[0] == 0) && !number.isEmpty {
            var remainder: UInt64 = 0
            for index in stride(from: number.count - 1, through: 0, by: -1) {
                let current = remainder << 32 | UInt64(number[index])
                number[index] = UInt32(truncatingIfNeeded: current / 1_000_000_000)
                remainder = current % 1_000_000_000
            }
            chunks.append(UInt32(truncatingIfNeeded: remainder))
            while number.count > 1, number[number.count - 1] == 0 { number.removeLast() }
        }
        guard let leading = chunks.last else { return [0] }
        var digits: [UInt8] = Array(String(leading).utf8).map { $0 - UInt8(ascii: "0") }
        for chunk in chunks.dropLast().reversed() {
            var value = chunk
            var group = [UInt8](repeating: 0, count: 9)
            for index in stride(from: 8, through: 0, by: -1) {
                group[index] = UInt8(truncatingIfNeeded: value % 10)
                value /= 10
            }
            digits.append(contentsOf: group)
        }
        return digits
    }

    private mutating func trim() {
        while limbs.count > 1, limbs[limbs.count - 1] == 0 { limbs.removeLast() }
    }
}

// MARK: - Dates

/// Converts between reference-date seconds and the `<date>` text of XML property lists.
///
/// The text is `YYYY-MM-DDTHH:MM:SSZ` in UTC, proleptic Gregorian calendar, astronomical year
/// numbering (year 0 is 1 BC; negative years print as `-001`, like C's `%04d`). Apple's writer
/// drops fractional seconds, rounding toward the past (`floor`), and so does this one.
///
/// ```swift
/// PropertyListDateText.format(secondsSinceReferenceDate: 0)        // "2001-01-01T00:00:00Z"
/// PropertyListDateText.parse("2001-01-01T00:01:00Z")               // 60.0
/// ```
enum PropertyListDateText {
    /// Days from 1970-01-01 to 2001-01-01.
    static let referenceDayFrom1970: Int64 = 11_323
    /// The largest magnitude written: about 285 million years, far inside `Int64` arithmetic.
    static let maximumSeconds: Double = 9_007_199_254_740_992  // 2^53

    /// The `<date>` text for `seconds` since 2001-01-01T00:00:00Z, or `nil` when the value is not
    /// finite or beyond ±2^53 seconds.
    static func format(secondsSinceReferenceDate seconds: Double) -> String? {
        guard seconds.isFinite, seconds.magnitude <= maximumSeconds else { return nil }
        let whole = Int64(seconds.rounded(.down))
        let (days, secondOfDay) = floorDivide(whole, 86_400)
        let (year, month, day) = civil(fromDaysSince1970: days + referenceDayFrom1970)
        var text = ""
        text.reserveCapacity(20)
        if year < 0 {
            text += "-" + padded(-year, width: 3)
        } else {
            text += padded(year, width: 4)
        }
        text += "-" + padded(month, width: 2) + "-" + padded(day, width: 2)
        text += "T" + padded(secondOfDay / 3600, width: 2)
        text += ":" + padded(secondOfDay / 60 % 60, width: 2)
        text += ":" + padded(secondOfDay % 60, width: 2) + "Z"
        return text
    }

    /// Parses `[-]Y…Y-MM-DDTHH:MM:SSZ` into seconds since 2001-01-01T00:00:00Z, or `nil`.
    ///
    /// Fields are range-checked (month 1–12, day 1–31, hour 0–23, minute 0–59, second 0–60); a
    /// day past the end of its month rolls into the next month, as Apple's reader does.
    static func parse<Bytes: Collection<UInt8>>(_ text: Bytes) -> Double? where Bytes.Index == Int {
        var index = text.startIndex
        let end = text.endIndex
        var negative = false
        if index < end, text[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var year: Int64 = 0
        var yearDigits = 0
        while index < end, let digit = digitValue(text[index]) {
            year = year * 10 + Int64(digit)
            yearDigits += 1
            index += 1
            guard yearDigits <= 9 else { return nil }
        }
        guard yearDigits > 0 else { return nil }
        func field(after separator: UInt8) -> Int64? {
            guard index + 3 <= end, text[index] == separator,
                  let tens = digitValue(text[index + 1]), let ones = digitValue(text[index + 2])
            else { return nil }
            index += 3
            return Int64(tens * 10 + ones)
        }
        guard let month = field(after: UInt8(ascii: "-")), (1...12).contains(month),
              let day = field(after: UInt8(ascii: "-")), (1...31).contains(day),
              let hour = field(after: UInt8(ascii: "T")), hour <= 23,
              let minute = field(after: UInt8(ascii: ":")), minute <= 59,
              let second = field(after: UInt8(ascii: ":")), second <= 60,
              index + 1 == end, text[index] == UInt8(ascii: "Z")
        else { return nil }
        let days = daysSince1970(year: negative ? -year : year, month: month, day: 1) + day - 1
        let total = (days - referenceDayFrom1970) * 86_400 + hour * 3600 + minute * 60 + second
        return Double(total)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        // Count years from March so that February's length only affects the year's last day.
        let shiftedYear = month <= 2 ? year - 1 : year
        let (era, yearOfEra) = floorDivide(shiftedYear, 400)
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01.
    static func civil(fromDaysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let (era, dayOfEra) = floorDivide(days + 719_468, 146_097)
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Quotient rounded toward negative infinity, and the matching non-negative remainder.
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func padded(_ value: Int64, width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
