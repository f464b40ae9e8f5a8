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
