/// Writing strings, numbers, booleans and null with ``JSONWriter``.
///
/// Strings are copied in runs between the bytes that need escaping, found eight bytes at a
/// time; integers are formatted straight into the buffer; doubles use Swift's shortest
/// round-tripping form.
extension JSONWriter {
    /// Writes a string value, escaping only `"`, `\` and control characters.
    ///
    /// ```swift
    /// writer.writeString("café / \"bar\"") // "café / \"bar\""
    /// ```
    @inlinable
    public mutating func writeString(_ value: String) {
        prepareForValue()
        appendQuoted(value)
    }

    /// Writes a string value from UTF-8 bytes, which must be valid UTF-8.
    @inlinable
    public mutating func writeString(utf8 value: UnsafeRawBufferPointer) {
        prepareForValue()
        appendQuoted(utf8: value)
    }

    /// Writes `true` or `false`.
    @inlinable
    public mutating func writeBool(_ value: Bool) {
        prepareForValue()
        if value {
            appendWord(0x6575_7274) // "true"
        } else {
            appendWord(0x736C_6166) // "fals"
            bytes.append(UInt8(ascii: "e"))
        }
    }

    /// Writes `null`.
    @inlinable
    public mutating func writeNull() {
        prepareForValue()
        appendWord(0x6C6C_756E) // "null"
    }

    /// Appends the four bytes of `word`, lowest first.
    @inlinable @inline(__always)
    mutating func appendWord(_ word: UInt32) {
        withUnsafeBytes(of: word.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes an integer.
    ///
    /// ```swift
    /// writer.writeInt64(-42) // -42
    /// ```
    @inlinable
    public mutating func writeInt64(_ value: Int64) {
        prepareForValue()
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(0 &- UInt64(bitPattern: value))
        } else {
            appendDigits(UInt64(value))
        }
    }

    /// Writes an unsigned integer.
    @inlinable
    public mutating func writeUInt64(_ value: UInt64) {
        prepareForValue()
        appendDigits(value)
    }

    /// Writes a double in the shortest form that reads back as the same double.
    ///
    /// The form is Swift's `description`: `0.1`, `-2.5`, `1e-05`, `1.5e+300`, `5e-324`, and
    /// whole numbers with a trailing `.0` (`1.0`, `-0.0`). Keeping the `.0` means a
    /// ``JSONValue/double(_:)`` written here parses back as `.double`, not `.int`; it is valid
    /// JSON and every reader takes it as the same number. Throws ``JSONWriteError`` for NaN and
    /// infinities, which JSON cannot express.
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
            let scanner = JSONScanner(bytes: UnsafeRawBufferPointer(utf8))
            guard let first = utf8.first, JSONValueKind(firstByte: first) == .number,
                  let literal = try? scanner.scanNumber(at: 0) else { return false }
            return literal.end == utf8.count
        }
        guard isValid else { throw JSONWriteError(.invalidNumberText(text)) }
        prepareForValue()
        bytes.append(contentsOf: text.utf8)
    }

    // MARK: - Formatting

    /// Appends the decimal digits of `value`, with leading zeros up to `minimumCount` digits
    /// (`5` with 3 is `005`: a fraction's places).
    @usableFromInline
    mutating func appendDigits(_ value: UInt64, minimumCount: Int = 1) {
        if value < 10 && minimumCount <= 1 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // room for the 20 digits of UInt64.max
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            var rest = value
            while rest > 0 || buffer.count &- index < minimumCount {
                index &-= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// Appends a finite double in Swift's shortest round-tripping form.
    @usableFromInline
    mutating func appendDouble(_ value: Double) {
        if appendShortDecimal(value) { return }
        var text = value.description
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends a double that is a decimal of at most eight places between 0.001 and 10^15
    /// (prices, coordinates, ratios: most doubles payloads carry) from its integer digits, with
    /// no string made on the way; returns false, writing nothing, for the others.
    ///
    /// It writes what `description` writes. The fewest places `k` for which the double is the
    /// nearest one to `n / 10^k` give the shortest digits that read back as it: below 2^52 a
    /// double's neighbours are less than one unit of `n` apart, so that `n` is the only one
    /// (a test compares the two forms on millions of doubles).
    @usableFromInline
    mutating func appendShortDecimal(_ value: Double) -> Bool {
        let magnitude = value.magnitude
        if magnitude == 0 {
            if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: "."), UInt8(ascii: "0")])
            return true
        }
        guard magnitude >= 0.001, magnitude < 1e15 else { return false }
        var scale = 1.0
        var divisor: UInt64 = 1
        for places in 0...8 {
            let scaled = magnitude * scale
            guard scaled < 4_503_599_627_370_496 else { return false }  // 2^52
            // Rounded by conversion (no libm call); an addition that rounds up just misses
            // here, and the next places or `description` take the double.
            let digits = UInt64(scaled + 0.5)
            if Double(digits) / scale == magnitude {
                if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
                appendDigits(digits / divisor)
                bytes.append(UInt8(ascii: "."))
                appendDigits(digits % divisor, minimumCount: places)
                return true
            }
            scale *= 10
            divisor *= 10
        }
        return false
    }

    /// Appends `string` in quotes, escaped.
    @usableFromInline
    mutating func appendQuoted(_ string: String) {
        var string = string
        string.withUTF8 { appendQuoted(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// Appends UTF-8 text in quotes, escaping `"`, `\` and control characters only.
    @usableFromInline
    mutating func appendQuoted(utf8 source: UnsafeRawBufferPointer) {
        bytes.append(UInt8(ascii: "\""))
        let count = source.count
        var index = 0
        var runStart = 0
        while true {
            while index &+ 8 <= count {
                let word = UInt64(littleEndian: source.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let mask = ByteScanning.escapeSpecials(word)
                if mask != 0 {
                    index &+= mask.trailingZeroBitCount &>> 3
                    break
                }
                index &+= 8
            }
            guard index < count else { break }
            let byte = source[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                if index > runStart {
                    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: source[runStart..<index]))
                }
                appendEscape(for: byte)
                runStart = index &+ 1
            }
            index &+= 1
        }
        if count > runStart {
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: source[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the escape for `byte` (a quote, backslash or control character).
    @usableFromInline
    mutating func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                      hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
        }
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
