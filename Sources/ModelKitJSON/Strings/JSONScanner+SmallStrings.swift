import ModelKitShared

/// Making strings from the document's bytes, which the scanner has validated, without the
/// standard library validating them again: short ASCII ones in the standard library's small
/// form (``SmallASCIIString``), the two words written directly, past the public initializers'
/// closure and second validation pass (about 170 instructions for a word of six letters); the
/// others copied through a `UTF8Span` taken unchecked.
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
            return string(copyingValidUTF8: bytes, isASCII: true)
        }
        var words: (UInt64, UInt64) = (0, 0)
        // Unsafe: copies the at most 15 bytes (`count`, checked above) into the 16 bytes of
        // `words`; the base address of a tuple's bytes is never nil.
        withUnsafeMutableBytes(of: &words) { $0.baseAddress.unsafelyUnwrapped.copyMemory(from: source, byteCount: count) }
        return SmallASCIIString.make(ascii: UInt64(littleEndian: words.0), high: UInt64(littleEndian: words.1), count: count)
    }

    /// A string from valid UTF-8 bytes (the scanner has checked them), made without the
    /// standard library's second validation pass.
    // @inlinable: JSONBytesReader.decodeDictionary(_:), inlinable, makes each key with it, from
    // inside the closure it passes to nextKey(_:).
    // Unsafe: takes the key's bytes where nextKey(_:) found them, valid during the call, no copy.
    @inlinable
    static func string(validUTF8 bytes: UnsafeRawBufferPointer) -> String {
        var bits: UInt8 = 0
        for byte in bytes { bits |= byte }
        return bits < 0x80 ? string(ascii: bytes) : string(copyingValidUTF8: bytes, isASCII: false)
    }

    /// A string copied from bytes that must be valid UTF-8, without checking them again;
    /// `isASCII` must be true exactly when they are all ASCII, as the string keeps the flag
    /// (an ASCII string hashes and compares without normalizing).
    // @inlinable: the last step of the inlinable string(ascii:) and string(validUTF8:).
    // Unsafe: UTF8Span(unchecked:) trusts the bytes to be valid UTF-8: every caller has had the
    // scanner check them (scanStringBody(from:)), or has them from unescape(from:to:into:) of
    // checked content, which has room for each scalar it writes. The bytes are bound to UInt8
    // and spanned only for the copy.
    @inlinable
    static func string(copyingValidUTF8 bytes: UnsafeRawBufferPointer, isASCII: Bool) -> String {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return bytes.withMemoryRebound(to: UInt8.self) { String(copying: UTF8Span(unchecked: $0.span, isKnownASCII: isASCII)) }
        }
        #endif
        return String(decoding: bytes, as: UTF8.self)
    }
}
