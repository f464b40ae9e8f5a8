/// Escaping text for ``JSONWriter``: what follows the first byte of a string that JSON must
/// escape (a quote, a backslash, a control character), after appendQuoted(utf8:reserved:) has
/// copied the text before it.
extension JSONWriter {
    /// Appends `source` escaped, without quotes; its first byte is one to escape.
    ///
    /// One reservation per block of 4 KiB for the worst case (every byte a six-byte `\u00XX`),
    /// then runs copied a word at a time as they are checked, as appendQuoted(utf8:reserved:)
    /// copies, and escapes stored as words: text with a line break every few dozen bytes pays no
    /// reservation, call or uniqueness check per run or per escape.
    // Unsafe: reads the caller's bytes in place and stores into the room reserved here.
    mutating func appendEscaped(_ source: UnsafeRawBufferPointer) {
        guard let bytes = source.baseAddress else { return }
        var index = 0
        while index < source.count {
            let end = min(source.count, index &+ 4096)
            // Unsafe: six bytes per byte of the block at most, and eight more for the last word.
            let output = UnsafeMutableRawPointer(reserve((end &- index) &* 6 &+ 8))
            var written = 0
            while index < end {
                let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                    written &+= JSONWriter.storeEscape(for: byte, at: output + written)
                    index &+= 1
                    continue
                }
                // A run: whole words while eight bytes of the block remain, each stored before
                // it is checked.
                while index &+ 8 <= end {
                    // Unsafe: eight bytes of the block (`index + 8 <= end`) into the room reserved.
                    let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    output.storeBytes(of: word, toByteOffset: written, as: UInt64.self)
                    let mask = ByteScanning.escapeSpecials(UInt64(littleEndian: word))
                    if mask != 0 {
                        let clean = mask.trailingZeroBitCount &>> 3
                        index &+= clean
                        written &+= clean
                        break
                    }
                    index &+= 8
                    written &+= 8
                }
                // The block's last bytes, fewer than eight, one at a time up to the next to escape.
                if index &+ 8 > end {
                    while index < end {
                        let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
                        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                        // Unsafe: one byte into the room reserved.
                        output.storeBytes(of: byte, toByteOffset: written, as: UInt8.self)
                        index &+= 1
                        written &+= 1
                    }
                }
            }
            count &+= written
        }
    }

    /// Stores the escape for `byte` (a quote, backslash or control character) at `target`;
    /// returns its length, 2 or 6 (`\u00XX`).
    // Unsafe: stores one word at `target`, inside the worst-case room appendEscaped(_:) reserved.
    static func storeEscape(for byte: UInt8, at target: UnsafeMutableRawPointer) -> Int {
        let short: UInt64
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = UInt64(byte) << 8 | 0x5C
        case 0x08: short = 0x625C  // \b
        case 0x0C: short = 0x665C  // \f
        case 0x0A: short = 0x6E5C  // \n
        case 0x0D: short = 0x725C  // \r
        case 0x09: short = 0x745C  // \t
        default:
            // \u00 and the two hex digits of the byte, lowest byte first.
            let hex = { (nibble: UInt8) -> UInt64 in UInt64(nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble) }
            let word: UInt64 = 0x3030_755C | hex(byte >> 4) << 32 | hex(byte & 0x0F) << 40
            // Unsafe: six of the eight bytes stored count.
            target.storeBytes(of: word.littleEndian, as: UInt64.self)
            return 6
        }
        // Unsafe: two of the eight bytes stored count.
        target.storeBytes(of: short.littleEndian, as: UInt64.self)
        return 2
    }
}
