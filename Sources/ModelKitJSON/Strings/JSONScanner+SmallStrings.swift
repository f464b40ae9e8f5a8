/// Making short ASCII strings from the document's bytes in the standard library's small form.
///
/// A `String` of at most 15 UTF-8 bytes is stored in its own two words, without an allocation.
/// The public initializers get there through a closure and a second validation pass (about 170
/// instructions for a word of six letters); the scanner has already proved the bytes ASCII, so it
/// writes the two words directly: the bytes in order, zero padding, and in the last byte the
/// small-ASCII discriminator (`0xE`) over the count. That layout is the standard library's ABI
/// on 64-bit little-endian platforms (frozen on Apple's since Swift 5, the same on Linux), and a
/// test compares strings made this way with `String(decoding:as:)` at every length; other
/// platforms take the public initializer.
extension JSONScanner {
    /// Whether strings are made from their words on this platform.
    @inlinable
    static var makesSmallStringsDirectly: Bool {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
        return MemoryLayout<String>.size == 16
        #else
        return false
        #endif
    }

    /// The string of the first `count` (0...15) bytes of `low` then `high` (little-endian words
    /// of document bytes, all ASCII up to `count`; later bytes are ignored).
    @inlinable @inline(__always)
    static func smallString(low: UInt64, high: UInt64, count: Int) -> String {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
        let bits = UInt64(truncatingIfNeeded: count) &<< 3
        let first = count >= 8 ? low : low & ((1 &<< bits) &- 1)
        let second = count <= 8 ? 0 : high & ((1 &<< (bits &- 64)) &- 1)
        // Written into uninitialized memory for one string and moved out: `unsafeBitCast` would
        // hand out a borrowed string, and returning it would cost a retain.
        return withUnsafeTemporaryAllocation(of: String.self, capacity: 1) { buffer in
            let string = buffer.baseAddress.unsafelyUnwrapped
            let raw = UnsafeMutableRawPointer(string)
            raw.storeBytes(of: first, as: UInt64.self)
            raw.storeBytes(of: second | UInt64(0xE0 | count) &<< 56, toByteOffset: 8, as: UInt64.self)
            return string.move()
        }
        #else
        var words = (low.littleEndian, high.littleEndian)
        return withUnsafeBytes(of: &words) { String(decoding: $0.prefix(count), as: UTF8.self) }
        #endif
    }

    /// A string from bytes known to be ASCII (the scanner has checked them): one of at most 15
    /// bytes is made in the small form, without the standard library's second validation pass.
    @inlinable
    static func string(ascii bytes: UnsafeRawBufferPointer) -> String {
        let count = bytes.count
        guard count <= 15, makesSmallStringsDirectly, let source = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress.unsafelyUnwrapped.copyMemory(from: source, byteCount: count) }
        return smallString(low: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1), count: count)
    }

    /// A string from valid UTF-8 bytes (the scanner has checked them): short ASCII ones are
    /// made without the standard library's second validation pass.
    @inlinable
    static func string(validUTF8 bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count <= 15 else { return String(decoding: bytes, as: UTF8.self) }
        var bits: UInt8 = 0
        for byte in bytes { bits |= byte }
        return bits < 0x80 ? string(ascii: bytes) : String(decoding: bytes, as: UTF8.self)
    }
}
