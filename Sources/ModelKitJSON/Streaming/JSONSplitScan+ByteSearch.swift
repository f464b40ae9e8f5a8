extension JSONSplitScan {
    /// Whether `byte` ends a number or literal: whitespace or structural punctuation.
    @inline(__always)
    static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "["),
            UInt8(ascii: "{"), UInt8(ascii: "\""):
            true
        default: false
        }
    }

    /// The index of the first `"` or `\` at or after `index` (or `bytes.count`), eight bytes at a time.
    // Unsafe: scans the splitter's buffer in place, through firstMatch.
    static func quoteOrBackslash(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        firstMatch(in: bytes, from: index) {
            ByteScanning.equal($0, UInt8(ascii: "\"")) | ByteScanning.equal($0, UInt8(ascii: "\\"))
        } matches: {
            $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
        }
    }

    /// The index of the first line feed at or after `index`, or nil.
    // Unsafe: scans the splitter's buffer in place, through firstMatch.
    static func lineFeed(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        let found = firstMatch(in: bytes, from: index) { ByteScanning.equal($0, 0x0A) } matches: { $0 == 0x0A }
        return found < bytes.count ? found : nil
    }

    /// The index of the first byte at or after `index` that `matches`, using `wordMask` (which
    /// flags the matching bytes of a little-endian word, the lowest flag always true) eight bytes
    /// at a time.
    // Unsafe: raw access, so that eight bytes load as one word; every read stays below
    // `bytes.count`.
    @inline(__always)
    static func firstMatch(
        in bytes: UnsafeBufferPointer<UInt8>, from index: Int, wordMask: (UInt64) -> UInt64,
        matches: (UInt8) -> Bool
    ) -> Int {
        var index = index
        let end = bytes.count
        if let base = bytes.baseAddress {
            // Unsafe: the bytes as raw memory, for unaligned word loads.
            let raw = UnsafeRawPointer(base)
            while index + 8 <= end {
                // Unsafe: eight bytes as one unaligned word; `index + 8 <= end` keeps them inside
                // the buffer.
                let mask = wordMask(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                if mask != 0 { return index + mask.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < end, !matches(bytes[index]) { index += 1 }
        return index
    }
}
