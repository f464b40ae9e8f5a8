/// Writing strings, numbers, booleans and null with ``JSONWriter``.
///
/// Strings are copied in runs between the bytes that need escaping, found eight bytes at a
/// time; integers are formatted straight into the buffer; doubles use Swift's shortest
/// round-tripping form, formatted straight into the buffer too (JSONWriter+Doubles.swift).
extension JSONWriter {
    /// Writes a string value, escaping only `"`, `\` and control characters.
    ///
    /// ```swift
    /// writer.writeString("café / \"bar\"") // "café / \"bar\""
    /// ```
    // @inlinable: called for every String value (JSONBytesWriter.encodeString(_:)); see Performance
    // in the type's documentation.
    @inlinable
    public mutating func writeString(_ value: String) {
        // Unsafe: the string's UTF-8 storage is read in place, not copied first; borrowed where it
        // is contiguous (native strings, small ones on the stack), so no copy of the string is
        // retained for the call.
        let written: Void? = value.utf8.withContiguousStorageIfAvailable { writeString(utf8: UnsafeRawBufferPointer($0)) }
        if written == nil { writeNoncontiguousString(value) }
    }

    /// Writes a string whose UTF-8 is not contiguous (a bridged string), made contiguous first.
    // @usableFromInline: called by the inlinable writeString(_:) for strings it cannot borrow;
    // rare, so out of line.
    @usableFromInline
    mutating func writeNoncontiguousString(_ value: String) {
        var value = value
        // Unsafe: the string's UTF-8, made contiguous, read in place within withUTF8.
        value.withUTF8 { writeString(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Writes a string value from UTF-8 bytes, which must be valid UTF-8.
    // @inlinable: called for every string written (writeString(_:), JSONBytesWriter's dates); the
    // reservation is compiled into the caller, the scan and copy stay out of line.
    // Unsafe: the caller's UTF-8 bytes, read in place during the call.
    @inlinable
    public mutating func writeString(utf8 value: UnsafeRawBufferPointer) {
        // Unsafe: room for the text and its two quotes, which appendQuoted(utf8:reserved:) fills.
        let target = reserveValue(value.count &+ 2)
        appendQuoted(utf8: value, reserved: target)
    }

    /// Writes `true` or `false`.
    // @inlinable: called for every Bool (JSONBytesWriter.encodeBool(_:)): one word store compiled
    // into the caller.
    @inlinable
    public mutating func writeBool(_ value: Bool) {
        let target = reserveValue(8)
        // "true", "false" and padding, lowest byte first.
        // Unsafe: `true` or `false` as one word into the eight bytes reserved; `count` keeps 4 or 5
        // of them.
        UnsafeMutableRawPointer(target).storeBytes(
            of: (value ? 0x0000_0000_6575_7274 : 0x0000_0065_736C_6166 as UInt64).littleEndian, as: UInt64.self)
        count &+= value ? 4 : 5
    }

    /// Writes `null`.
    // @inlinable: called for every nil written as `null` (JSONBytesWriter.encodeNil()): one word
    // store compiled into the caller.
    @inlinable
    public mutating func writeNull() {
        let target = reserveValue(8)
        // Unsafe: `null` as one word into the eight bytes reserved; `count` keeps 4 of them.
        UnsafeMutableRawPointer(target).storeBytes(of: UInt64(0x6C6C_756E).littleEndian, as: UInt64.self)
        count &+= 4
    }

    /// Writes `[]`: an empty array as one value, without opening and closing a container.
    // @inlinable: called for every empty array a model writes (JSONBytesWriter.encodeArray): a
    // two-byte store compiled into the caller, where beginArray() and endArray() are two calls.
    @inlinable
    mutating func writeEmptyArray() {
        let target = reserveValue(2)
        // Unsafe: `[]` into the two bytes reserved.
        UnsafeMutableRawPointer(target).storeBytes(of: UInt16(0x5D5B).littleEndian, as: UInt16.self)
        count &+= 2
        hasElements = true
    }

    /// Writes an integer.
    ///
    /// ```swift
    /// writer.writeInt64(-42) // -42
    /// ```
    // @inlinable: called for every signed integer (JSONBytesWriter.encodeInt64(_:)); the
    // reservation and the one-digit case are compiled into the caller.
    @inlinable
    public mutating func writeInt64(_ value: Int64) {
        // Unsafe: room for a sign and the 19 digits of the longest Int64; the stores below stay
        // within it.
        let target = reserveValue(20)
        if value < 0 {
            target.pointee = UInt8(ascii: "-")
            count &+= 1 &+ JSONWriter.storeDigits(0 &- UInt64(bitPattern: value), at: target + 1)
        } else {
            count &+= JSONWriter.storeDigits(UInt64(value), at: target)
        }
    }

    /// Writes an unsigned integer.
    // @inlinable: called for every unsigned integer (JSONBytesWriter.encodeUInt64(_:)); the
    // reservation and the one-digit case are compiled into the caller.
    @inlinable
    public mutating func writeUInt64(_ value: UInt64) {
        // Unsafe: room for the 20 digits of the largest UInt64, where storeDigits(_:at:) writes.
        let target = reserveValue(20)
        count &+= JSONWriter.storeDigits(value, at: target)
    }

    /// Writes a double in the shortest form that reads back as the same double.
    ///
    /// The form is Swift's `description`: `0.1`, `-2.5`, `1e-05`, `1.5e+300`, `5e-324`, and
    /// whole numbers with a trailing `.0` (`1.0`, `-0.0`). Keeping the `.0` means a
    /// `JSONValue.double(_:)` written here parses back as `.double`, not `.int`; it is valid
    /// JSON and every reader takes it as the same number. Throws ``JSONWriteError`` for NaN and
    /// infinities, which JSON cannot express.
    // @inlinable: called for every Double (JSONBytesWriter.encodeDouble(_:)); the separator is
    // compiled into the caller, the formatting stays out of line.
    @inlinable
    public mutating func writeDouble(_ value: Double) throws {
        guard value.isFinite else { throw JSONWriteError(.nonFiniteNumber(value)) }
        prepareForValue()
        appendDouble(value)
    }

    /// Writes a number given as its JSON literal, such as a `Decimal`'s description.
    ///
    /// Throws ``JSONWriteError`` when `text` is not exactly one RFC 8259 number.
    ///
    /// ```swift
    /// try writer.writeNumber(text: "19.99")
    /// ```
    public mutating func writeNumber(text: String) throws {
        var text = text
        let isValid = text.withUTF8 { utf8 in
            // Unsafe: the text's UTF-8 storage is checked in place, within withUTF8.
            let scanner = JSONScanner(bytes: UnsafeRawBufferPointer(utf8))
            guard let first = utf8.first, JSONValueKind(firstByte: first) == .number,
                  let literal = try? scanner.scanNumber(at: 0) else { return false }
            return literal.end == utf8.count
        }
        guard isValid else { throw JSONWriteError(.invalidNumberText(text)) }
        prepareForValue()
        // Unsafe: the checked literal is copied from the string's storage; no array in between.
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    // MARK: - Formatting

    /// Appends `string` in quotes, escaped.
    // @usableFromInline: called by the inlinable writeKey(_:) for every key given as a String, and
    // by writeKey(preEscaped:) for a static string without a pointer; long, so out of line.
    @usableFromInline
    mutating func appendQuoted(_ string: String) {
        // Unsafe: the string's UTF-8 storage is scanned and copied in place, borrowed where it is
        // contiguous (no copy of the string to retain), else within withUTF8.
        let appended: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            // Unsafe: room for the text and its two quotes, which appendQuoted(utf8:reserved:)
            // fills.
            let target = reserve(utf8.count &+ 2)
            appendQuoted(utf8: UnsafeRawBufferPointer(utf8), reserved: target)
        }
        guard appended == nil else { return }
        var string = string
        string.withUTF8 { utf8 in
            // Unsafe: room for the text and its two quotes, which appendQuoted(utf8:reserved:)
            // fills.
            let target = reserve(utf8.count &+ 2)
            appendQuoted(utf8: UnsafeRawBufferPointer(utf8), reserved: target)
        }
    }

    /// Appends UTF-8 text in quotes, escaping `"`, `\` and control characters only, into
    /// `reserved`: room for the text and its quotes at the end of the output.
    ///
    /// The text is copied a word at a time as it is checked, in one pass (a word is stored before
    /// its bytes are looked at; past a byte to escape, what was stored is written over), and its
    /// last bytes are checked and copied as the word that ends with them, so text with nothing to
    /// escape (most of it) costs a load, a check and a store per eight bytes.
    // @usableFromInline: called by the inlinable writeString(utf8:) for every string value; the
    // word loop is long, so it stays out of line.
    // Unsafe: copies the caller's bytes into the `source.count + 2` bytes the caller reserved at
    // `target`, so the text is scanned and copied in one pass.
    @usableFromInline
    mutating func appendQuoted(utf8 source: UnsafeRawBufferPointer, reserved target: UnsafeMutablePointer<UInt8>) {
        let length = source.count
        target.pointee = UInt8(ascii: "\"")
        // Unsafe: the text goes after the opening quote, as raw memory for unaligned word stores.
        let output = UnsafeMutableRawPointer(target + 1)
        var index = 0
        scan: if let bytes = source.baseAddress {
            var written = 0
            // Unsafe: the `length` bytes of the source into as many reserved after the quote.
            ByteScanning.copyUnmarked(
                from: bytes, at: &index, to: output, at: &written, end: length, flags: ByteScanning.escapeSpecials)
            if index &+ 8 <= length { break scan }
            if index < length {
                if length >= 8 {
                    // The last word, overlapping bytes already checked (their flags are shifted out).
                    // Unsafe: the last eight bytes of the text (`length >= 8` here), loaded and
                    // stored whole, inside both the source and the reservation.
                    let word = bytes.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
                    let checked = UInt64(truncatingIfNeeded: 8 &- (length &- index)) &* 8
                    let mask = ByteScanning.escapeSpecials(UInt64(littleEndian: word)) >> checked
                    output.storeBytes(of: word, toByteOffset: length &- 8, as: UInt64.self)
                    index = mask == 0 ? length : index &+ (mask.trailingZeroBitCount &>> 3)
                } else {
                    while index < length {
                        // Unsafe: byte by byte below `length`, inside both the source and the
                        // reservation.
                        let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
                        if ByteScanning.mustEscape(byte) { break }
                        output.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
                        index &+= 1
                    }
                }
            }
        }
        if index == length {
            // Unsafe: the closing quote takes the last of the bytes reserved.
            output.storeBytes(of: UInt8(ascii: "\""), toByteOffset: length, as: UInt8.self)
            count &+= length &+ 2
            return
        }
        // Bytes to escape: the text before the first of them is in place.
        count &+= 1 &+ index
        // Unsafe: the rest of the text from the first byte to escape, a slice of the caller's
        // bytes, no copy.
        appendEscaped(UnsafeRawBufferPointer(rebasing: source[index...]))
        append(UInt8(ascii: "\""))
    }
}

/// Escaping text for ``JSONWriter``: what follows the first byte of a string that JSON must
/// escape (a quote, a backslash, a control character), after appendQuoted(utf8:reserved:) has
/// copied the text before it.
extension JSONWriter {
    /// Appends `source` escaped, without quotes; its first byte is one to escape.
    ///
    /// One reservation per block of 4 KiB for the worst case (every byte a six-byte `\u00XX`),
    /// then runs copied a word at a time as they are checked, as appendQuoted(utf8:reserved:)
    /// copies, and escapes stored as words: text with a line break every few dozen bytes pays no
    /// reservation, call or uniqueness check per run or per escape.
    // Unsafe: reads the caller's bytes in place and stores into the room reserved here.
    mutating func appendEscaped(_ source: UnsafeRawBufferPointer) {
        guard let bytes = source.baseAddress else { return }
        var index = 0
        while index < source.count {
            let end = min(source.count, index &+ 4096)
            // Unsafe: six bytes per byte of the block at most, and eight more for the last word.
            let output = UnsafeMutableRawPointer(reserve((end &- index) &* 6 &+ 8))
            var written = 0
            while index < end {
                let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
                if ByteScanning.mustEscape(byte) {
                    written &+= JSONWriter.storeEscape(for: byte, at: output + written)
                    index &+= 1
                    continue
                }
                // A run: whole words of the block up to the next byte to escape.
                // Unsafe: the block's bytes into the room reserved, six times as large.
                ByteScanning.copyUnmarked(
                    from: bytes, at: &index, to: output, at: &written, end: end, flags: ByteScanning.escapeSpecials)
                // The block's last bytes, fewer than eight, one at a time up to the next to escape.
                if index &+ 8 > end {
                    while index < end {
                        let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
                        if ByteScanning.mustEscape(byte) { break }
                        // Unsafe: one byte into the room reserved.
                        output.storeBytes(of: byte, toByteOffset: written, as: UInt8.self)
                        index &+= 1
                        written &+= 1
                    }
                }
            }
            count &+= written
        }
    }

    /// Stores the escape for `byte` (a quote, backslash or control character) at `target`;
    /// returns its length, 2 or 6 (`\u00XX`).
    // Unsafe: stores one word at `target`, inside the worst-case room appendEscaped(_:) reserved.
    static func storeEscape(for byte: UInt8, at target: UnsafeMutableRawPointer) -> Int {
        let short: UInt64
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): short = UInt64(byte) << 8 | 0x5C
        case 0x08: short = 0x625C  // \b
        case 0x0C: short = 0x665C  // \f
        case 0x0A: short = 0x6E5C  // \n
        case 0x0D: short = 0x725C  // \r
        case 0x09: short = 0x745C  // \t
        default:
            // \u00 and the two hex digits of the byte, lowest byte first.
            let hex = { (nibble: UInt8) -> UInt64 in UInt64(nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble) }
            let word: UInt64 = 0x3030_755C | hex(byte >> 4) << 32 | hex(byte & 0x0F) << 40
            // Unsafe: six of the eight bytes stored count.
            target.storeBytes(of: word.littleEndian, as: UInt64.self)
            return 6
        }
        // Unsafe: two of the eight bytes stored count.
        target.storeBytes(of: short.littleEndian, as: UInt64.self)
        return 2
    }
}

/// A value that JSON cannot express, or a bad number literal, passed to ``JSONWriter``.
///
/// ```swift
/// do { try writer.writeDouble(.nan) } catch let error as JSONWriteError {
///     print(error) // cannot write 'nan' as JSON: JSON has no NaN or infinity
/// }
/// ```
public struct JSONWriteError: Error, Hashable, CustomStringConvertible, Sendable {
    /// What could not be written.
    ///
    /// Not frozen: kinds can be added in a minor release, so a `switch` over them needs a
    /// `default`.
    public enum Kind: Hashable, Sendable {
        /// NaN or an infinity.
        case nonFiniteNumber(Double)
        /// Text given to ``JSONWriter/writeNumber(text:)`` that is not one JSON number.
        case invalidNumberText(String)
    }

    /// What could not be written.
    public let kind: Kind

    /// Creates an error.
    public init(_ kind: Kind) {
        self.kind = kind
    }

    /// The problem as one lowercase sentence.
    public var description: String {
        switch kind {
        case .nonFiniteNumber(let value):
            "cannot write '\(value)' as JSON: JSON has no NaN or infinity"
        case .invalidNumberText(let text):
            "cannot write '\(text)' as a JSON number: it is not an RFC 8259 number literal"
        }
    }
}
