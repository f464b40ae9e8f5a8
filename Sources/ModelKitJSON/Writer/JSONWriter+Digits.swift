/// Writing integers with ``JSONWriter``: digits made eight at a time in one word, with no loop
/// counting them first and no table.
extension JSONWriter {
    /// Stores the decimal digits of `value` at `target`; returns how many it stored (at most 20).
    // @inlinable: called by the inlinable writeInt64(_:) and writeUInt64(_:), so compiled into
    // their callers; the one-digit case stays inline, longer numbers go out of line.
    // Unsafe: stores into memory the caller reserved: 20 bytes.
    @inlinable @inline(__always)
    static func storeDigits(_ value: UInt64, at target: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10 {
            // Unsafe: one digit into the room reserved.
            target.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            return 1
        }
        return storeIntegerDigits(value, at: target)
    }

    /// The digits of `value` (1 or more: zero would have no digit) at `target`, eight at a time:
    /// each group of eight is made in one word by `digitLanes(_:)`, and the leading group's
    /// zeros, which are the word's low zero bytes, are shifted out, so no loop counts the digits
    /// first. Returns how many it stored.
    // @usableFromInline: called by the inlinable storeDigits(_:at:) for every integer of two
    // digits or more, and by the double writer for whole numbers; out of line, one copy for every
    // caller.
    // Unsafe: stores whole words into the 20 bytes the caller reserved: the last word ends at the
    // last digit, which is within 20 bytes for every UInt64, and at most 20 for a sign and the 19
    // digits of an Int64's magnitude (which has at most three digits above its last sixteen).
    @usableFromInline
    static func storeIntegerDigits(_ value: UInt64, at target: UnsafeMutablePointer<UInt8>) -> Int {
        let raw = UnsafeMutableRawPointer(target)
        let ascii: UInt64 = 0x3030_3030_3030_3030
        if value < 100_000_000 {
            let lanes = digitLanes(UInt32(truncatingIfNeeded: value))
            // Nonzero, as the value is: its low zero bytes are the leading zeros.
            let zeros = lanes.trailingZeroBitCount >> 3
            // Unsafe: one word at the start of the room reserved.
            raw.storeBytes(of: ((lanes | ascii) >> (zeros &* 8)).littleEndian, as: UInt64.self)
            return 8 &- zeros
        }
        var rest = value
        var length = 0
        if value >= 10_000_000_000_000_000 {
            // 17 to 20 digits: the first one to four, then sixteen.
            let lanes = digitLanes(UInt32(truncatingIfNeeded: value / 10_000_000_000_000_000))
            let zeros = lanes.trailingZeroBitCount >> 3
            // Unsafe: one word at the start; the sixteen digits below write over its tail.
            raw.storeBytes(of: ((lanes | ascii) >> (zeros &* 8)).littleEndian, as: UInt64.self)
            length = 8 &- zeros
            rest = value % 10_000_000_000_000_000
            // Unsafe: the two words of the last sixteen digits, ending at the last digit.
            raw.storeBytes(
                of: (digitLanes(UInt32(truncatingIfNeeded: rest / 100_000_000)) | ascii).littleEndian, toByteOffset: length,
                as: UInt64.self)
            raw.storeBytes(
                of: (digitLanes(UInt32(truncatingIfNeeded: rest % 100_000_000)) | ascii).littleEndian,
                toByteOffset: length &+ 8, as: UInt64.self)
            return length &+ 16
        }
        // 9 to 16 digits: the first one to eight, then eight.
        let lanes = digitLanes(UInt32(truncatingIfNeeded: value / 100_000_000))
        let zeros = lanes.trailingZeroBitCount >> 3
        // Unsafe: one word at the start; the last eight digits write over its tail.
        raw.storeBytes(of: ((lanes | ascii) >> (zeros &* 8)).littleEndian, as: UInt64.self)
        length = 8 &- zeros
        // Unsafe: the last eight digits, ending at the last digit (16 bytes in at most).
        raw.storeBytes(
            of: (digitLanes(UInt32(truncatingIfNeeded: value % 100_000_000)) | ascii).littleEndian, toByteOffset: length,
            as: UInt64.self)
        return length &+ 8
    }

    /// The eight digits of `value` (below 10^8, with leading zeros) as byte values 0-9 in a word,
    /// the first digit in the lowest byte; OR 0x30 into each byte for ASCII.
    ///
    /// Divided in lanes, with no loop and no table: the two halves of four digits go into the two
    /// 32-bit halves of a word, each is split by 100 into 16-bit lanes and those by 10 into bytes,
    /// with multiplications by fixed-point reciprocals that are exact for these ranges (x * 10_486
    /// >> 20 is x / 100 below 10^4; x * 103 >> 10 is x / 10 below 100) and small enough not to
    /// spill into the next lane.
    // Always inlined: the double writer makes two or three of these for each double, and the
    // optimizer left them calls there.
    @inline(__always)
    static func digitLanes(_ value: UInt32) -> UInt64 {
        let quads = UInt64(value / 10_000) | UInt64(value % 10_000) << 32
        let hundreds = (quads &* 10_486) >> 20 & 0x0000_007F_0000_007F
        let pairs = hundreds | (quads &- hundreds &* 100) << 16
        let tens = (pairs &* 103) >> 10 & 0x000F_000F_000F_000F
        return tens | (pairs &- tens &* 10) << 8
    }
}

/// The digits of a double with their point, and its exponent, stored by ``JSONWriter`` a word at a
/// time (`digitLanes(_:)` makes eight digits in a word): the point goes into the word of the
/// digits around it, in registers, so no byte loop moves the digits before it, and no branch
/// depends on how many digits there are (16 or 17 for most doubles, either as often as the other,
/// so a branch on it would be mispredicted about half the time). Short decimals (prices) are
/// found and stored here too, from their integer and fraction words.
extension JSONWriter {
    /// Stores `magnitude` as `description` writes it when it is a decimal of one to eight places
    /// from 0.0001 up to 2^52 / 10^8 (prices, ratios, measures), and returns its length; returns 0,
    /// having stored nothing of use, for other doubles (and, now and then, for one of those).
    ///
    /// Such a double is the one nearest to `n / 10^8` for an integer `n`, and it is found with one
    /// multiplication, checked with one division (both exact but for their rounding, which a
    /// division by a power of ten rounds as a reader of `n / 10^8` does). Below 2^52 / 10^8 the
    /// double's neighbours are less than 10^-8 apart, so no other such `n` reads back as it, and
    /// the fewest places that do are those of `n / 10^8` without its trailing zeros: the
    /// shortest digits, which `description` writes. Whole numbers do not get here.
    // Unsafe: stores whole words into room the caller reserved: 17 bytes at `target`.
    // Always inlined: into its one caller, storeDouble(_:at:), with no call's register saves.
    @inline(__always)
    static func storeShortDecimal(_ magnitude: Double, at target: UnsafeMutablePointer<UInt8>) -> Int {
        guard magnitude >= 0.000_1, magnitude < 45_035_996.273_704_96 else { return 0 }
        // Rounded by conversion (no libm call); a sum that rounds the wrong way misses here, and
        // ShortestDecimal takes the double.
        let scaled = Int64(magnitude * 100_000_000 + 0.5)
        guard Double(scaled) / 100_000_000 == magnitude else { return 0 }
        let units = UInt64(scaled)
        let integer = digitLanes(UInt32(truncatingIfNeeded: units / 100_000_000))
        // Not zero, as the double is not a whole number: its high zero bytes are trailing zeros.
        let fraction = digitLanes(UInt32(truncatingIfNeeded: units % 100_000_000))
        let places = 8 &- fraction.leadingZeroBitCount &>> 3
        // The integer's low zero bytes are its leading zeros; one digit at least (`0.25`).
        let integerLength = max(8 &- integer.trailingZeroBitCount &>> 3, 1)
        let ascii: UInt64 = 0x3030_3030_3030_3030
        let raw = UnsafeMutableRawPointer(target)
        // Unsafe: a word, a byte and a word, ending within 17 bytes of `target`.
        raw.storeBytes(of: ((integer | ascii) &>> ((8 &- integerLength) &* 8)).littleEndian, as: UInt64.self)
        raw.storeBytes(of: UInt8(ascii: "."), toByteOffset: integerLength, as: UInt8.self)
        raw.storeBytes(of: (fraction | ascii).littleEndian, toByteOffset: integerLength &+ 1, as: UInt64.self)
        return integerLength &+ 1 &+ places
    }

    /// Stores the `length` digits of `value` (2 to 17; `value` below 10^`length`) at `target`
    /// with a point after the first `point` of them (1 to `length` - 1); returns `length` + 1.
    ///
    /// Whole words are stored, up to 18 bytes from `target`: bytes past the point's digits are of
    /// no use, for the caller to write over or leave past its count.
    // Unsafe: stores into room the caller reserved: 18 bytes at `target`.
    // Always inlined: into the writer's two callers, as a call's register saves were a tenth of
    // its instructions.
    @inline(__always)
    static func storeDigits(
        _ value: UInt64, length: Int, point: Int, at target: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let raw = UnsafeMutableRawPointer(target)
        if length < 8 {
            // One word (prices, ratios, short exponents' digits).
            let word = eightDigits(UInt32(truncatingIfNeeded: value)) &>> ((8 &- length) &* 8)
            // Unsafe: one word at `target`.
            raw.storeBytes(of: withPoint(word, after: point).littleEndian, as: UInt64.self)
            return length &+ 1
        }
        // Up to 17 digits: a first one when there are 17 (`isLong` is 1 then), then sixteen in two
        // words, the high one without its leading zeros when there are fewer.
        let head = value / 10_000_000_000_000_000
        let rest = value &- head &* 10_000_000_000_000_000
        let high = eightDigits(UInt32(truncatingIfNeeded: rest / 100_000_000))
        let low = eightDigits(UInt32(truncatingIfNeeded: rest % 100_000_000))
        let isLong = (length &+ 15) &>> 5
        // Eight digits for 16 and 17, none for 8 (a shift by 64 is 0).
        let highDigits = shiftedRight(high, by: (16 &- length &+ isLong) &* 8)
        let headDigit = UInt64(UInt8(ascii: "0")) | head
        // The digits one byte on, leaving a byte for the point; the words are stored in order, so
        // for 16 digits and fewer the high word writes over the first digit's byte.
        // Unsafe: a byte and two words, the last ending at `length + 1` bytes (18 at most).
        raw.storeBytes(of: UInt8(truncatingIfNeeded: headDigit), toByteOffset: 1, as: UInt8.self)
        raw.storeBytes(of: highDigits.littleEndian, toByteOffset: 1 &+ isLong, as: UInt64.self)
        raw.storeBytes(of: low.littleEndian, toByteOffset: length &- 7, as: UInt64.self)
        // The first eight digits, stored again over the first eight bytes with the point among
        // them; from the ninth byte on, the digits stored above are in place. Masks, not a
        // selection, which the compiler makes a branch.
        let longMask = 0 &- UInt64(truncatingIfNeeded: isLong)
        let first = (headDigit | high &<< 8) & longMask | (highDigits | shiftedLeft(low, by: (length &- 8) &* 8)) & ~longMask
        if point < 8 {
            // Unsafe: one word at `target`, over the words above.
            raw.storeBytes(of: withPoint(first, after: point).littleEndian, as: UInt64.self)
            return length &+ 1
        }
        // Eight digits or more before the point (10^7 and above): the second eight with it.
        let second = isLong != 0 ? high &>> 56 | low &<< 8 : low &>> ((16 &- length) &* 8)
        // Unsafe: two words at `target`, over the words above.
        raw.storeBytes(of: first.littleEndian, as: UInt64.self)
        if point < 16 {
            raw.storeBytes(of: withPoint(second, after: point &- 8).littleEndian, toByteOffset: 8, as: UInt64.self)
        } else {
            // Sixteen digits, the point, the seventeenth (2^52 to 2^53, halves).
            raw.storeBytes(of: second.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: UInt8(ascii: "."), toByteOffset: 16, as: UInt8.self)
        }
        return length &+ 1
    }

    /// The digits in `word` (the first in the lowest byte) with a point after the first `point`
    /// of them (0 to 7): the bytes below kept, the point, the bytes above moved up one (the last
    /// one out).
    // Always inlined: a few instructions, where a call would cost more than they do.
    @inline(__always)
    private static func withPoint(_ word: UInt64, after point: Int) -> UInt64 {
        let split = UInt64(truncatingIfNeeded: point) &* 8
        let below = (1 &<< split) &- 1
        return word & below | UInt64(UInt8(ascii: ".")) &<< split | (word &<< 8) & ~(below &<< 8 | 0xFF)
    }

    /// `word >> bits` for `bits` from 0 to 64 and more, with no branch: Swift's `>>` branches on a
    /// shift of 64 or more, which gives 0, and `&>>` shifts by `bits % 64`.
    // Always inlined: a shift and a mask, in place of the shift.
    @inline(__always)
    private static func shiftedRight(_ word: UInt64, by bits: Int) -> UInt64 {
        // All ones below 64 (the sign of `bits - 64`), zero from 64 on.
        let inRange = UInt64(truncatingIfNeeded: (bits &- 64) &>> 63)
        return (word &>> UInt64(truncatingIfNeeded: bits)) & inRange
    }

    /// `word << bits` for `bits` from 0 to 64 and more, with no branch (see shiftedRight(_:by:)).
    // Always inlined: a shift and a mask, in place of the shift.
    @inline(__always)
    private static func shiftedLeft(_ word: UInt64, by bits: Int) -> UInt64 {
        let inRange = UInt64(truncatingIfNeeded: (bits &- 64) &>> 63)
        return (word &<< UInt64(truncatingIfNeeded: bits)) & inRange
    }

    /// Stores `e`, the sign and the two or three digits of `exponent` (-324 to 308) at `target`;
    /// returns how many bytes that is (4 or 5).
    // Unsafe: stores one word into room the caller reserved: 8 bytes at `target`.
    static func storeExponent(_ exponent: Int, at target: UnsafeMutablePointer<UInt8>) -> Int {
        let magnitude = UInt64(truncatingIfNeeded: exponent.magnitude)
        let hundreds = magnitude / 100
        let tens = magnitude % 100 / 10
        let ones = magnitude % 10
        let ascii: UInt64 = 0x30_3030
        // The digits' bytes, the first lowest: two, or three from 100 on.
        let isThree = hundreds != 0
        let digits = isThree ? (hundreds | tens << 8 | ones << 16) : (tens | ones << 8)
        let sign = UInt64(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        let word = UInt64(UInt8(ascii: "e")) | sign << 8 | (digits | ascii) << 16
        // Unsafe: one word at `target`; the caller counts 4 or 5 of its bytes.
        UnsafeMutableRawPointer(target).storeBytes(of: word.littleEndian, as: UInt64.self)
        return isThree ? 5 : 4
    }

    /// The eight digits of `value` (below 10^8, with leading zeros) as ASCII bytes in a word, the
    /// first digit in the lowest byte.
    // Always inlined: a few multiplications and a mask, less than a call.
    @inline(__always)
    static func eightDigits(_ value: UInt32) -> UInt64 {
        digitLanes(value) | 0x3030_3030_3030_3030
    }
}
