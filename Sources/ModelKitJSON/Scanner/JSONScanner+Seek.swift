import ModelKitCore

/// A quick look through an object for one key, for a value that will be read again from the
/// object's start: an internally tagged enum's tag, which decides how the rest is read.
///
/// The look is structural only. Strings end at their first unescaped quote and containers where
/// their brackets balance; nothing else is checked, since the read that follows goes over the
/// whole object again and validates every byte of it (the payload's read, a skip, or the
/// fallback's `JSONValue`). Skipping a member this way costs a fraction of a validating skip,
/// which is what the members before a tag cost twice otherwise (json.decode.feed).
extension JSONScanner {
    /// Looks through the members of the object at the current position for key number 0 of
    /// `node` (spelled without escapes): true with the scanner at that member's value, false when
    /// the object ends without it. Nil when the quick look cannot tell (a key written with
    /// escapes, a key that needs them, bytes that are not an object's structure): then the
    /// scanner has not moved, and the caller looks the validating way.
    // @usableFromInline: called once per tagged value by the inlinable JSONBytesReader.findTag(_:among:expected:);
    // out of line, as the loop is long.
    @usableFromInline
    package mutating func seekKey(of node: ModelKeyNode) -> Bool? {
        let matcher = node.matcher
        guard matcher.keyCount > 0 else { return nil }
        let length = matcher.verbatimLength(at: 0)
        guard length >= 0 else { return nil }
        var index = spaceEnd(from: position)
        guard index < end, input[index] == UInt8(ascii: "{") else { return nil }
        index = spaceEnd(from: index &+ 1)
        guard index < end else { return nil }
        if input[index] == UInt8(ascii: "}") { return false }
        while true {
            var escaped = false
            guard input[index] == UInt8(ascii: "\""), let close = quickStringEnd(from: index &+ 1, escaped: &escaped)
            else { return nil }
            // A key written with escapes may spell the key differently: the validating look decides.
            if escaped { return nil }
            let keyStart = index &+ 1
            index = spaceEnd(from: close &+ 1)
            guard index < end, input[index] == UInt8(ascii: ":") else { return nil }
            index = spaceEnd(from: index &+ 1)
            guard index < end else { return nil }
            // Unsafe: compares the document's key bytes with the matcher's own (KeyMatcher.keyStart(at:), alive as
            // long as `node`); the key's closing quote was found at `close`, so `length` bytes from `keyStart` are
            // inside the document when the lengths agree.
            if close &- keyStart == length,
                ByteScanning.sameBytes(input.baseAddress.unsafelyUnwrapped + keyStart, matcher.keyStart(at: 0), count: length)
            {
                position = index
                return true
            }
            guard let valueEnd = quickValueEnd(at: index) else { return nil }
            index = spaceEnd(from: valueEnd)
            guard index < end else { return nil }
            if input[index] == UInt8(ascii: "}") { return false }
            guard input[index] == UInt8(ascii: ",") else { return nil }
            index = spaceEnd(from: index &+ 1)
            guard index < end else { return nil }
        }
    }

    /// The first non-whitespace offset at or after `index`, with compact JSON's case inline.
    @inline(__always)
    private func spaceEnd(from index: Int) -> Int {
        index < end && input[index] > 0x20 ? index : whitespaceEnd(from: index)
    }

    /// The offset of the first unescaped `"` at or after `start`, nil at the end of the input;
    /// sets `escaped` when a backslash comes before it.
    private func quickStringEnd(from start: Int, escaped: inout Bool) -> Int? {
        var index = start
        while true {
            while index &+ 8 <= end {
                // Unsafe: eight bytes read as one unaligned word; the loop condition keeps them inside the document.
                let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let mask = ByteScanning.equal(word, UInt8(ascii: "\"")) | ByteScanning.equal(word, UInt8(ascii: "\\"))
                if mask != 0 {
                    index &+= mask.trailingZeroBitCount &>> 3
                    break
                }
                index &+= 8
            }
            guard index < end else { return nil }
            switch input[index] {
            case UInt8(ascii: "\""): return index
            case UInt8(ascii: "\\"):
                escaped = true
                index &+= 2
            default: index &+= 1
            }
        }
    }

    /// The offset after the value starting at `start`: a string, a container with balanced
    /// brackets, or anything else up to the next `,`, `}`, `]` or whitespace. Nil at the end of
    /// the input.
    private func quickValueEnd(at start: Int) -> Int? {
        var index = start
        switch input[index] {
        case UInt8(ascii: "\""):
            var escaped = false
            return quickStringEnd(from: index &+ 1, escaped: &escaped).map { $0 &+ 1 }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < end {
                switch input[index] {
                case UInt8(ascii: "\""):
                    var escaped = false
                    guard let close = quickStringEnd(from: index &+ 1, escaped: &escaped) else { return nil }
                    index = close
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth &+= 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth &-= 1
                    if depth == 0 { return index &+ 1 }
                default: break
                }
                index &+= 1
            }
            return nil
        default:
            while index < end {
                let byte = input[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte <= 0x20 {
                    return index
                }
                index &+= 1
            }
            return nil
        }
    }
}
