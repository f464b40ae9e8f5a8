/// A natural number in 64-bit words, least significant first: just enough arithmetic to build
/// the tables of 128-bit powers that the double reader (`powersOfFive128`) and writer
/// (`PowersOfTen128`) compute at first use.
struct Natural {
    var words: [UInt64]

    init(_ value: UInt64) { words = [value] }

    /// 2^exponent.
    init(power exponent: Int) {
        words = [UInt64](repeating: 0, count: exponent / 64 + 1)
        words[exponent / 64] = 1 << UInt64(exponent % 64)
    }

    var bitWidth: Int {
        guard let top = words.lastIndex(where: { $0 != 0 }) else { return 0 }
        return 64 * top + 64 - words[top].leadingZeroBitCount
    }

    mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for index in words.indices {
            let (high, low) = words[index].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            words[index] = sum
            carry = high &+ (overflow ? 1 : 0)
        }
        if carry != 0 { words.append(carry) }
    }

    mutating func divide(by divisor: UInt64) {
        var remainder: UInt64 = 0
        for index in words.indices.reversed() {
            (words[index], remainder) = divisor.dividingFullWidth((remainder, words[index]))
        }
    }

    mutating func addOne() {
        for index in words.indices {
            words[index] &+= 1
            if words[index] != 0 { return }
        }
        words.append(1)
    }

    /// The 64 bits from bit `offset` up; bits below 0 read as zero, so a negative offset shifts
    /// the number left.
    func word(fromBit offset: Int) -> UInt64 {
        func at(_ index: Int) -> UInt64 { words.indices.contains(index) ? words[index] : 0 }
        let index = offset >> 6  // floor division, also for negative offsets
        let shift = UInt64(offset & 63)
        if shift == 0 { return at(index) }
        return at(index) >> shift | at(index + 1) << (64 - shift)
    }

    func shiftedRight(by count: Int) -> Natural {
        var result = Natural(0)
        result.words = (0..<((bitWidth - count) / 64 + 1)).map { word(fromBit: count + 64 * $0) }
        return result
    }

    /// The number scaled by a power of two (truncating) to 128 bits with the top one set.
    func leading128Bits() -> (high: UInt64, low: UInt64) {
        let width = bitWidth
        return (word(fromBit: width - 64), word(fromBit: width - 128))
    }
}
