/// Finding a string's closing quote while validating its content, for ``JSONScanner``.
///
/// The scan takes runs of plain ASCII eight bytes at a time, and runs of other text (UTF-8
/// sequences with the ASCII between them) through a small automaton, a table load and a shift
/// per byte. An invalid sequence sends the string to
/// ``JSONScanner/Text/scanStringBodyPrecisely(from:maxLength:)``, which stops at the first
/// problem and names it, so that the automaton never has to know where a sequence began.
extension JSONScanner.Text {
    /// Finds the closing quote of the string whose content starts at `start`, validating the
    /// content (at most `maxLength` bytes); reports whether it has escapes and whether it is all
    /// ASCII.
    // @usableFromInline: called by the inlinable JSONScanner.scanStringBody(from:), so for every
    // key and string read the general way; a loop, so it stays out of line.
    @usableFromInline
    func scanStringBody(from start: Int, maxLength: Int) throws -> (close: Int, escaped: Bool, ascii: Bool) {
        var index = start
        var escaped = false
        var ascii = true
        while true {
            while index &+ 8 <= end {
                // Unsafe: eight bytes of the string as one unaligned word; the loop condition keeps
                // them inside the document.
                let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let mask = ByteScanning.stringSpecials(word)
                if mask != 0 {
                    index &+= mask.trailingZeroBitCount &>> 3
                    break
                }
                index &+= 8
            }
            guard index < end else { try fail(.unterminatedString, at: start &- 1) }
            let byte = input[index]
            if byte >= 0x80 {
                ascii = false
                // What precedes the run is valid, so the precise scan's first error is in it.
                guard let stop = textEnd(from: index) else { return try scanStringBodyPrecisely(from: start, maxLength: maxLength) }
                index = stop
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                index = try plainEscapeEnd(at: index) ?? escapeEnd(at: index, stringStart: start &- 1)
            } else if byte == UInt8(ascii: "\"") {
                if index &- start > maxLength {
                    try fail(.limitExceeded(.maxStringLength, limit: maxLength), at: start &- 1)
                }
                return (index, escaped, ascii)
            } else if byte < 0x20 {
                try fail(.unescapedControlCharacter(byte), at: index)
            } else {
                // Plain ASCII in the document's last eight bytes, which the word scan leaves.
                index &+= 1
            }
        }
    }

    /// From a byte of 0x80 or above at `start`: the offset of the first `"`, `\` or control
    /// byte after a run of valid UTF-8, or nil when the run has an invalid or unfinished
    /// sequence or reaches the end of the input.
    ///
    /// The state is a bit offset into the row of the byte just read (``UTF8Automaton``), so a
    /// step is a load and a shift, and four steps in a row wait on one another only through the
    /// shift. The failed state is absorbing, so it is tested once per four bytes.
    // @inline(__always): one call site, the scan's loop above, where the run is most of the work.
    @inline(__always)
    func textEnd(from start: Int) -> Int? {
        var state = UTF8Automaton.accept
        var index = start
        // Unsafe: the table's storage for the length of the run, so that a step loads a row
        // without a bounds check; a row is picked by a byte, always inside its 256 entries.
        UTF8Automaton.rows.withUnsafeBufferPointer { rows in
            while index &+ 4 <= end {
                let first = rows[Int(input[index])] &>> state
                let second = rows[Int(input[index &+ 1])] &>> first
                let third = rows[Int(input[index &+ 2])] &>> second
                let fourth = rows[Int(input[index &+ 3])] &>> third
                if fourth & UTF8Automaton.stateMask == UTF8Automaton.failed { break }
                state = fourth
                index &+= 4
            }
            // The last three bytes of the document, or the four that include the stop.
            while index < end {
                let next = rows[Int(input[index])] &>> state
                if next & UTF8Automaton.stateMask == UTF8Automaton.failed { break }
                state = next
                index &+= 1
            }
        }
        // Stopped between sequences on an ASCII byte: a quote, a backslash or a control byte,
        // which the scan's loop tells apart. A byte of 0x80 or above here is a bad lead byte.
        guard state & UTF8Automaton.stateMask == UTF8Automaton.accept, index < end, input[index] < 0x80 else {
            return nil
        }
        return index
    }

    /// The offset after the escape whose backslash is at `index` when it is a one-letter escape
    /// or a `\u` escape of a code unit outside the surrogates; nil for anything else (surrogate
    /// pairs, bad escapes, the end of the input), which escapeEnd(at:stringStart:) checks.
    // @inline(__always): one call site, the scan's loop above; mostly a compare and an add.
    @inline(__always)
    func plainEscapeEnd(at index: Int) -> Int? {
        guard index &+ 6 <= end else { return nil }
        let kind = input[index &+ 1]
        if kind == UInt8(ascii: "u") {
            // Unsafe: the four bytes after `\u`, inside the document by the guard above.
            let digits = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: index &+ 2, as: UInt32.self))
            guard ByteScanning.allHexDigits(digits), ByteScanning.hexValue(ofDigits: digits) & 0xF800 != 0xD800 else {
                return nil
            }
            return index &+ 6
        }
        switch kind {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index &+ 2
        default:
            return nil
        }
    }

    /// scanStringBody(from:maxLength:) a sequence and an escape at a time, for content with
    /// invalid UTF-8: the same result for valid content, and for invalid content the first
    /// problem, with its offset.
    @inline(never)
    func scanStringBodyPrecisely(from start: Int, maxLength: Int) throws -> (close: Int, escaped: Bool, ascii: Bool) {
        var index = start
        var escaped = false
        var ascii = true
        while true {
            guard index < end else { try fail(.unterminatedString, at: start &- 1) }
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                if index &- start > maxLength {
                    try fail(.limitExceeded(.maxStringLength, limit: maxLength), at: start &- 1)
                }
                return (index, escaped, ascii)
            }
            if byte >= 0x80 {
                ascii = false
                index = try utf8SequenceEnd(at: index)
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                index = try escapeEnd(at: index, stringStart: start &- 1)
            } else if byte < 0x20 {
                try fail(.unescapedControlCharacter(byte), at: index)
            } else {
                index &+= 1
            }
        }
    }
}

/// The automaton that validates UTF-8 for ``JSONScanner/Text/textEnd(from:)``: nine states,
/// each a multiple of six, and for each byte a row holding at bit `s` the state that follows
/// state `s` (the shift-based form of a DFA, after Per Vognsen). From the accepting state,
/// plain ASCII stays there and `"`, `\` and control bytes fail, so that a run stops on them.
/// The states follow the well-formed sequences of the Unicode Standard (table 3-7), as
/// utf8SequenceEnd(at:) does.
enum UTF8Automaton {
    /// Reached on a byte no state accepts; every row keeps it (bits 0-5 are zero).
    static let failed: UInt64 = 0
    /// Between sequences.
    static let accept: UInt64 = 6
    // The others, for reading `rows`: 12 one continuation byte left, 18 two, 24 three;
    // 30 after E0 (A0-BF next), 36 after ED (80-9F next), 42 after F0 (90-BF next),
    // 48 after F4 (80-8F next).

    /// The bits of a state; the rest of a shifted row is the other states' entries.
    static let stateMask: UInt64 = 63

    /// One row per byte value.
    // Unsafe (through withUnsafeBufferPointer in textEnd(from:)): a constant array, statically
    // initialized, read without bounds checks as its index is a byte.
    static let rows: [UInt64] = [
        0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,  // 00-07
        0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,  // 08-0F
        0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,  // 10-17
        0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,  // 18-1F
        0x180, 0x180, 0x0, 0x180, 0x180, 0x180, 0x180, 0x180,  // 20-27
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 28-2F
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 30-37
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 38-3F
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 40-47
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 48-4F
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 50-57
        0x180, 0x180, 0x180, 0x180, 0x0, 0x180, 0x180, 0x180,  // 58-5F
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 60-67
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 68-6F
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 70-77
        0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180, 0x180,  // 78-7F
        0x1200C012306000, 0x1200C012306000, 0x1200C012306000, 0x1200C012306000,  // 80-83
        0x1200C012306000, 0x1200C012306000, 0x1200C012306000, 0x1200C012306000,  // 84-87
        0x1200C012306000, 0x1200C012306000, 0x1200C012306000, 0x1200C012306000,  // 88-8B
        0x1200C012306000, 0x1200C012306000, 0x1200C012306000, 0x1200C012306000,  // 8C-8F
        0x48C012306000, 0x48C012306000, 0x48C012306000, 0x48C012306000,  // 90-93
        0x48C012306000, 0x48C012306000, 0x48C012306000, 0x48C012306000,  // 94-97
        0x48C012306000, 0x48C012306000, 0x48C012306000, 0x48C012306000,  // 98-9B
        0x48C012306000, 0x48C012306000, 0x48C012306000, 0x48C012306000,  // 9C-9F
        0x480312306000, 0x480312306000, 0x480312306000, 0x480312306000,  // A0-A3
        0x480312306000, 0x480312306000, 0x480312306000, 0x480312306000,  // A4-A7
        0x480312306000, 0x480312306000, 0x480312306000, 0x480312306000,  // A8-AB
        0x480312306000, 0x480312306000, 0x480312306000, 0x480312306000,  // AC-AF
        0x480312306000, 0x480312306000, 0x480312306000, 0x480312306000,  // B0-B3
        0x480312306000, 0x480312306000, 0x480312306000, 0x480312306000,  // B4-B7
        0x480312306000, 0x480312306000, 0x480312306000, 0x480312306000,  // B8-BB
        0x480312306000, 0x480312306000, 0x480312306000, 0x480312306000, 0x0, 0x0, 0x300, 0x300,  // BC-C3
        0x300, 0x300, 0x300, 0x300, 0x300, 0x300, 0x300, 0x300,  // C4-CB
        0x300, 0x300, 0x300, 0x300, 0x300, 0x300, 0x300, 0x300,  // CC-D3
        0x300, 0x300, 0x300, 0x300, 0x300, 0x300, 0x300, 0x300,  // D4-DB
        0x300, 0x300, 0x300, 0x300, 0x780, 0x480, 0x480, 0x480,  // DC-E3
        0x480, 0x480, 0x480, 0x480, 0x480, 0x480, 0x480, 0x480,  // E4-EB
        0x480, 0x900, 0x480, 0x480, 0xA80, 0x600, 0x600, 0x600,  // EC-F3
        0xC00, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,  // F4-FB
        0x0, 0x0, 0x0, 0x0,  // FC-103
    ]
}
