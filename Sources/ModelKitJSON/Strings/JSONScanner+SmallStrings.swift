import ModelKitShared

/// Making short ASCII strings from the document's bytes in the standard library's small form
/// (``SmallASCIIString``): the scanner has already proved the bytes ASCII, so the two words of a
/// string of at most 15 bytes are written directly, past the public initializers' closure and
/// second validation pass (about 170 instructions for a word of six letters).
extension JSONScanner {
    /// A string from bytes known to be ASCII (the scanner has checked them): one of at most 15
    /// bytes is made in the small form, without the standard library's second validation pass.
    // @inlinable: called by the inlinable string(validUTF8:) for each dictionary key
    // JSONBytesReader.decodeDictionary(_:) reads, so compiled into the decoding module with it.
    // Unsafe: takes the string's bytes as a slice of the document or of the unescaping buffer,
    // valid during the call: a short one is copied once, into two words, and nothing else keeps
    // them.
    @inlinable
    static func string(ascii bytes: UnsafeRawBufferPointer) -> String {
        let count = bytes.count
        guard count <= SmallASCIIString.maxCount, SmallASCIIString.isAvailable, let source = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var words: (UInt64, UInt64) = (0, 0)
        // Unsafe: copies the at most 15 bytes (`count`, checked above) into the 16 bytes of
        // `words`; the base address of a tuple's bytes is never nil.
        withUnsafeMutableBytes(of: &words) { $0.baseAddress.unsafelyUnwrapped.copyMemory(from: source, byteCount: count) }
        return SmallASCIIString.make(ascii: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1), count: count)
    }

    /// A string from valid UTF-8 bytes (the scanner has checked them): short ASCII ones are
    /// made without the standard library's second validation pass.
    // @inlinable: JSONBytesReader.decodeDictionary(_:), inlinable, makes each key with it, from
    // inside the closure it passes to nextKey(_:).
    // Unsafe: takes the key's bytes where nextKey(_:) found them, valid during the call, no copy.
    @inlinable
    static func string(validUTF8 bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count <= SmallASCIIString.maxCount else { return String(decoding: bytes, as: UTF8.self) }
        var bits: UInt8 = 0
        for byte in bytes { bits |= byte }
        return bits < 0x80 ? string(ascii: bytes) : String(decoding: bytes, as: UTF8.self)
    }
}
