import ModelKitShared

/// Making short ASCII strings from the document's bytes in the standard library's small form
/// (``SmallASCIIString``): the scanner has already proved the bytes ASCII, so the two words of a
/// string of at most 15 bytes are written directly, past the public initializers' closure and
/// second validation pass (about 170 instructions for a word of six letters).
extension JSONScanner {
    /// A string from bytes known to be ASCII (the scanner has checked them): one of at most 15
    /// bytes is made in the small form, without the standard library's second validation pass.
    @inlinable
    static func string(ascii bytes: UnsafeRawBufferPointer) -> String {
        let count = bytes.count
        guard count <= SmallASCIIString.maxCount, SmallASCIIString.isAvailable, let source = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress.unsafelyUnwrapped.copyMemory(from: source, byteCount: count) }
        return SmallASCIIString.make(ascii: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1), count: count)
    }

    /// A string from valid UTF-8 bytes (the scanner has checked them): short ASCII ones are
    /// made without the standard library's second validation pass.
    @inlinable
    static func string(validUTF8 bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count <= SmallASCIIString.maxCount else { return String(decoding: bytes, as: UTF8.self) }
        var bits: UInt8 = 0
        for byte in bytes { bits |= byte }
        return bits < 0x80 ? string(ascii: bytes) : String(decoding: bytes, as: UTF8.self)
    }
}
