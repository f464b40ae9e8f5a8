/// Decimal to `Double` by the Eisel-Lemire algorithm (D. Lemire, "Number Parsing at a Gigabyte
/// per Second", Software: Practice and Experience 51(8), 2021).
///
/// A decimal `w × 10^q` (w a 64-bit integer) is `w × 5^q × 2^q`; with a 128-bit approximation of
/// 5^q one 64×128-bit product gives the 54 leading bits of the binary significand and tells
/// whether the bits the approximation lost could have changed the rounding. That settles
/// mantissas of up to 19 digits with any exponent, which Clinger's fast path cannot (it needs a
/// mantissa of at most 2^53 and |q| ≤ 22): the 15-17 digit coordinates of GeoJSON, and every
/// exponent past ±22. When the product cannot decide, the answer is nil and the caller takes
/// the correctly rounded `Double(_:)` path, so this never gives a wrong double, only a fast one.
enum EiselLemire {
    /// The smallest and largest q with a table entry: below, `w × 10^q` < 10^19 × 10^-343, under
    /// half the smallest subnormal, so it rounds to zero; above, ≥ 10^309 overflows.
    static let smallestPower = -342
    static let largestPower = 308

    /// `w × 10^q` correctly rounded, for an exact nonzero decimal mantissa `w`; nil when the
    /// approximation of 5^q cannot settle the rounding.
    static func magnitude(mantissa w: UInt64, power q: Int) -> Double? {
        if q < smallestPower || w == 0 { return 0 }
        if q > largestPower { return .infinity }
        // Read once: every access to a lazily initialised global checks its initialisation.
        let index = (q &- smallestPower) &* 2
        let table = powersOfFive128
        let shift = w.leadingZeroBitCount
        // Shifting w up to a full 64 bits keeps every bit the product can give.
        let normalized = w &<< UInt64(shift)
        var (high, low) = normalized.multipliedFullWidth(by: table[index])
        // The low word of 5^q adds less than 1 at the weight of `high`'s last bit, which can
        // reach the bits we keep only through nine ones below them; only then is it needed.
        let sticky: UInt64 = 0x1FF
        if high & sticky == sticky {
            let correction = normalized.multipliedFullWidth(by: table[index &+ 1]).high
            let (sum, carried) = low.addingReportingOverflow(correction)
            low = sum
            if carried { high &+= 1 }
            // Still all ones: the truncated tail of 5^q could carry into the kept bits. For
            // -27 ≤ q ≤ 55 the table entry is exact enough that this cannot happen (the paper).
            if high & sticky == sticky && low == .max && (q < -27 || q > 55) { return nil }
        }
        let upperBit = Int(high &>> 63)
        let dropped = upperBit &+ 9
        // 54 bits: the 53 of the double and one rounding bit.
        var significand = high &>> UInt64(dropped)
        // (217706 × q) >> 16 is floor(q × log2 10) for every q in the table (checked against the
        // real logarithm): the binary exponent of 10^q, which with the normalisation shifts gives
        // the biased exponent of a double whose significand is the 54 bits above.
        var exponent = ((217_706 &* q) &>> 16) &+ 63 &+ upperBit &- shift &+ 1023
        if exponent <= 0 {
            return subnormal(significand, exponent: exponent)
        }
        // A product with nothing below the rounding bit is an exact tie only where 10^q keeps
        // w × 10^q a short binary fraction (-4 ≤ q ≤ 23); elsewhere it is merely very close and
        // rounding half up is right.
        if low <= 1 && q >= -4 && q <= 23 && significand & 3 == 1
            && significand &<< UInt64(dropped) == high {
            significand &= ~1  // a tie with an even lower bit: round down
        }
        significand = (significand &+ (significand & 1)) &>> 1
        if significand >= 1 &<< 53 {
            // Rounding carried out of 53 bits: 2^53 is 2^52 one binade up.
            significand = 1 &<< 52
            exponent &+= 1
        }
        if exponent >= 0x7FF { return .infinity }
        return Double(bitPattern: UInt64(exponent) &<< 52 | (significand & ~(1 &<< 52)))
    }

    /// The subnormal (or zero, or smallest normal) that the 54-bit `significand` at the biased
    /// `exponent` ≤ 0 rounds to.
    private static func subnormal(_ significand: UInt64, exponent: Int) -> Double {
        let drop = 1 &- exponent
        if drop >= 64 { return 0 }
        var bits = significand &>> UInt64(drop)
        // No tie is possible this far below 1 (q ≤ -308, a tie needs q ≥ -27), so half up is
        // round to nearest.
        bits = (bits &+ (bits & 1)) &>> 1
        // Below 2^52 the bits are a subnormal's pattern; exactly 2^52 is the smallest normal's.
        return Double(bitPattern: bits)
    }

    /// The value of a decimal whose first 19 significant digits are `w` and whose dropped
    /// digits are not all zero: it lies strictly between `w × 10^q` and `(w + 1) × 10^q`, so
    /// when both round to the same double that double is the answer; nil otherwise.
    static func magnitude(truncatedMantissa w: UInt64, power q: Int) -> Double? {
        // 19 digits are below 10^19 < UInt64.max: w + 1 cannot overflow.
        guard let below = magnitude(mantissa: w, power: q),
              let above = magnitude(mantissa: w &+ 1, power: q),
              below.bitPattern == above.bitPattern
        else { return nil }
        return below
    }
}

/// 5^q for q in `EiselLemire.smallestPower...largestPower`, each as 128 bits (high word, then
/// low word) scaled by a power of two so that the top bit is set: truncated for q ≥ 0 and for
/// q < -27, and rounded up for -27 ≤ q < 0, as the algorithm's error bounds assume.
///
/// Computed once, at first use, with a little big-integer arithmetic rather than written out as
/// 1,302 literals: the source stays short, nothing has to be type-checked or regenerated, and
/// the cost is a few microseconds once per process. A global `let` of a Sendable array is
/// initialised exactly once and thread-safely by the runtime.
let powersOfFive128: [UInt64] = makePowersOfFive128()

private func makePowersOfFive128() -> [UInt64] {
    let count = EiselLemire.largestPower - EiselLemire.smallestPower + 1
    var table = [UInt64](repeating: 0, count: 2 * count)
    func store(_ q: Int, _ value: (high: UInt64, low: UInt64)) {
        let index = 2 * (q - EiselLemire.smallestPower)
        table[index] = value.high
        table[index + 1] = value.low
    }

    var power = Natural(1)
    for q in 0...EiselLemire.largestPower {
        store(q, power.leading128Bits())
        power.multiply(by: 5)
    }

    // floor(floor(x / a) / b) = floor(x / (a × b)): dividing 2^B by 5 n times gives
    // floor(2^B / 5^n) exactly, and dropping its low bits gives floor(2^b / 5^n) for any b ≤ B.
    // B must reach 2z + 128, with z the bit width of 5^342 (795).
    let scale = 64 * 28
    var reciprocal = Natural(power: scale)
    for n in 1...(-EiselLemire.smallestPower) {
        reciprocal.divide(by: 5)
        let width = reciprocal.bitWidth
        // Its top 128 bits are floor(2^b / 5^n) with a top bit set. For n ≤ 27 one more is the
        // ceiling (5^n never divides a power of two); beyond, the quotient is taken 2z + 128
        // bits wide (z = bit width of 5^n = scale + 1 - width) before adding one and cutting
        // to 128 bits, which truncates but for a carry out of an all-ones tail.
        let cut = n <= 27 ? width - 128 : 2 * width - scale - 130
        var quotient = reciprocal.shiftedRight(by: cut)
        quotient.addOne()
        store(-n, quotient.leading128Bits())
    }
    return table
}
