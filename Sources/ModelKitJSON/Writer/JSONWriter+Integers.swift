/// Writing integers with ``JSONWriter``: digits made eight at a time in one word, with no loop
/// counting them first and no table; leading zeros, for a fraction's places, two at a time.
extension JSONWriter {
    /// Stores the decimal digits of `value` at `target`, with leading zeros up to `minimumCount`
    /// digits (`5` with 3 is `005`: a fraction's places); returns how many it stored (at most 20,
    /// or `minimumCount`).
    // @inlinable: called by the inlinable writeInt64(_:) and writeUInt64(_:), so compiled into
    // their callers; the one-digit case stays inline, longer numbers go out of line.
    // Unsafe: stores into memory the caller reserved: 20 bytes, or `minimumCount` when more.
    @inlinable @inline(__always)
    static func storeDigits(_ value: UInt64, minimumCount: Int = 1, at target: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 10 && minimumCount <= 1 {
            // Unsafe: one digit into the room reserved.
            target.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
            return 1
        }
        if minimumCount <= 1 { return storeIntegerDigits(value, at: target) }
        return storeDigitPairs(value, minimumCount: minimumCount, at: target)
    }

    /// The digits of `value` (10 or more) at `target`, eight at a time: each group of eight is
    /// made in one word by `digitLanes(_:)`, and the leading group's zeros, which are the word's
    /// low zero bytes, are shifted out, so no loop counts the digits first. Returns how many it
    /// stored.
    // @usableFromInline: called by the inlinable storeDigits(_:minimumCount:at:) for every integer
    // of two digits or more; out of line, one copy for every caller.
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
    static func digitLanes(_ value: UInt32) -> UInt64 {
        let quads = UInt64(value / 10_000) | UInt64(value % 10_000) << 32
        let hundreds = (quads &* 10_486) >> 20 & 0x0000_007F_0000_007F
        let pairs = hundreds | (quads &- hundreds &* 100) << 16
        let tens = (pairs &* 103) >> 10 & 0x000F_000F_000F_000F
        return tens | (pairs &- tens &* 10) << 8
    }

    /// ``storeDigits(_:minimumCount:at:)`` with leading zeros: a fraction's places.
    // @usableFromInline: called by the inlinable storeDigits(_:minimumCount:at:) when it is asked
    // for leading zeros (appendShortDecimal(_:)'s places); a loop, so out of line.
    // Unsafe: stores `length` digits at `target`, within what the caller reserved (20 bytes, or
    // `minimumCount`).
    @usableFromInline
    static func storeDigitPairs(_ value: UInt64, minimumCount: Int, at target: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 1
        var threshold: UInt64 = 10
        while length < 20 && value >= threshold {
            length &+= 1
            threshold = threshold &* 10
        }
        length = max(length, minimumCount)
        // Unsafe: the static string is UTF-8 in the binary, alive for the whole run; `pair + 1`
        // stays inside its 200 bytes, as `pair` is twice a number below 100.
        let pairs = decimalPairs.utf8Start
        var index = length
        var rest = value
        while index >= 2 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            index &-= 2
            // Unsafe: `index` counts down from `length`, so every digit lands in the room reserved.
            target[index] = pairs[pair]
            target[index &+ 1] = pairs[pair &+ 1]
        }
        if index == 1 { target.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest) }
        return length
    }

    /// "00", "01", ... "99": the two digits of every number below 100.
    // @usableFromInline: no inlinable body reads this (only storeDigitPairs, out of line, does): a
    // candidate for removal.
    @usableFromInline
    static var decimalPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }
}
