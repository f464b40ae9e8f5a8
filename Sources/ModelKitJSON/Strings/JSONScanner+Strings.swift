import ModelKitShared

/// Reading strings with ``JSONScanner``.
///
/// A string is scanned once to find its closing quote while validating escapes, control
/// characters and UTF-8 (JSONScanner+StringScan.swift). A string without escapes is then handed
/// out as a slice of the document (zero-copy); one with escapes is unescaped into a temporary
/// buffer. Either way a String is made without validating the bytes again.
extension JSONScanner {
    /// Reads a string.
    ///
    /// Throws ``JSONValueError`` (consuming nothing) when the next value is not a string.
    ///
    /// ```swift
    /// let name = try scanner.readString()
    /// ```
    // @inlinable: called for every string value (JSONBytesReader.decodeString()); a short ASCII
    // string, most of them, is read with two word loads compiled into the caller.
    @inlinable
    public mutating func readString() throws -> String {
        skipWhitespace()
        guard position < end, input[position] == UInt8(ascii: "\"") else { throw kindMismatch(expected: .string) }
        // A short string of plain ASCII (most are): its closing quote is the first byte of the
        // next two words that a string reader must look at.
        let start = position &+ 1
        if start &+ 16 <= end {
            // Unsafe: the string's first eight bytes as one unaligned word; `start &+ 16 <= end`
            // above keeps both words inside the document.
            let low = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: start, as: UInt64.self))
            var high: UInt64 = 0
            var mask = ByteScanning.stringSpecials(low)
            var close = start
            if mask == 0 {
                // Unsafe: the next eight bytes, inside the document by the same check.
                high = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: start &+ 8, as: UInt64.self))
                mask = ByteScanning.stringSpecials(high)
                close &+= 8
            }
            close &+= mask.trailingZeroBitCount &>> 3
            if mask != 0 && input[close] == UInt8(ascii: "\"") && close &- start <= limits.maxStringLength {
                position = close &+ 1
                // The two words just scanned are the string's bytes: its small form is made of them.
                return SmallASCIIString.make(ascii: low, high: high, count: close &- start)
            }
        }
        return try readStringGenerally()
    }

    /// ``readString()`` past its fast case: a long string, escapes, characters past ASCII, the
    /// end of the input. The opening quote is at `position`.
    // @usableFromInline: called by the inlinable readString() for what its fast path does not take;
    // long, so it stays out of line.
    @usableFromInline @inline(never)
    mutating func readStringGenerally() throws -> String {
        let start = position &+ 1
        let extent = try scanStringBody(from: start)
        position = extent.close &+ 1
        // Unsafe: the string's bytes as a slice of the document, no copy; scanStringBody(from:)
        // found `extent.close` inside it.
        let content = UnsafeRawBufferPointer(rebasing: input[start..<extent.close])
        if !extent.escaped {
            return extent.ascii ? JSONScanner.string(ascii: content) : JSONScanner.string(copyingValidUTF8: content, isASCII: false)
        }
        // Escapes of ASCII content may still write other characters (`\u00e9`): the bytes say.
        return try withUnescapedBytes(from: start, to: extent.close) {
            extent.ascii ? JSONScanner.string(validUTF8: $0) : JSONScanner.string(copyingValidUTF8: $0, isASCII: false)
        }
    }

    /// Reads a string and returns what `body` makes of its unescaped UTF-8 bytes.
    ///
    /// The bytes are valid UTF-8 and valid only during the call: a slice of the document when
    /// the string has no escapes (zero-copy), else a temporary buffer. The string is consumed
    /// before `body` runs. Throws ``JSONValueError`` (consuming nothing) when the next value is
    /// not a string.
    ///
    /// ```swift
    /// let status = try scanner.readStringBytes { bytes in
    ///     bytes.elementsEqual("active".utf8) ? Status.active : Status.other
    /// }
    /// ```
    // @inlinable: called per value by JSONBytesReader.decodeStringBytes(_:) (date transformers) and
    // readText (dates); generic over what `body` returns, so compiled where `T` is known, with
    // `body` inlined.
    // Unsafe: hands `body` the string's bytes where they lie (or in a temporary buffer when it has
    // escapes): a value that is parsed, not kept, needs no String.
    @inlinable
    public mutating func readStringBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        skipWhitespace()
        guard position < end, input[position] == UInt8(ascii: "\"") else { throw kindMismatch(expected: .string) }
        let start = position &+ 1
        let extent = try scanStringBody(from: start)
        position = extent.close &+ 1
        if !extent.escaped {
            // Unsafe: a slice of the document, no copy; scanStringBody(from:) found `extent.close`
            // inside it.
            return try body(UnsafeRawBufferPointer(rebasing: input[start..<extent.close]))
        }
        return try withUnescapedBytes(from: start, to: extent.close, body)
    }

    /// Finds the closing quote of the string whose content starts at `start`, validating the
    /// content; reports whether it has escapes and whether it is all ASCII.
    // @inlinable: called by the inlinable readStringBytes(_:) and readKeyAndColon(_:); it hands
    // Text's out-of-line scan two words instead of the whole scanner.
    @inlinable @inline(__always)
    func scanStringBody(from start: Int) throws -> (close: Int, escaped: Bool, ascii: Bool) {
        try text.scanStringBody(from: start, maxLength: limits.maxStringLength)
    }

    /// Unescapes the validated string content in `start..<close` into a temporary buffer and
    /// calls `body` with the result.
    // @usableFromInline: called by the inlinable readStringBytes(_:) and readKeyAndColon(_:) for
    // strings with escapes; out of line, as escapes are rare.
    // Unsafe: `body` gets the unescaped bytes in a temporary buffer, valid during the call.
    @usableFromInline
    func withUnescapedBytes<T>(
        from start: Int, to close: Int, _ body: (UnsafeRawBufferPointer) throws -> T
    ) throws -> T {
        // Unescaping never grows a string: `\n` (2 bytes) → 1, `\uXXXX` (6) → at most 3,
        // a surrogate pair (12) → 4, so the escaped length is enough.
        // Unsafe: the unescaped bytes go to a temporary allocation (on the stack when short), not
        // an array; never shorter than the escaped text, as the comment above says.
        try withUnsafeTemporaryAllocation(byteCount: max(close &- start, 1), alignment: 1) { buffer in
            let count = unescape(from: start, to: close, into: buffer)
            // Unsafe: only the `count` bytes that unescape(from:to:into:) initialized are handed
            // out.
            return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Writes the unescaped form of the validated string content `start..<close` into `buffer`
    /// and returns its length. Never writes past `buffer`; unexpected input becomes U+FFFD.
    // @usableFromInline: no inlinable body calls this (only withUnescapedBytes(from:to:_:), out of
    // line, does): a candidate for removal.
    // Unsafe: writes into the caller's temporary buffer; never past `buffer.count`, which
    // append(_:) and the word loop check.
    @usableFromInline
    func unescape(from start: Int, to close: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let output = buffer.baseAddress else { return 0 }
        var written = 0
        var index = start

        func append(_ byte: UInt8) {
            if written < buffer.count {
                output.storeBytes(of: byte, toByteOffset: written, as: UInt8.self)
                written &+= 1
            }
        }
        func appendScalar(_ value: UInt32) {
            let scalar = Unicode.Scalar(value)?.value ?? 0xFFFD
            if scalar < 0x80 {
                append(UInt8(truncatingIfNeeded: scalar))
            } else if scalar < 0x800 {
                append(0xC0 | UInt8(truncatingIfNeeded: scalar >> 6))
                append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
            } else if scalar < 0x10000 {
                append(0xE0 | UInt8(truncatingIfNeeded: scalar >> 12))
                append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
                append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
            } else {
                append(0xF0 | UInt8(truncatingIfNeeded: scalar >> 18))
                append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 12) & 0x3F))
                append(0x80 | UInt8(truncatingIfNeeded: (scalar >> 6) & 0x3F))
                append(0x80 | UInt8(truncatingIfNeeded: scalar & 0x3F))
            }
        }
        /// The code unit of the four hexadecimal digits at `offset` (inside the string), or
        /// U+FFFD.
        func hexUnit(at offset: Int) -> UInt16 {
            // Unsafe: the four digits as one unaligned word; callers check `offset + 4 <= close`.
            let digits = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            return ByteScanning.allHexDigits(digits) ? ByteScanning.hexValue(ofDigits: digits) : 0xFFFD
        }

        while index < close {
            // Eight bytes at a time to the next backslash, each word stored as it is read: the
            // runs between escapes are most of an escaped string (a `\n` or `\u00e9` now and then
            // in a sentence), and the bytes stored past the backslash are overwritten next.
            if let base = input.baseAddress {
                // Unsafe: no further than the string's end and the buffer's room, whichever is nearer.
                ByteScanning.copyUnmarked(
                    from: base, at: &index, to: output, at: &written, end: min(close, index &+ (buffer.count &- written)),
                    flags: { ByteScanning.equal($0, UInt8(ascii: "\\")) })
            }
            guard index < close else { break }
            let byte = input[index]
            guard byte == UInt8(ascii: "\\") else {
                append(byte)
                index &+= 1
                continue
            }
            let kind: UInt8 = index &+ 1 < close ? input[index &+ 1] : UInt8(ascii: "\\")
            index &+= 2
            switch kind {
            case UInt8(ascii: "b"): append(0x08)
            case UInt8(ascii: "f"): append(0x0C)
            case UInt8(ascii: "n"): append(0x0A)
            case UInt8(ascii: "r"): append(0x0D)
            case UInt8(ascii: "t"): append(0x09)
            case UInt8(ascii: "u"):
                let unit = index &+ 4 <= close ? hexUnit(at: index) : 0xFFFD
                index &+= 4
                if (0xD800...0xDBFF).contains(unit), index &+ 6 <= close,
                   input[index] == UInt8(ascii: "\\"), input[index &+ 1] == UInt8(ascii: "u"),
                   case let low = hexUnit(at: index &+ 2), (0xDC00...0xDFFF).contains(low) {
                    index &+= 6
                    appendScalar(0x10000 &+ (UInt32(unit &- 0xD800) << 10) &+ UInt32(low &- 0xDC00))
                } else {
                    appendScalar(UInt32(unit))
                }
            default:
                append(kind)
            }
            index = min(index, close)
        }
        return written
    }
}
