/// Short ASCII strings in the standard library's small form, made from their bytes directly, for
/// readers that have already found the bytes (the JSON scanner, the property-list table).
///
/// A `String` of at most 15 UTF-8 bytes lives in its own two words, with no allocation. The
/// public initializers reach that form through a closure and a second validation pass (well over
/// a hundred instructions for a short word); a reader that knows the bytes are ASCII can write the
/// two words itself: the bytes in order, zero padding, and in the last byte the small-ASCII
/// discriminator (`0xE`) over the count. That layout is the standard library's ABI on 64-bit
/// little-endian platforms (frozen on Apple's since Swift 5, the same on Linux); tests compare
/// strings made this way with `String(decoding:as:)` at every length. Elsewhere
/// ``make(low:high:count:)`` returns nil and ``make(ascii:high:count:)`` takes a public
/// initializer.
///
/// ```swift
/// let string = SmallASCIIString.make(low: first, high: second, count: 5)
///     ?? String(decoding: bytes, as: UTF8.self)
/// ```
// @usableFromInline: a package type named by ModelKitJSON's inlinable string readers
// (JSONScanner.readString(), JSONScanner.string(ascii:)), whose bodies are compiled into the
// modules that decode models.
@usableFromInline
package enum SmallASCIIString {
    /// The longest string of the small form, in bytes.
    // @inlinable: compared with on every short string by the inlinable JSON string readers and by
    // the property-list and archive readers in other modules; inlined, it folds to a constant.
    @inlinable
    package static var maxCount: Int { 15 }

    /// Whether strings are made from their words on this platform.
    // @inlinable: so that the layout check folds to a constant in its callers' modules (the JSON
    // string readers, the binary property-list table) and the branch to the public initializer
    // drops out.
    @inlinable
    package static var isAvailable: Bool {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
        return MemoryLayout<String>.size == 16
        #else
        return false
        #endif
    }

    /// The string of the first `count` (0...15) bytes of the little-endian words `low` then
    /// `high` (later bytes are ignored); nil when one of those bytes is not ASCII, or on a
    /// platform whose strings are laid out otherwise.
    // @inlinable: called for every short string of a binary property list
    // (BinaryPropertyListTable.asciiString) in ModelKitPropertyList: inlinable so that it compiles
    // into that loop instead of costing a call per string.
    @inlinable @inline(__always)
    package static func make(low: UInt64, high: UInt64, count: Int) -> String? {
        guard isAvailable, count >= 0, count <= maxCount else { return nil }
        let words = maskedWords(low: low, high: high, count: count)
        guard (words.0 | words.1) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return string(masked: words, count: count)
    }

    /// The string of the first `count` (0...15) bytes of the little-endian words `low` then
    /// `high`, which the caller has found to be ASCII (later bytes are ignored): no check here.
    // @inlinable: called for every short string or key by ModelKitJSON's inlinable
    // JSONScanner.readString() and JSONScanner.string(ascii:), which are compiled into the decoding
    // module: it must be visible there.
    @inlinable @inline(__always)
    package static func make(ascii low: UInt64, high: UInt64, count: Int) -> String {
        guard isAvailable else {
            var words = (low.littleEndian, high.littleEndian)
            // Unsafe: reads the two words' bytes where they lie for the public initializer, on
            // platforms without the small form; the prefix is at most 15 of their 16 bytes.
            return withUnsafeBytes(of: &words) { String(decoding: $0.prefix(count), as: UTF8.self) }
        }
        return string(masked: maskedWords(low: low, high: high, count: count), count: count)
    }

    /// `low` and `high` with every byte past the first `count` (0...15) cleared.
    // @inlinable: a step of the two inlinable `make` functions, compiled with them into their
    // callers' modules.
    @inlinable @inline(__always)
    package static func maskedWords(low: UInt64, high: UInt64, count: Int) -> (UInt64, UInt64) {
        // A shift of 64 or more gives zero in Swift, hence the two cases at 8 bytes.
        let bits = UInt64(truncatingIfNeeded: count) &* 8
        let first = count >= 8 ? low : low & ((1 &<< bits) &- 1)
        let second = count <= 8 ? 0 : high & ((1 &<< (bits &- 64)) &- 1)
        return (first, second)
    }

    /// The small string of the masked words of `count` ASCII bytes. Call where ``isAvailable``.
    // @inlinable: the last step of the two inlinable `make` functions, compiled with them into
    // their callers' modules.
    @inlinable @inline(__always)
    package static func string(masked words: (UInt64, UInt64), count: Int) -> String {
        let layout = (words.0, words.1 | UInt64(0xE0 | count) &<< 56)
        // Stored into memory for one string and moved out: a bit cast would hand out a borrowed
        // string, and returning it would cost a retain.
        // Unsafe: room for one String on the stack, initialized by the store below and moved out
        // before the allocation ends, so nothing is left to destroy.
        return withUnsafeTemporaryAllocation(of: String.self, capacity: 1) { buffer in
            // Unsafe: the allocation holds one String, so its base address is never nil.
            let string = buffer.baseAddress.unsafelyUnwrapped
            // Unsafe: the two words are the string's bytes in the standard library's small-ASCII
            // layout, which `isAvailable` confirms on this platform (see the type's documentation;
            // tests compare every length with String(decoding:as:)).
            UnsafeMutableRawPointer(string).storeBytes(of: layout, as: (UInt64, UInt64).self)
            return string.move()
        }
    }
}
