/// Word-at-a-time byte searches ("SIMD within a register") over 8-byte words.
///
/// Each function takes eight bytes loaded as a little-endian `UInt64` (byte 0 in the low bits)
/// and returns a mask with the high bit set in bytes that match. Bytes above the first match may
/// be flagged falsely (a borrow can ripple upwards), but the lowest flagged byte is always a true
/// match, so `mask.trailingZeroBitCount / 8` is the index of the first matching byte.
///
/// ```swift
/// let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: i, as: UInt64.self))
/// let mask = ByteScanning.stringSpecials(word)
/// if mask != 0 { i += mask.trailingZeroBitCount >> 3 }
/// ```
// @usableFromInline: named by the inlinable JSONScanner.readString(), which tests the first two
// words of each string with stringSpecials(_:).
@usableFromInline
enum ByteScanning {
    /// 0x01 in every byte.
    // @inlinable: a constant of stringSpecials(_:), which the inlinable readString() calls; folds
    // there.
    @inlinable @inline(__always)
    static var ones: UInt64 { 0x0101_0101_0101_0101 }

    /// 0x80 in every byte.
    // @inlinable: a constant of stringSpecials(_:), which the inlinable readString() calls; folds
    // there.
    @inlinable @inline(__always)
    static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// `byte` repeated in all eight bytes.
    // @inlinable: a step of equal(_:_:) and less(_:than:), so of stringSpecials(_:), which the
    // inlinable readString() calls; with a constant byte it folds there.
    @inlinable @inline(__always)
    static func broadcast(_ byte: UInt8) -> UInt64 {
        ones &* UInt64(byte)
    }

    /// Whether `byte` is JSON whitespace: space, tab, line feed or carriage return (RFC 8259).
    // @inlinable: no inlinable body calls this (only Text.whitespaceEnd(from:), the error helpers
    // and the stream splitter, all in this module); @inline(__always) alone inlines it there: a
    // candidate for removal.
    @inlinable @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Flags bytes equal to `byte`.
    // @inlinable: a step of stringSpecials(_:), which the inlinable readString() calls per string.
    @inlinable @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ broadcast(byte)
        return (difference &- ones) & ~difference & highBits
    }

    /// Flags ASCII bytes below `limit` (which must be at most 0x80).
    // @inlinable: a step of stringSpecials(_:), which the inlinable readString() calls per string.
    @inlinable @inline(__always)
    static func less(_ word: UInt64, than limit: UInt8) -> UInt64 {
        (word &- broadcast(limit)) & ~word & highBits
    }

    /// Flags exactly the nonzero bytes (no carries between bytes, so every flag is true).
    // @inlinable: no inlinable body calls this (only Text.whitespaceEnd(from:), in this module);
    // @inline(__always) alone inlines it there: a candidate for removal.
    @inlinable @inline(__always)
    static func nonzeroBytes(_ word: UInt64) -> UInt64 {
        let low7 = (word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F
        return (low7 | word) & highBits
    }

    /// Flags bytes a string reader must look at: `"`, `\`, controls below 0x20, and non-ASCII.
    // @inlinable: called by the inlinable JSONScanner.readString() on the first two words of each
    // string, so compiled into the decoding module with it.
    @inlinable @inline(__always)
    static func stringSpecials(_ word: UInt64) -> UInt64 {
        equal(word, UInt8(ascii: "\"")) | equal(word, UInt8(ascii: "\\")) | less(word, than: 0x20) | (word & highBits)
    }

    /// Flags bytes a string writer must escape: `"`, `\` and controls below 0x20.
    // @inlinable: no inlinable body calls this (only JSONWriter's out-of-line string escaping, in
    // this module); @inline(__always) alone inlines it there: a candidate for removal.
    @inlinable @inline(__always)
    static func escapeSpecials(_ word: UInt64) -> UInt64 {
        equal(word, UInt8(ascii: "\"")) | equal(word, UInt8(ascii: "\\")) | less(word, than: 0x20)
    }

    /// Whether a string writer must escape `byte`: `"`, `\\` or a control below 0x20 (the byte
    /// that ``escapeSpecials(_:)`` flags in a word).
    @inline(__always)
    static func mustEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
    }

    /// Copies bytes from `source` at `index` to `target` at `written` a word at a time, while
    /// eight bytes remain before `end`, each word stored before it is checked; stops at the first
    /// byte `flags` marks in a word. Both offsets move past the bytes copied: `index` is then at
    /// the marked byte, or at fewer than eight bytes from `end`. What was stored past the marked
    /// byte is the caller's to write over. Text with nothing to mark, most of it, costs a load, a
    /// check and a store per eight bytes.
    // Inlined, with `flags`: each caller's loop is this loop with its own test (the string
    // writer's escapes, the reader's backslashes), no call or closure left.
    // Unsafe: loads and stores whole words below `end` and at as many bytes from `written`; the
    // caller has checked that the bytes up to `end` can be read and as many written.
    @inline(__always)
    static func copyUnmarked(
        from source: UnsafeRawPointer, at index: inout Int, to target: UnsafeMutableRawPointer, at written: inout Int,
        end: Int, flags: (UInt64) -> UInt64
    ) {
        while index &+ 8 <= end {
            let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            target.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
            let mask = flags(UInt64(littleEndian: word))
            if mask != 0 {
                let clean = mask.trailingZeroBitCount &>> 3
                index &+= clean
                written &+= clean
                return
            }
            index &+= 8
            written &+= 8
        }
    }

    /// Whether the `count` bytes at `lhs` and `rhs` are the same, compared a word at a time (the
    /// last word, or the last two shorter ones, may overlap what was compared before; nothing
    /// outside the `count` bytes is read).
    // @inlinable: no inlinable body calls this (only nextKeyIndex(in:expected:), out of line, in
    // this module); @inline(__always) alone inlines it there: a candidate for removal.
    // Unsafe: raw pointers, so that words of any width load at any offset; the caller has checked
    // that `count` bytes lie at both (see nextKeyIndex(in:expected:)).
    @inlinable @inline(__always)
    static func sameBytes(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
        func same<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> Bool {
            // Unsafe: unaligned loads inside the `count` bytes: every offset used below is at most
            // `count` less the width loaded.
            lhs.loadUnaligned(fromByteOffset: offset, as: T.self) == rhs.loadUnaligned(fromByteOffset: offset, as: T.self)
        }
        if count >= 8 {
            var offset = 0
            while offset &+ 8 < count {
                if !same(UInt64.self, at: offset) { return false }
                offset &+= 8
            }
            return same(UInt64.self, at: count &- 8)
        }
        if count >= 4 { return same(UInt32.self, at: 0) && same(UInt32.self, at: count &- 4) }
        if count >= 2 { return same(UInt16.self, at: 0) && same(UInt16.self, at: count &- 2) }
        return count == 0 || same(UInt8.self, at: 0)
    }

    /// The value of an ASCII hexadecimal digit, or nil.
    // @inlinable: no inlinable body calls this (only Text.hexUnit(at:), out of line);
    // @inline(__always) alone inlines it there: a candidate for removal.
    @inlinable @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt16? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt16(byte &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt16(byte &- UInt8(ascii: "a") &+ 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt16(byte &- UInt8(ascii: "A") &+ 10)
        default: nil
        }
    }

    /// Whether the four bytes of `word` (the first in the low bits) are all ASCII hexadecimal
    /// digits: each byte is tested as a digit and, with its case bit set, as a letter a-f, by
    /// additions that carry into the high bit exactly at the range's bounds (no byte carries into
    /// the next unless it is 0x80 or above, which fails anyway).
    // Not inlinable: used by Text's out-of-line string scan and by unescape(from:to:into:), both in
    // this module.
    @inline(__always)
    static func allHexDigits(_ word: UInt32) -> Bool {
        let lowercased = word | 0x2020_2020
        let digits = (word &+ 0x5050_5050) & ~(word &+ 0x4646_4646)  // ≥ "0" and not ≥ ":"
        let letters = (lowercased &+ 0x1F1F_1F1F) & ~(lowercased &+ 0x1919_1919)  // ≥ "a" and not ≥ "g"
        return (digits | letters) & ~word & 0x8080_8080 == 0x8080_8080
    }

    /// The code unit written by the four hexadecimal digits of `word` (the first, most
    /// significant, in the low bits), which allHexDigits(_:) has accepted.
    // Not inlinable: used by Text's out-of-line string scan and by unescape(from:to:into:), both in
    // this module.
    @inline(__always)
    static func hexValue(ofDigits word: UInt32) -> UInt16 {
        // A digit's low nibble is its value; a letter's is its value less 9, and only letters have
        // bit 6 set.
        let values = (word & 0x0F0F_0F0F) &+ 9 &* ((word >> 6) & 0x0101_0101)
        // Pairs of digits into bytes (the first and third bytes), then the two bytes in order.
        let pairs = ((values << 4) | (values >> 8)) & 0x00FF_00FF
        return UInt16(truncatingIfNeeded: (pairs & 0xFF) << 8 | pairs >> 16)
    }
}

extension JSONScanner.Text {
    /// Validates the UTF-8 sequence whose lead byte (0x80 or above) is at `index` and returns
    /// the offset after it.
    ///
    /// Follows the well-formed byte sequences of the Unicode Standard (table 3-7): rejects
    /// stray continuation bytes, overlong forms (C0, C1, E0 80–9F, F0 80–8F), UTF-16 surrogates
    /// encoded in UTF-8 (ED A0–BF), code points above U+10FFFF (F4 90–, F5–FF) and sequences
    /// cut short. The error names the lead byte.
    // @usableFromInline: no inlinable body calls this (only Text.scanStringBodyPrecisely(from:
    // maxLength:), out of line, does): a candidate for removal.
    @usableFromInline
    func utf8SequenceEnd(at index: Int) throws -> Int {
        let lead = input[index]
        let length: Int
        var secondLow: UInt8 = 0x80
        var secondHigh: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
        case 0xE0:
            length = 3
            secondLow = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF:
            length = 3
        case 0xED:
            length = 3
            secondHigh = 0x9F
        case 0xF0:
            length = 4
            secondLow = 0x90
        case 0xF1...0xF3:
            length = 4
        case 0xF4:
            length = 4
            secondHigh = 0x8F
        default:
            try fail(.invalidUTF8(lead), at: index)
        }
        guard index &+ length <= end else { try fail(.invalidUTF8(lead), at: index) }
        let second = input[index &+ 1]
        guard second >= secondLow && second <= secondHigh else { try fail(.invalidUTF8(lead), at: index) }
        if length >= 3 {
            guard input[index &+ 2] & 0xC0 == 0x80 else { try fail(.invalidUTF8(lead), at: index) }
            if length == 4 {
                guard input[index &+ 3] & 0xC0 == 0x80 else { try fail(.invalidUTF8(lead), at: index) }
            }
        }
        return index &+ length
    }

    /// Validates the escape whose backslash is at `index` (in the string opened at `stringStart`)
    /// and returns the offset after it.
    ///
    /// A `\u` escape of a high surrogate must be followed by a `\u` escape of a low surrogate;
    /// a lone surrogate of either half is rejected.
    // @usableFromInline: no inlinable body calls this (only Text.scanStringBody(from:maxLength:) and
    // scanStringBodyPrecisely(from:maxLength:), out of line, do): a candidate for removal.
    @usableFromInline
    func escapeEnd(at index: Int, stringStart: Int) throws -> Int {
        guard index &+ 1 < end else { try fail(.unterminatedString, at: stringStart) }
        let kind = input[index &+ 1]
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index &+ 2
        case UInt8(ascii: "u"):
            guard let unit = hexUnit(at: index &+ 2) else { try fail(.invalidUnicodeEscape, at: index) }
            switch unit {
            case 0xD800...0xDBFF:
                let next = index &+ 6
                guard next &+ 1 < end, input[next] == UInt8(ascii: "\\"), input[next &+ 1] == UInt8(ascii: "u") else {
                    try fail(.unpairedSurrogate(unit), at: index)
                }
                guard let low = hexUnit(at: next &+ 2) else { try fail(.invalidUnicodeEscape, at: next) }
                guard (0xDC00...0xDFFF).contains(low) else { try fail(.unpairedSurrogate(unit), at: index) }
                return index &+ 12
            case 0xDC00...0xDFFF:
                try fail(.unpairedSurrogate(unit), at: index)
            default:
                return index &+ 6
            }
        default:
            try fail(.invalidEscape(kind), at: index)
        }
    }

    /// The UTF-16 code unit written as four hexadecimal digits at `index`, or nil.
    func hexUnit(at index: Int) -> UInt16? {
        guard index &+ 4 <= end,
              let a = ByteScanning.hexValue(input[index]),
              let b = ByteScanning.hexValue(input[index &+ 1]),
              let c = ByteScanning.hexValue(input[index &+ 2]),
              let d = ByteScanning.hexValue(input[index &+ 3])
        else { return nil }
        return a << 12 | b << 8 | c << 4 | d
    }
}
