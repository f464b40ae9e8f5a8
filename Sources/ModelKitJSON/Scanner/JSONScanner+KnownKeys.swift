import ModelKitCore

/// Matching object keys against a known set (a schema's key tree) where they lie in the document.
///
/// Payloads mostly list keys in the order a model declares them, so the key expected next is
/// compared with the document's bytes a word at a time, before anything is hashed. A key of
/// plain ASCII is found and matched without a call; keys with escapes or other characters go
/// through the general path, which unescapes them first.
extension JSONScanner {
    /// Moves to the next member of the object opened by ``beginObject()`` and finds its key in
    /// `keys`, trying key number `expected` first.
    ///
    /// Returns nil after consuming the closing `}`. Otherwise consumes the separating comma, the
    /// key and the `:`, and returns the key's index in `keys`, or -1 when it is none of them;
    /// the member's value must be read or skipped next. Errors are those of ``nextKey(_:)``.
    @inlinable
    package mutating func nextKeyIndex(in keys: KeyMatcher, expected: Int) throws -> Int? {
        guard try moveToNextKey() else { return nil }
        let start = position &+ 1
        // The key's closing quote is the first byte a string reader must look at.
        var close = start
        while close &+ 8 <= end {
            let mask = ByteScanning.stringSpecials(
                UInt64(littleEndian: input.loadUnaligned(fromByteOffset: close, as: UInt64.self)))
            if mask != 0 {
                close &+= mask.trailingZeroBitCount &>> 3
                break
            }
            close &+= 8
        }
        guard close < end, input[close] == UInt8(ascii: "\""), close &- start <= limits.maxStringLength else {
            return try readKeyAndColon { keys.index(of: $0, expected: expected) ?? -1 }
        }
        position = try colonEnd(after: close &+ 1)
        let length = close &- start
        if expected < keys.keyCount {
            let candidate = keys.keyBytes(at: expected)
            if candidate.count == length
                && ByteScanning.sameBytes(input.baseAddress! + start, candidate.baseAddress!, count: length)
            {
                return expected
            }
        }
        return keys.index(of: UnsafeRawBufferPointer(rebasing: input[start..<close])) ?? -1
    }
}
