/// The shortest decimal that reads back as a given double, and among decimals that short the
/// nearest to it (the even one on a tie): the digits Swift's `description` prints.
///
/// Found with Schubfach (Raffaello Giulietti, "The Schubfach way to render doubles", 2020):
/// the double and the two ends of the interval of reals that round to it are scaled by one
/// power of ten, chosen so that the interval is between 1 and 10 units long. Then the interval
/// holds at most one multiple of ten, which, when there is one, has the fewest digits (its
/// trailing zeros dropped); otherwise one or both of the two integers around the scaled double
/// are in it, and the nearer one is the answer. The scaled values are computed from a 128-bit
/// approximation of the power (`PowersOfTen128`) with two fractional bits and a sticky bit
/// (rounding to odd), which the paper proves is enough to make every comparison exact. A
/// fixed number of multiplications, no loop over digits, no big integers and no `String` per
/// double, unlike the `description` it replaces in the writer.
struct ShortestDecimal {
    /// The digits, as an integer with no trailing zeros.
    var significand: UInt64
    /// The power of ten the significand is multiplied by.
    var exponent: Int
    /// How many digits the significand has.
    var length: Int

    /// The shortest decimal of `magnitude`, which must be finite and greater than zero.
    // Always inlined: into its one caller, the double writer, with no call's register saves
    // (about 5% of the instructions of a double).
    @inline(__always)
    init(magnitude: Double) {
        let bits = magnitude.bitPattern
        let fraction = bits & 0x000F_FFFF_FFFF_FFFF
        let biasedExponent = Int(truncatingIfNeeded: bits >> 52)
        // The double is c * 2^q.
        let c = biasedExponent == 0 ? fraction : fraction | 1 << 52
        let q = biasedExponent == 0 ? -1074 : biasedExponent &- 1075
        // At a power of two (but the smallest normal) the next double down is half as far as the
        // next one up, so the interval is 3/4 as long and its lower end nearer.
        let isCloserBelow = fraction == 0 && biasedExponent > 1
        let k = isCloserBelow ? Self.floorLog10ThreeQuartersPow2(q) : Self.floorLog10Pow2(q)
        let power = PowersOfTen128.shared.power(-k)
        // Scaled by 4 * 2^q * 10^-k, in units of a quarter: the double, its interval's ends.
        // From 1 to 4 for every double (every exponent is among the doubles the tests compare with
        // `description`), so the masking shifts (`&<<`) do not wrap.
        let shift = q &+ Self.floorLog2Pow10(-k) &+ 1
        let scaled = c &<< 2
        let middle = Self.roundToOdd(power, scaled &<< shift)
        let lower = Self.roundToOdd(power, (isCloserBelow ? scaled &- 1 : scaled &- 2) &<< shift)
        let upper = Self.roundToOdd(power, (scaled &+ 2) &<< shift)
        // An even significand reads back from the ends of its interval too (ties to even): the
        // tests below are `lower <= x` and `x <= upper` then, `<` otherwise. Ends and candidates
        // are in quarter units.
        let excluded = c & 1
        let below = middle &>> 2
        let above = below &+ 1
        let tens = below / 10
        // Every case is computed and the answer selected, with no branch: which case a double
        // falls in is as good as random, so a branch on it would be mispredicted about half the
        // time (about 15 cycles each, a third of the whole search).
        // The multiples of ten on either side (zero is no answer; only subnormals get near it).
        let isTenBelowIn = tens != 0 && lower &+ excluded <= tens &* 40
        let isTenAboveIn = (tens &+ 1) &* 40 &+ excluded <= upper
        let isBelowIn = lower &+ excluded <= below &<< 2
        let isAboveIn = above &<< 2 &+ excluded <= upper
        // When both are in, the nearer; `middle` is exact when it is even. On a tie, the even one:
        // `middle <= halfway` for an even `below`, `<` for an odd one.
        let halfway = below &<< 2 &+ 2
        let isBelowNearer = middle < halfway &+ (1 &- below & 1)
        // `below` when `above` is out, or when both are in and `below` is nearer (one of them is
        // in: the interval is longer than a unit and holds the double). Bits, as `&&` and `||`
        // are compiled to branches.
        let takesBelow = (isAboveIn ? 0 : 1) | (isBelowIn ? 1 : 0) & (isBelowNearer ? 1 : 0) as UInt64
        let nearest = above &- takesBelow
        // The interval is shorter than ten units, so at most one multiple of ten is in it; when
        // one is, it has the fewest digits. Neither `below` nor `above` is a multiple of ten
        // then but for subnormals (`above` may be 10), which the trimming takes care of.
        let isShorter = isTenBelowIn != isTenAboveIn
        let shorter = isTenBelowIn ? tens : tens &+ 1
        let significand = isShorter ? shorter : nearest
        let exponent = isShorter ? k &+ 1 : k
        // The digits are counted with one comparison: a normal double's significand is at least
        // 2^52 and `k` is the power that scales it below ten times that (or, at a power of two,
        // below 10 / (3/4) times 2^52), so `below` and `above` lie in [4.5 * 10^15, 9.1 * 10^16),
        // 16 or 17 digits, and a multiple of ten's quotient has one digit fewer. Subnormals have
        // any number, counted in a loop (they are rare).
        let length: Int
        if biasedExponent != 0 {
            let threshold: UInt64 = isShorter ? 1_000_000_000_000_000 : 10_000_000_000_000_000
            length = (isShorter ? 15 : 16) &+ (significand >= threshold ? 1 : 0)
        } else {
            length = Self.digitCount(significand)
        }
        // Most have no trailing zero (all but about one in ten): one test here for them, the
        // trimming out of line for the others.
        if significand % 10 != 0 {
            self.init(significand: significand, exponent: exponent, length: length)
        } else {
            self.init(trimming: significand, exponent: exponent, length: length)
        }
    }

    /// `significand * 10^exponent`, as it is, with its `length` digits.
    private init(significand: UInt64, exponent: Int, length: Int) {
        self.significand = significand
        self.exponent = exponent
        self.length = length
    }

    /// `significand * 10^exponent` with the significand's trailing zeros moved to the exponent
    /// (and taken from its `length` digits).
    private init(trimming significand: UInt64, exponent: Int, length: Int) {
        // At most 17 digits, so at most 16 zeros: eights (twice at most), then 4, 2 and 1.
        var significand = significand
        var trimmed = exponent
        while Self.removeZeros(8, from: &significand, exponent: &trimmed) {}
        Self.removeZeros(4, from: &significand, exponent: &trimmed)
        Self.removeZeros(2, from: &significand, exponent: &trimmed)
        Self.removeZeros(1, from: &significand, exponent: &trimmed)
        self.init(significand: significand, exponent: trimmed, length: length &- (trimmed &- exponent))
    }

    /// How many decimal digits `value` has (1 for zero): a subnormal's significand, whose size
    /// its scaling does not bound.
    private static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count &+= 1
        }
        return count
    }

    /// Moves `count` trailing zeros (8, 4, 2 or 1) of `significand` to `exponent`, when it has
    /// them; returns whether it had.
    @discardableResult
    private static func removeZeros(_ count: Int, from significand: inout UInt64, exponent: inout Int) -> Bool {
        // A switch of constants, so that each division is by a constant (a multiplication).
        let divisor: UInt64 = switch count {
        case 8: 100_000_000
        case 4: 10_000
        case 2: 100
        default: 10
        }
        let quotient = significand / divisor
        guard quotient &* divisor == significand else { return false }
        significand = quotient
        exponent &+= count
        return true
    }

    /// The integer part of `power * scaled / 2^128`, with its lowest bit set when a fraction was
    /// dropped.
    ///
    /// The fraction is looked at only to 64 bits: `power` is above the exact power by less than
    /// one in 2^127, so an exact product comes out with a zero fraction there. The paper proves
    /// the comparisons right with a 126-bit power truncated in the same way; this one has two bits
    /// more (and 51.7 million doubles checked against `description` agree).
    private static func roundToOdd(_ power: (high: UInt64, low: UInt64), _ scaled: UInt64) -> UInt64 {
        let low = power.low.multipliedFullWidth(by: scaled).high
        let high = power.high.multipliedFullWidth(by: scaled)
        let (fraction, carry) = high.low.addingReportingOverflow(low)
        let integer = high.high &+ (carry ? 1 : 0)
        return integer | (fraction != 0 ? 1 : 0)
    }

    // The three logarithms below are fixed-point products (the constants are the logarithms times
    // 2^20 or 2^19, rounded up), checked against exact rational values over the ranges given,
    // wider than doubles need (-1_074 to 971, and -324 to 292); a wrong one would scale by the
    // wrong power, which the tests comparing with `description` at every exponent would show.

    /// floor(log10(2^e)), for |e| <= 1_650.
    static func floorLog10Pow2(_ e: Int) -> Int {
        (e &* 315_653) >> 20
    }

    /// floor(log10(3/4 * 2^e)), for |e| <= 1_300.
    static func floorLog10ThreeQuartersPow2(_ e: Int) -> Int {
        (e &* 315_653 &- 131_008) >> 20
    }

    /// floor(log2(10^e)), for |e| <= 1_233.
    static func floorLog2Pow10(_ e: Int) -> Int {
        (e &* 1_741_647) >> 19
    }
}

/// The powers of ten that `ShortestDecimal` scales doubles by, from 10^-292 to 10^324, each
/// as the 128 leading bits of its binary expansion, plus one.
///
/// A power 10^e is kept as `g = floor(10^e * 2^(127 - floor(log2(10^e)))) + 1`, an integer
/// between 2^127 and 2^128: the leading bits, rounded up, as Schubfach's proof asks (the
/// product with a double's significand then never falls short of the exact one, so an exact
/// product is recognised as exact). The exponents cover every double: a double's binary
/// exponent runs from -1074 to 971, so the decimal one it is scaled by runs from -324 to 292,
/// and the power used is its opposite.
///
/// The table is computed at first use from exact big integers, not written out as literals:
/// 617 pairs of 64-bit literals would be 1,234 numbers to type-check and to review, with
/// nothing in the file to show they are right, while the routine below is their definition
/// (and takes well under a millisecond, once per process).
struct PowersOfTen128: @unchecked Sendable {
    // @unchecked: `words` is written only while the table is made, before any thread can see it,
    // and never freed, so reading it from any thread is safe.
    /// The smallest exponent in the table.
    static let smallestExponent = -292
    /// The largest exponent in the table.
    static let largestExponent = 324

    /// The table, made on first use; a static `let` is initialised once, thread-safely.
    static let shared = PowersOfTen128()

    /// The high and low words of each power, from the smallest exponent up.
    // Unsafe: a pointer rather than an array, as reading the table costs each double a retain and
    // a release of the array otherwise (about a tenth of the time of a whole double); the memory
    // lives as long as the process, like the table.
    let words: UnsafePointer<UInt64>

    /// The 128-bit approximation of 10^`exponent`, which must be in the table's range.
    func power(_ exponent: Int) -> (high: UInt64, low: UInt64) {
        let index = (exponent &- Self.smallestExponent) &* 2
        // Unsafe: in the table for the exponents ShortestDecimal asks for (-292 to 324), all set.
        return (words[index], words[index &+ 1])
    }

    private init() {
        let count = Self.largestExponent - Self.smallestExponent + 1
        // Unsafe: allocated once per process for the table (a static let) and never freed.
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: count * 2)
        func store(_ power: Natural, exponent: Int) {
            // Rounded up: never all ones, as no power of ten starts with 128 one bits.
            var (high, low) = power.leading128Bits()
            low &+= 1
            if low == 0 { high &+= 1 }
            let index = (exponent - Self.smallestExponent) * 2
            words[index] = high
            words[index + 1] = low
        }
        // 10^e for e >= 0, exactly.
        var power = Natural(1)
        for exponent in 0...Self.largestExponent {
            store(power, exponent: exponent)
            power.multiply(by: 10)
        }
        // floor(2^1152 / 10^n) for n >= 1: its leading bits are those of 10^-n, as
        // floor(floor(x / 10) / 10) == floor(x / 100); 2^1152 leaves more than 128 bits at
        // 10^-292.
        var quotient = Natural(power: 1152)
        for exponent in stride(from: -1, through: Self.smallestExponent, by: -1) {
            quotient.divide(by: 10)
            store(quotient, exponent: exponent)
        }
        self.words = UnsafePointer(words)
    }
}
