/// Short ASCII strings in the standard library's small form, made from their bytes directly, for
/// readers that have already checked the bytes (the property-list table; the JSON scanner has a
/// copy of its own for now).
///
/// A `String` of at most 15 UTF-8 bytes lives in its own two words, with no allocation. The
/// public initializers reach that form through a closure and a second validation pass (well over
/// a hundred instructions for a short word); a reader that knows the bytes are ASCII can write the
/// two words itself: the bytes in order, zero padding, and in the last byte the small-ASCII
/// discriminator (`0xE`) over the count. That layout is the standard library's ABI on 64-bit
/// little-endian platforms (frozen on Apple's since Swift 5, the same on Linux); tests compare
/// strings made this way with `String(decoding:as:)` at every length. Elsewhere
/// ``make(low:high:count:)`` returns nil and callers take a public initializer.
///
/// ```swift
/// let string = SmallASCIIString.make(low: first, high: second, count: 5)
///     ?? String(decoding: bytes, as: UTF8.self)
/// ```
package enum SmallASCIIString {
    /// The longest string of the small form, in bytes.
    @inlinable
    package static var maxCount: Int { 15 }

    /// The string of the first `count` (0...15) bytes of the little-endian words `low` then
    /// `high` (later bytes are ignored); nil when one of those bytes is not ASCII, or on a
    /// platform whose strings are laid out otherwise.
    @inlinable @inline(__always)
    package static func make(low: UInt64, high: UInt64, count: Int) -> String? {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
        guard MemoryLayout<String>.size == 16, count >= 0, count <= maxCount else { return nil }
        // Masks that keep the first `count` bytes (a shift of 64 or more gives zero in Swift).
        let bits = UInt64(truncatingIfNeeded: count) &* 8
        let first = low & (count >= 8 ? ~0 : (1 &<< bits) &- 1)
        let second = high & (count <= 8 ? 0 : (1 &<< (bits &- 64)) &- 1)
        guard (first | second) & 0x8080_8080_8080_8080 == 0 else { return nil }
        let words = (first, second | UInt64(0xE0 | count) &<< 56)
        // Stored into memory for one string and moved out: a bit cast would hand out a borrowed
        // string, and returning it would cost a retain.
        return withUnsafeTemporaryAllocation(of: String.self, capacity: 1) { buffer in
            let string = buffer.baseAddress.unsafelyUnwrapped
            UnsafeMutableRawPointer(string).storeBytes(of: words, as: (UInt64, UInt64).self)
            return string.move()
        }
        #else
        return nil
        #endif
    }
}
