import ModelKitCore

/// Matching object keys against a known set (a schema's key tree) where they lie in the document.
///
/// Payloads mostly list keys in the order a model declares them, so the key expected next is
/// compared with the document's bytes first: when they are that key, its closing quote and a
/// colon, the key is found with one compare, nothing scanned or hashed. Other keys of plain
/// ASCII are scanned a word at a time and looked up; keys with escapes or other characters, and
/// every error, go the general way, which unescapes them first.
extension JSONScanner {
    /// Moves to the next member of the object opened by ``beginObject()`` and finds its key among
    /// the keys of `node`, trying key number `expected` first.
    ///
    /// Returns nil after consuming the closing `}`. Otherwise consumes the separating comma, the
    /// key and the `:`, and returns the key's position in `node`, or -1 when it is none of its
    /// keys; the member's value must be read or skipped next. Errors are those of ``nextKey(_:)``.
    // @usableFromInline: called once per member by the inlinable
    // JSONBytesReader.readMembers(of:...), which is compiled into the decoding module; out of line
    // itself, as the comments below explain.
    @usableFromInline
    package mutating func nextKeyIndex(in node: ModelKeyNode, expected: Int) throws -> Int? {
        // Compact JSON: `,"` after a member, `"` right after the `{`, or the `}`. Anything else
        // (whitespace, errors) goes the general way, so no error is built in this function.
        guard position &+ 1 < end else { return try nextKeyIndexGenerally(in: node, expected: expected) }
        let byte = input[position]
        let start: Int
        if atContainerStart {
            guard byte == UInt8(ascii: "\"") else { return try nextKeyIndexGenerally(in: node, expected: expected) }
            atContainerStart = false
            start = position &+ 1
        } else if byte == UInt8(ascii: ",") && input[position &+ 1] == UInt8(ascii: "\"") {
            start = position &+ 2
        } else {
            guard byte == UInt8(ascii: "}") else { return try nextKeyIndexGenerally(in: node, expected: expected) }
            position &+= 1
            openContainers &-= 1
            return nil
        }
        // Other keys are scanned in a function of their own, so that this one saves and restores
        // few registers.
        if isExpectedKey(in: node, expected, at: start) { return expected }
        return try nextKeyIndexByScanning(in: node, expected: expected, keyStart: start)
    }

    /// Whether the key whose content starts at `start` is key number `expected` of `node`,
    /// followed by its closing quote and a colon; if so, moves past the colon. The key must need
    /// no escaping: the bytes are then exactly the key, with nothing for a string reader to look
    /// at, and one compare finds it.
    @inline(__always)
    mutating func isExpectedKey(in node: ModelKeyNode, _ expected: Int, at start: Int) -> Bool {
        let keys = node.matcher
        guard expected < keys.keyCount else { return false }
        let length = keys.verbatimLength(at: expected)
        let close = start &+ length
        // Unsafe: the last condition compares the document's bytes with the key's bytes the
        // schema's matcher keeps (KeyMatcher.keyStart(at:), alive as long as `node`);
        // `close &+ 1 < end` keeps them inside the document, which is not empty here, so its
        // base address is not nil.
        guard length >= 0 && close &+ 1 < end && input[close] == UInt8(ascii: "\"")
            && input[close &+ 1] == UInt8(ascii: ":") && length <= limits.maxStringLength
            && ByteScanning.sameBytes(input.baseAddress.unsafelyUnwrapped + start, keys.keyStart(at: expected), count: length)
        else { return false }
        position = close &+ 2
        return true
    }

    /// ``nextKeyIndex(in:expected:)`` for a key other than the one expected, whose content starts
    /// at `start`, after its opening quote.
    @inline(never)
    mutating func nextKeyIndexByScanning(in node: ModelKeyNode, expected: Int, keyStart start: Int) throws -> Int? {
        // Errors are reported from the key's opening quote. A key of plain ASCII: its closing
        // quote is the first byte a string reader must look at.
        position = start &- 1
        let keys = node.matcher
        var close = start
        while close &+ 8 <= end {
            // Unsafe: eight bytes of the key read as one unaligned word; the loop condition keeps
            // them inside the document.
            let mask = ByteScanning.stringSpecials(
                UInt64(littleEndian: input.loadUnaligned(fromByteOffset: close, as: UInt64.self)))
            if mask != 0 {
                close &+= mask.trailingZeroBitCount &>> 3
                break
            }
            close &+= 8
        }
        guard close &+ 1 < end && input[close] == UInt8(ascii: "\"") && input[close &+ 1] == UInt8(ascii: ":")
            && close &- start <= limits.maxStringLength
        else { return try readKeyAndColon { keys.index(of: $0, expected: expected) ?? -1 } }
        position = close &+ 2
        // Unsafe: the key as a slice of the document, no copy; the guard above found its closing
        // quote at `close`, inside the document.
        return keys.index(of: UnsafeRawBufferPointer(rebasing: input[start..<close]), expected: expected) ?? -1
    }

    /// ``nextKeyIndex(in:expected:)`` past its fast cases: whitespace around the separators,
    /// the end of the input, errors; the key itself is then found the same way.
    // @usableFromInline: no inlinable body calls this (only nextKeyIndex(in:expected:), out of
    // line, does): a candidate for removal.
    @usableFromInline @inline(never)
    mutating func nextKeyIndexGenerally(in node: ModelKeyNode, expected: Int) throws -> Int? {
        guard try moveToNextKey() else { return nil }
        // At the key's opening quote past the whitespace of a pretty-printed document, whose
        // keys are then found as a compact document's are.
        let start = position &+ 1
        if isExpectedKey(in: node, expected, at: start) { return expected }
        return try nextKeyIndexByScanning(in: node, expected: expected, keyStart: start)
    }
}
