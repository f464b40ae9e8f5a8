/// Writing doubles with ``JSONWriter``: the shortest digits that read back as the double
/// (`ShortestDecimal`), laid out as Swift's `description` lays them out, straight into the
/// output buffer, with no `String` per number. Short decimals (up to eight places, from 0.0001 to
/// 2^52 / 10^8) are found first with one multiplication and one division, which is faster for
/// them (storeShortDecimal(_:at:), in JSONWriter+Digits.swift with the digit stores).
///
/// `description`'s layout, which the writer promises (the tests compare the two on millions of
/// doubles): plain decimals from 0.0001 up to 2^53 (`0.0001`, `19.99`, `100.0`,
/// `9007199254740992.0`), with `.0` on whole numbers; outside that, one digit, the others after a
/// point when there are others, and an exponent of at least two digits with its sign (`1e-05`,
/// `9.007199254740994e+15`, `1e+16`, `5e-324`, `1.7976931348623157e+308`). Zero is `0.0` or
/// `-0.0`.
extension JSONWriter {
    /// Appends a finite double in Swift's shortest round-tripping form.
    // @usableFromInline: called by the inlinable writeDouble(_:); long, so out of line.
    @usableFromInline
    mutating func appendDouble(_ value: Double) {
        // Unsafe: room for the longest double written (24 bytes, `-2.2250738585072014e-308`) and
        // the whole words storeDouble(_:at:) stores, which end within 27 bytes (a sign, 17 digits
        // and a point in words ending at 18 bytes, the exponent's word).
        let target = reserve(32)
        count &+= JSONWriter.storeDouble(value, at: target)
    }

    /// Stores a finite double at `target` as `description` writes it; returns its length (at most
    /// 24).
    // Unsafe: stores into the 32 bytes the caller reserved at `target` (27 at most).
    static func storeDouble(_ value: Double, at target: UnsafeMutablePointer<UInt8>) -> Int {
        // A minus stored for every double and kept for the negative ones, with no branch: signs
        // in data follow no pattern a predictor learns (a branch here, and the one the digit
        // count had, were mispredicted 0.3 times a double on GeoJSON coordinates).
        // Unsafe: the first byte of the room reserved.
        target.pointee = UInt8(ascii: "-")
        let start = target + Int(truncatingIfNeeded: value.bitPattern &>> 63)
        let magnitude = value.magnitude
        if magnitude == 0 {
            // Unsafe: "0.0" and a padding byte as one word, inside the room reserved.
            UnsafeMutableRawPointer(start).storeBytes(of: UInt32(0x30_2E30).littleEndian, as: UInt32.self)
            return start - target &+ 3
        }
        // Whole numbers up to 2^53 are their own shortest digits (any other decimal in their
        // interval has a fraction, so more digits): no search. Conversions, not libm's floor.
        if magnitude >= 1, magnitude <= 9_007_199_254_740_992 {
            // Signed: one instruction each way, where unsigned conversions take several.
            let whole = Int64(magnitude)
            if Double(whole) == magnitude {
                let length = storeIntegerDigits(UInt64(whole), at: start)
                // Unsafe: ".0" after the digits (at most 16), inside the room reserved.
                UnsafeMutableRawPointer(start + length).storeBytes(of: UInt16(0x302E).littleEndian, as: UInt16.self)
                return start - target &+ length &+ 2
            }
        }
        // Decimals of up to eight places (prices, measures) without the search below.
        // Unsafe: at most 8 digits, a point and a word of 8 places, 17 bytes, inside the room
        // reserved.
        let short = storeShortDecimal(magnitude, at: start)
        if short != 0 { return start - target &+ short }
        let decimal = ShortestDecimal(magnitude: magnitude)
        let digits = decimal.significand
        let length = decimal.length
        // The power of ten of the first digit.
        let leading = decimal.exponent &+ length &- 1
        if magnitude > 9_007_199_254_740_992 || leading < -4 {
            return start - target &+ storeScientific(digits, length: length, exponent: leading, at: start)
        }
        if leading < 0 {
            // "0." and up to three zeros before the digits; the word's other zeros are written over.
            // Unsafe: eight bytes, then the digits from the sixth byte at most, inside the room
            // reserved (`-0.000` and 17 digits are 23 bytes).
            UnsafeMutableRawPointer(start).storeBytes(of: UInt64(0x3030_3030_3030_2E30).littleEndian, as: UInt64.self)
            storeDigits(digits, length: length, at: start + (1 &- leading))
            return start - target &+ 1 &- leading &+ length
        }
        if decimal.exponent >= 0 {
            // A whole number: those up to 2^53 are written above, so no double gets here; kept so
            // that the layout below never has to handle one.
            // Unsafe: digits, zeros and ".0", at most 18 bytes below 2^53, inside the room reserved.
            storeDigits(digits, length: length, at: start)
            var end = start + length
            for _ in 0..<decimal.exponent {
                end.pointee = UInt8(ascii: "0")
                end += 1
            }
            UnsafeMutableRawPointer(end).storeBytes(of: UInt16(0x302E).littleEndian, as: UInt16.self)
            return end - target &+ 2
        }
        // A point among the digits: those short decimals miss (above 2^52 / 10^8, or more than
        // eight places: most doubles of measures, with 15 to 17 digits).
        // Unsafe: at most 17 digits and a point, in whole words ending within 18 bytes, inside
        // the room reserved.
        return start - target &+ storeDigits(digits, length: length, point: leading &+ 1, at: start)
    }

    /// Stores `digits` (`length` of them) as `d.ddde+XX` at `target`; returns how many bytes it
    /// stored (at most 23).
    // Unsafe: stores into room the caller reserved: a digit, a point, 16 digits and `e-324`, in
    // whole words ending within 26 bytes.
    private static func storeScientific(
        _ digits: UInt64, length: Int, exponent: Int, at target: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var end = target + 1
        if length > 1 {
            end = target + storeDigits(digits, length: length, point: 1, at: target)
        } else {
            target.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digits)
        }
        return end - target &+ storeExponent(exponent, at: end)
    }

    /// Stores the `length` digits of `value` (below 10^`length` and 10^17) at `target`, in
    /// eight-byte words: fewer than eight digits are followed by bytes of no use, up to the
    /// eighth, for the caller to write over or leave past its count.
    // Unsafe: stores into room the caller reserved: `length` bytes, and eight at least.
    // Always inlined: the optimizer left it a call for each double that gets here.
    @inline(__always)
    private static func storeDigits(_ value: UInt64, length: Int, at target: UnsafeMutablePointer<UInt8>) {
        var value = value
        var start = target
        var length = length
        if length > 16 {
            start.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10_000_000_000_000_000)
            value %= 10_000_000_000_000_000
            start += 1
            length &-= 1
        }
        // Unsafe: raw stores of whole words, the last one ending `length` bytes from `start`.
        let raw = UnsafeMutableRawPointer(start)
        if length > 8 {
            // The leading word first: the last eight digits' word writes over its tail.
            let leading = eightDigits(UInt32(truncatingIfNeeded: value / 100_000_000)) >> ((16 &- length) &* 8)
            raw.storeBytes(of: leading.littleEndian, as: UInt64.self)
            let last = eightDigits(UInt32(truncatingIfNeeded: value % 100_000_000))
            raw.storeBytes(of: last.littleEndian, toByteOffset: length &- 8, as: UInt64.self)
        } else {
            let digits = eightDigits(UInt32(truncatingIfNeeded: value)) >> ((8 &- length) &* 8)
            raw.storeBytes(of: digits.littleEndian, as: UInt64.self)
        }
    }
}
